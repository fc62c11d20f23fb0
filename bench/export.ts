/**
 * docs/BENCHMARKS.md "List export": 400,000 pads exported as CSV and as .xlsx over real HTTP, and what the server's
 * memory does afterwards (issue 39: idle RSS back within 20 MB of where it was before the export). The server runs in
 * a child process of its own (the same script with `--serve`), so its resident memory is the server's alone: sampled
 * from /proc every 25 ms during an export (peak) and read after it has been idle a few seconds (idle), before and
 * after each of two rounds, the first at idle, the second with one core busy (bench/cpu.ts). Each export is set beside
 * its anchor, psql's `\copy (the export's select) to file csv`: what reading the same rows out of PostgreSQL costs.
 * Needs PostgreSQL (TEST_DATABASE_URL); the server seeds its own database and drops it at the end:
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/export.ts [pads=400000]
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/server/db/rows.ts';
import { ROLE } from '../src/shared/lookups.ts';
import { createRoute, signedIn } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { backendPids, measure, processCpuMs, withBusyCore } from './cpu.ts';
import { loadAverage, machine, PRODUCTION_ENV, RESULTS_DIR, saveResult } from './support.ts';

const LIMIT_MS = 30_000;
/** How long the server is left alone before its idle RSS is read. */
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 5_000);
/** A second, later reading of the idle server. */
const LATER_MS = 15_000;
/** BENCH_GC=1 runs the server with --expose-gc and reads, after each idle reading, what a full GC leaves. */
const GC = process.env.BENCH_GC === '1';
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** What the server child tells the bench once it listens. */
interface Ready {
  address: string;
  headers: Record<string, string>;
  route: number;
  database: string;
  seed_ms: number;
}

/** The size of each V8 heap space the server holds, in MB: which of them kept what an export grew. */
const heapSpaces = () =>
  Object.fromEntries(
    getHeapSpaceStatistics()
      .map((space) => [space.space_name, mb(space.space_size)])
      .filter(([, size]) => Number(size) > 0),
  );

/** The server: a fresh database with `padCount` pads on one route, and the app listening on it until SIGTERM. */
async function serve(padCount: number): Promise<void> {
  const t = await createTestApp(PRODUCTION_ENV);
  const route = await createRoute(t.db, { name: 'Export bench route' });
  const seedStart = performance.now();
  for (let from = 1; from <= padCount; from += 20_000) {
    const to = Math.min(padCount, from + 19_999);
    await t.db.execute(sql`with made as (insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, remarks)
      select ${route.id}, n, n::bigint * 50 + 1, n::bigint * 50 + 50, repeat('1', 50), 3,
        case when n % 10 = 0 then 'kept at the "front" desk, shelf ' || n end
      from generate_series(${from}::int, ${to}::int) n returning id)
      insert into pad_custody (pad_id, issuance_status_id) select id, 1 from made`);
  }
  await t.db.execute(sql`analyze pads`);
  const seedMs = Math.round(performance.now() - seedStart);
  const { headers } = await signedIn(t, { role_id: ROLE.CUSTODIAN, first_name: 'Bench', last_name: 'Custodian' });
  const [{ database }] = await rowsOf<{ database: string }>(t.db, sql`select current_database() as database`);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (message) => {
    if (message === 'gc') global.gc?.();
    if (message === 'snapshot') writeHeapSnapshot(path.join(RESULTS_DIR, `export-${Date.now()}.heapsnapshot`));
    if (message === 'memory' || message === 'gc') process.send?.({ memory: process.memoryUsage(), spaces: heapSpaces() });
  });
  process.once('SIGTERM', () => {
    void t.close().then(() => process.exit(0));
  });
  const ready: Ready = { address, headers, route: route.id, database, seed_ms: seedMs };
  process.send?.({ ready });
}

/** The server's resident memory now, from /proc. */
function rssOf(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/** The server's own account of its memory (V8 heap, external, array buffers), asked over the IPC channel. */
async function reportedMemory(
  server: ChildProcess,
  ask: 'memory' | 'gc' = 'memory',
): Promise<NodeJS.MemoryUsage & { spaces: Record<string, number> }> {
  return new Promise((resolve) => {
    const onMessage = (message: { memory?: NodeJS.MemoryUsage; spaces?: Record<string, number> }) => {
      if (!message.memory) return;
      server.off('message', onMessage);
      resolve({ ...message.memory, spaces: message.spaces ?? {} });
    };
    server.on('message', onMessage);
    server.send(ask);
  });
}

/** The server after IDLE_MS without work: RSS, and heap and off-heap memory as it reports them. */
async function idleMemory(server: ChildProcess & { pid: number }) {
  await sleep(IDLE_MS);
  const rss = rssOf(server.pid);
  const memory = await reportedMemory(server);
  const idle = {
    rss_mb: mb(rss),
    heap_used_mb: mb(memory.heapUsed),
    heap_total_mb: mb(memory.heapTotal),
    external_mb: mb(memory.external),
    array_buffers_mb: mb(memory.arrayBuffers),
    heap_spaces_mb: memory.spaces,
  };
  // V8's memory reducer gives back a grown heap about 8 s after the last full GC once the process is idle: read again then.
  await sleep(Math.max(0, LATER_MS - IDLE_MS));
  const later = await reportedMemory(server);
  const settled = { rss_mb: mb(rssOf(server.pid)), heap_used_mb: mb(later.heapUsed), heap_total_mb: mb(later.heapTotal) };
  if (!GC) return { ...idle, [`after_${LATER_MS / 1000}s`]: settled };
  // BENCH_GC=1: what of it is live, after a full GC the server is asked for once its idle figures are read.
  const live = await reportedMemory(server, 'gc');
  if (process.env.BENCH_SNAPSHOT) server.send('snapshot');
  return {
    ...idle,
    [`after_${LATER_MS / 1000}s`]: settled,
    after_gc: { rss_mb: mb(rssOf(server.pid)), heap_used_mb: mb(live.heapUsed), external_mb: mb(live.external) },
  };
}

/** The select the pads export reads through its cursor (features/pads/repo.ts streamPadList), for psql to copy. */
const anchorSelect = (route: number) => `select p.id, p.number, p.series_from, p.series_to, p.series_status, p.remarks,
  p.route_id, r.name as route_name, r.tin as route_tin, r.company_id, c.name as company_name,
  p.pad_status_id, ps.name as pad_status_name, pc.issuance_status_id, i.name as issuance_status_name,
  (select u.first_name || ' ' || u.last_name from users u where u.id = pc.holder_user_id) as holder_user_name,
  (select b.name from branches b where b.id = pc.holder_branch_id) as holder_branch_name
from pads p
join pad_custody pc on pc.pad_id = p.id
join routes r on r.id = p.route_id
join companies c on c.id = r.company_id
join pad_statuses ps on ps.id = p.pad_status_id
join issuance_statuses i on i.id = pc.issuance_status_id
where p.route_id = ${route}
order by p.id desc`;

/**
 * psql's `\copy … to file csv` of the same rows: wall, psql's CPU (its shell's children times) and its backend's CPU,
 * which the backend reads from its own /proc stat before psql disconnects (the server runs as superuser here).
 */
async function anchor(databaseUrl: string, route: number) {
  const file = path.join(RESULTS_DIR, 'export-anchor.csv');
  const copy = `\\copy (${anchorSelect(route).replaceAll('\n', ' ')}) to '${file}' csv header`;
  const script = `psql -X -q -At -v ON_ERROR_STOP=1 -d "$1" -c "$2" -c "select pg_read_file('/proc/self/stat')" && cat /proc/$$/stat`;
  const { result, cost } = await measure(
    () =>
      new Promise<string>((resolve, reject) =>
        execFile('sh', ['-c', script, 'sh', databaseUrl, copy], (error, stdout) => (error ? reject(error) : resolve(stdout))),
      ),
  );
  fs.rmSync(file, { force: true });
  const [backend, shell] = result
    .split('\n')
    .filter((line) => line.includes(') '))
    .slice(-2)
    .map((line) => line.split(') ')[1].split(' '));
  return {
    wall_ms: cost.wall_ms,
    pg_cpu_ms: (Number(backend[11]) + Number(backend[12])) * 10,
    psql_cpu_ms: (Number(shell[13]) + Number(shell[14])) * 10,
  };
}

/** One export over HTTP: the bytes and lines the client counted, the costs, and the server's peak RSS during it. */
async function exportOnce(ready: Ready, server: ChildProcess & { pid: number }, format: 'csv' | 'xlsx', pgPids: () => Promise<number[]>) {
  let peak = rssOf(server.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(server.pid));
  }, 25);
  const serverCpuStart = processCpuMs([server.pid]);
  const { result, cost } = await measure(async () => {
    const response = await fetch(`${ready.address}/api/get-pads?route=${ready.route}&format=${format}`, { headers: ready.headers });
    if (!response.ok || !response.body) throw new Error(`export ${format}: ${response.status}`);
    let bytes = 0;
    let lines = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (format === 'csv') for (const byte of value) if (byte === 10) lines += 1;
    }
    return { bytes, lines };
  }, pgPids);
  clearInterval(sampler);
  return {
    format,
    wall_ms: cost.wall_ms,
    node_cpu_ms: processCpuMs([server.pid]) - serverCpuStart,
    pg_cpu_ms: cost.pg_cpu_ms,
    client_cpu_ms: cost.node_cpu_ms,
    within_limit: cost.wall_ms <= LIMIT_MS,
    mb: mb(result.bytes),
    rows: format === 'csv' ? result.lines - 1 : undefined,
    rss_peak_mb: mb(peak),
  };
}

async function bench(padCount: number): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('bench/export.ts measures on PostgreSQL: set TEST_DATABASE_URL');
  const server = fork(import.meta.filename, ['--serve', String(padCount)], {
    stdio: 'inherit',
    execArgv: [...process.execArgv, ...(GC ? ['--expose-gc'] : [])],
  });
  if (server.pid === undefined) throw new Error('the server process did not start');
  const child = server as ChildProcess & { pid: number };
  const ended = new Promise((resolve) => server.once('exit', resolve));
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      server.on('message', (message: { ready?: Ready }) => {
        if (message.ready) resolve(message.ready);
      });
      server.once('exit', (code) => reject(new Error(`the server ended (${code}) before it listened`)));
    });
    await admin.connect();
    const pgPids = () => backendPids((text, values) => admin.query(text, values), ready.database);
    const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${ready.database}` }).toString();

    const round = async () => ({
      csv: await exportOnce(ready, child, 'csv', pgPids),
      csv_anchor: await anchor(databaseUrl, ready.route),
      xlsx: await exportOnce(ready, child, 'xlsx', pgPids),
    });
    const idleBefore = await idleMemory(child);
    const idleRound = await round();
    const idleAfterFirst = await idleMemory(child);
    const busyRound = await withBusyCore(round);
    const idleAfterSecond = await idleMemory(child);
    for (const result of [idleRound.csv, busyRound.csv])
      if (result.rows !== padCount) throw new Error(`the CSV held ${result.rows} rows, not ${padCount}`);
    saveResult('export', {
      pads: padCount,
      database: 'postgresql',
      seed_ms: ready.seed_ms,
      limit_ms: LIMIT_MS,
      idle_wait_ms: IDLE_MS,
      idle: idleRound,
      busy: busyRound,
      server_memory: {
        before: idleBefore,
        after_first_round: idleAfterFirst,
        after_second_round: idleAfterSecond,
        idle_rss_growth_mb: idleAfterSecond.rss_mb - idleBefore.rss_mb,
      },
      load_average: loadAverage(),
      machine: machine(),
    });
  } finally {
    await admin.end().catch(() => undefined);
    server.kill('SIGTERM');
    await ended;
  }
}

if (process.argv[2] === '--serve') await serve(Number(process.argv[3]));
else await bench(Number(process.argv[2] ?? 400_000));
