/**
 * The full `ledger:verify` on five years of history (issue 39): wall time, CPU of this process (worker threads included)
 * and of the PostgreSQL backends, at idle and with one core busy, per million events; beside it, its anchor: psql
 * copying the same columns of every event in pad and seq order to /dev/null (psql's CPU and its backend's).
 *   npx tsx bench/verify.ts [database=padtrack_5y_verify] [--idle-only]
 * The database is a copy of bench/history.ts's (`createdb -T padtrack_bench_4x100k …`) on TEST_DATABASE_URL's server,
 * its ended months closed once so the stored balances are checked too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { DEFAULT_POOL_TIMEOUTS, openDatabase } from '../src/server/db/client.ts';
import { rowsOf } from '../src/server/db/rows.ts';
import { closeEndedMonths } from '../src/server/features/ledger/month-balances.ts';
import { verifyLedger } from '../src/server/features/ledger/verifier.ts';
import { backendPids, type Cost, idleAndBusy, measure, processCpuMs } from './cpu.ts';
import { loadAverage, machine, PRODUCTION_ENV, saveResult } from './support.ts';

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dbName = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'padtrack_5y_verify';
/** `--idle-only` skips the busy-core runs (a quick look while developing). */
const idleOnly = process.argv.includes('--idle-only');
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;

/** The columns the verifier reads of every event, as the anchor copies them. */
const COPIED =
  'id, pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id, counterparty_user_id, ' +
  'counterparty_branch_id, invoice_id, actor_user_id, reason, recorded_at, business_date, prev_hash, hash, approver_user_id, ' +
  'incident_id, copies_retained, device_at, import_id';

const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** CPU time (user + system) of this process's children that have ended and been waited for, in ms (/proc/self/stat cutime + cstime). */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * psql's `\copy (select … order by pad_id, seq) to /dev/null`: its own CPU, and its backend's read from /proc before and
 * after the copy (psql names its backend first and says when the copy is done).
 */
async function anchor(): Promise<Cost> {
  const childrenBefore = childrenCpuMs();
  const psql = spawn('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', url.toString()], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: psql.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const nextLine = async () => String((await iterator.next()).value);
  psql.stdin.write('select pg_backend_pid();\n');
  const pid = Number(await nextLine());
  const before = processCpuMs([pid]);
  const start = performance.now();
  psql.stdin.write(`\\copy (select ${COPIED} from pad_events order by pad_id, seq) to /dev/null\n\\echo copied\n`);
  await nextLine();
  const wall = performance.now() - start;
  const after = processCpuMs([pid]);
  psql.stdin.end();
  await new Promise((resolve) => psql.once('exit', resolve));
  return { wall_ms: Math.round(wall), node_cpu_ms: childrenCpuMs() - childrenBefore, pg_cpu_ms: after - before };
}

const perMillion = (cost: Cost, events: number) => ({
  wall_s: Number((cost.wall_ms / 1000 / (events / 1e6)).toFixed(2)),
  cpu_s: Number(((cost.node_cpu_ms + cost.pg_cpu_ms) / 1000 / (events / 1e6)).toFixed(2)),
});

const config = {
  ...loadConfig({ ...PRODUCTION_ENV, DATABASE_URL: url.toString(), APP_URL: 'http://padtrack.test' }),
  webDir: null,
};
/* Idle connections are kept for the whole run: a backend that closed during a measurement would take its CPU time with it. */
const database = await openDatabase({
  url: url.toString(),
  dataDir: null,
  timeouts: { ...DEFAULT_POOL_TIMEOUTS, idleTimeoutMs: 3_600_000 },
});
const db = database.db;
try {
  const quiet = pino({ level: 'silent' });
  const [counts] = await rowsOf<{ pads: number; events: number; closes: number }>(
    db,
    sql`select (select count(*) from pads)::int as pads, (select count(*) from pad_events)::int as events,
      (select count(*) from raaf_month_closes)::int as closes`,
  );
  if (counts.closes === 0) {
    log('closing the ended months once, so the stored balances are checked too');
    // -- closing reads only the context's db, config and ledger clock; a benchmark has no server to take the rest from.
    await closeEndedMonths({ db, config, log: quiet } as unknown as Parameters<typeof closeEndedMonths>[0]);
  }
  log(`${dbName}: ${counts.pads} pads, ${counts.events} events`);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const pids = () => backendPids((text, values) => admin.query<{ pid: number }>(text, values), dbName);

  const verify = async () => {
    const { result, cost } = await measure(() => verifyLedger(db, { mode: 'full' }), pids);
    log(`verify: ${JSON.stringify(cost)} (${result.pads} pads, ${result.events} events, ${result.problems.length} problem(s))`);
    return {
      ...cost,
      events: result.events,
      problems: result.problems.length,
      first_problem: result.problems[0] ?? null,
      per_million: perMillion(cost, result.events),
    };
  };
  const copy = async () => {
    const cost = await anchor();
    log(`anchor: ${JSON.stringify(cost)}`);
    return { ...cost, per_million: perMillion(cost, counts.events) };
  };
  const run = async () => ({ verify: await verify(), anchor: await copy() });
  const { idle, busy } = idleOnly ? { idle: await run(), busy: null } : await idleAndBusy(run);
  saveResult('verify', {
    date: new Date().toISOString(),
    machine: machine(),
    database: dbName,
    load_average_1m: loadAverage(),
    pads: counts.pads,
    events: counts.events,
    idle,
    busy,
  });
  await admin.end();
} finally {
  await database.close();
}
