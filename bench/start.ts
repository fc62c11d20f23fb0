/**
 * The goal of docs/BENCHMARKS.md "Start": from launch to a healthy /api/health on existing data, nothing changed, the
 * embedded database (PGlite) within 1.5× the same start on PostgreSQL (DATABASE_URL), in wall time and in CPU time (the
 * app's process, and for PostgreSQL also the backends it opened), idle and with one core busy (bench/cpu.ts). Both run
 * `npm start`'s own command, `node scripts/start.js`, which runs the compiled server; the start before it
 * (`node --import tsx src/server/main.ts`, the sources transpiled at every start, in the one process) is measured beside them on the embedded database.
 *   npx tsx bench/start.ts            (BENCH_START_RUNS=5 runs of each, alternating; the medians are compared)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { buildIsCurrent, serverSourcesHash, sourcesHash, WEB_BUILD_INPUTS } from '../scripts/build/build-state.js';
import { backendPids, processCpuMs, withBusyCore } from './cpu.ts';
import { loadAverage, machine, median, ROOT, saveResult } from './support.ts';

const PORT = Number(process.env.BENCH_START_PORT ?? 3196);
const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);
const SERVER = process.env.BENCH_PG_SERVER ?? 'postgres://postgres@127.0.0.1:5432';
const DATABASE = 'padtrack_bench_start';
const dataDir = path.join(ROOT, '.tmp/bench-start-data');
const webDir = path.join(ROOT, '.tmp/bench-start-web');

interface StartCost {
  wall_ms: number;
  /** The app's process until healthy: everything it ran, PGlite included. */
  node_cpu_ms: number;
  /** PostgreSQL backends the app had open when it became healthy (0 on the embedded database). */
  pg_cpu_ms: number;
}

async function admin<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Others may edit the checkout meanwhile: a start that would build first is run once unmeasured, so each measured one builds nothing. */
async function builtAsTheSourcesAre(): Promise<void> {
  const current =
    buildIsCurrent(webDir, 'index.html', sourcesHash(ROOT, WEB_BUILD_INPUTS)) &&
    buildIsCurrent(path.join(ROOT, 'dist-server'), 'src/server/main.js', serverSourcesHash(ROOT));
  if (!current) await timeToHealthy(npmStart, null);
}

/** Launches the command, polls /api/health every 25 ms, reads the CPU the start cost, and stops the server. */
async function timeToHealthy(args: string[], databaseUrl: string | null): Promise<StartCost> {
  const start = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      DATABASE_URL: databaseUrl ?? '',
      DATABASE_OWNER_URL: '',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Admin@12345',
    },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`)
        .then((res) => res.ok)
        .catch(() => false);
      if (ok) break;
      if (performance.now() - start > 180_000) throw new Error(`${args.join(' ')} was not healthy within 180 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const wall = Math.round(performance.now() - start);
    const backends = databaseUrl
      ? await backendPids(
          (text, values) => admin<{ pid: number }>(databaseUrl, `${text} and pid <> pg_backend_pid()`, values).then((rows) => ({ rows })),
          DATABASE,
        )
      : [];
    return { wall_ms: wall, node_cpu_ms: processCpuMs([child.pid ?? 0]), pg_cpu_ms: processCpuMs(backends) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const npmStart = [path.join(ROOT, 'scripts/start.js')];
const tsxStart = ['--import', 'tsx', path.join(ROOT, 'src/server/main.ts')];
const pgUrl = `${SERVER}/${DATABASE}`;
if (
  (await admin<{ n: number }>(`${SERVER}/postgres`, 'select count(*)::int as n from pg_database where datname = $1', [DATABASE]))[0].n === 0
)
  await admin(`${SERVER}/postgres`, `create database ${DATABASE}`);

// The first starts build what is stale, create the embedded data and migrate PostgreSQL: existing data from here on.
await timeToHealthy(npmStart, null);
await timeToHealthy(npmStart, pgUrl);

const summary = (costs: StartCost[]) => ({
  wall_ms: median(costs.map((c) => c.wall_ms)),
  node_cpu_ms: median(costs.map((c) => c.node_cpu_ms)),
  pg_cpu_ms: median(costs.map((c) => c.pg_cpu_ms)),
  cpu_ms: median(costs.map((c) => c.node_cpu_ms + c.pg_cpu_ms)),
  runs: costs,
});

async function round() {
  const embedded: StartCost[] = [];
  const postgres: StartCost[] = [];
  const tsxEmbedded: StartCost[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    await builtAsTheSourcesAre();
    embedded.push(await timeToHealthy(npmStart, null));
    await builtAsTheSourcesAre();
    postgres.push(await timeToHealthy(npmStart, pgUrl));
    if (i < 3) tsxEmbedded.push(await timeToHealthy(tsxStart, null));
  }
  const [e, p] = [summary(embedded), summary(postgres)];
  return {
    npm_start_embedded: e,
    npm_start_postgresql: p,
    before_tsx_embedded: summary(tsxEmbedded),
    ratio_wall: Number((e.wall_ms / p.wall_ms).toFixed(2)),
    ratio_cpu: Number((e.cpu_ms / p.cpu_ms).toFixed(2)),
  };
}

const idle = await round();
const busy = await withBusyCore(round);
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  load_average_1m: loadAverage(),
  command: 'node scripts/start.js (npm start), existing data, nothing changed; PostgreSQL anchor: the same with DATABASE_URL',
  runs_each: RUNS,
  idle,
  busy,
  goal: 'embedded ≤ 1.5 × PostgreSQL, wall and CPU, idle and busy',
};
saveResult('start', result);
console.log(JSON.stringify({ idle, busy }, (key, value: unknown) => (key === 'runs' ? undefined : value), 2));
