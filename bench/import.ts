/**
 * `npx tsx bench/import.ts`: the go-live import of docs/design.md §10 at scale — 50,000 pads of 50 numbers, a third of
 * them partly used with one cancelled number, held by a user or a branch — applied through the import service in one
 * transaction. Runs on PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres, a fresh
 * database made and dropped) and prints the time and the process's peak memory.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { runImport } from '../src/server/features/imports/lifecycle.ts';
import { verifyLedger } from '../src/server/features/ledger/verifier.ts';
import { startApp } from '../src/server/start.ts';
import { createBranch, createRoute, createUser } from '../src/server/test/factories.ts';

const PADS = Number(process.env.BENCH_IMPORT_PADS ?? 50_000);
const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `padtrack_bench_import_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(server);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), dataDir: null });
const started = await startApp(
  { ...loadConfig({ DATA_DIR: path.join(os.tmpdir(), name), ADMIN_PASSWORD: 'Admin@12345' }), webDir: null },
  { database: { ...database, close: async () => undefined }, jobs: false, logger: pino({ level: 'warn' }) },
);
try {
  const route = await createRoute(started.ctx.db, { name: 'Bench Route', tin: '999-000-111' });
  const branch = await createBranch(started.ctx.db, { name: 'Bench Branch' });
  const user = await createUser(started.ctx.db, { email: 'bench@padtrack.test', branch_id: branch.id, role_id: 7 });
  const lines = ['route,series_from,series_to,pad_number,holder,used,cancelled,remarks'];
  for (let i = 0; i < PADS; i += 1) {
    const from = 1_000_000 + i * 50;
    const used = i % 3 === 0 ? `${from}-${from + 19}` : '';
    const cancelled = i % 3 === 0 ? `${from + 20}` : '';
    lines.push(`${route.tin},${from},${from + 49},${i + 1},${i % 2 === 0 ? user.email : branch.name},${used},${cancelled},`);
  }
  const content = Buffer.from(lines.join('\n'));
  const loadAtStart = os.loadavg()[0];
  const before = process.memoryUsage();
  let peak = before.rss;
  let heapPeak = before.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 50);
  const start = performance.now();
  const result = await runImport(started.ctx, null, { kind: 'pads', dryRun: false, fileName: 'bench.csv', content });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(timer);
  const verified = await verifyLedger(started.ctx.db);
  console.log(
    `import of ${PADS.toLocaleString('en-US')} pads (${(content.length / 1e6).toFixed(1)} MB CSV): applied=${result.applied}, errors=${result.errors.length}, ` +
      `${seconds.toFixed(1)} s, peak RSS ${(peak / 1e6).toFixed(0)} MB (start ${(before.rss / 1e6).toFixed(0)} MB), ` +
      `peak heap ${(heapPeak / 1e6).toFixed(0)} MB (start ${(before.heapUsed / 1e6).toFixed(0)} MB); verifier problems: ${verified.problems.length}; ` +
      `load average ${loadAtStart.toFixed(2)} at the start, now ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
  );
} finally {
  await started.app.close();
  await database.close();
  const dropper = new pg.Client({ connectionString: server });
  await dropper.connect();
  await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await dropper.end();
}
