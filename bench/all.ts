/**
 * `npm run bench`: every benchmark of docs/BENCHMARKS.md in turn, on PGlite and (where it applies) on the
 * PostgreSQL server named by TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); each
 * writes its JSON to .tmp/bench/ and prints it. Copy the figures into docs/BENCHMARKS.md with the load average. The table
 * shows wall and CPU time (this process + PostgreSQL backends), idle and with one core busy, beside each figure's anchor,
 * for the scripts that measure so (bench/cpu.ts); a script in the list that does not exist yet is skipped with a note.
 * `npm run bench -- api ledger` runs only the scripts whose names contain one of the words.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureStressNg } from './cpu.ts';
import { loadAverage, machine, ROOT } from './support.ts';
import { benchRows, benchTable } from './table.ts';

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const runs: Array<[string, Record<string, string>]> = [
  ['bench/api.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/scale.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/scale.ts', {}],
  ['bench/pads.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/pads.ts', {}],
  ['bench/reports.ts', {}],
  ['bench/reports.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/ledger.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/ledger.ts', {}],
  ['bench/history.ts', { TEST_DATABASE_URL: pgUrl, BENCH_HISTORY_PADS: '20000' }],
  ['bench/history.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/verify.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/raaf.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/custody.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/range-usage.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/embedded.ts', { TEST_DATABASE_URL: pgUrl }],
  ['bench/phone.ts', {}],
  ['bench/start.ts', {}],
];
ensureStressNg();
const started = Date.now();
console.log(`${machine()}; load average ${loadAverage()} at ${new Date().toISOString()}`);
const only = process.argv.slice(2);
const failed: string[] = [];
const missing: string[] = [];
for (const [script, env] of runs.filter(([name]) => only.length === 0 || only.some((word) => name.includes(word)))) {
  const label = `${script}${env.TEST_DATABASE_URL ? ' (PostgreSQL)' : ' (PGlite)'}`;
  if (!fs.existsSync(path.join(ROOT, script))) {
    console.log(`\n== ${label}: not written yet, skipped`);
    missing.push(label);
    continue;
  }
  console.log(`\n== ${label}, load average ${loadAverage()}`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.TEST_DATABASE_URL) delete childEnv.TEST_DATABASE_URL;
  try {
    execFileSync(process.execPath, [tsx, path.join(ROOT, script)], { stdio: 'inherit', env: childEnv });
  } catch {
    failed.push(label);
  }
}
console.log(`\n${machine()}; load average ${loadAverage()} at ${new Date().toISOString()}\n\n${benchTable(benchRows(started))}`);
if (missing.length > 0) console.log(`\nSkipped, no such script yet: ${missing.join(', ')}`);
if (failed.length > 0) {
  console.error(`\nMissed a budget or failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
