/** What every benchmark script shares: the machine line, load average, load runs in a child process, result files. */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { App } from '../src/server/app-type.ts';
import { loadConfig, type Config } from '../src/server/config.ts';
import type { Db } from '../src/server/db/client.ts';
import { createUser, TEST_PASSWORD } from '../src/server/test/factories.ts';
import { backendPids, type Cost, measure } from './cpu.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const RESULTS_DIR = path.join(ROOT, '.tmp/bench');

export interface LoadResult {
  rps: number;
  p50_ms: number;
  p95_ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${cpu.trim()}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export const loadAverage = () => Number(os.loadavg()[0].toFixed(2));

/** autocannon against one URL from a separate process (bench/load.ts), awaited so a server in this process keeps answering. */
export async function load(
  url: string,
  headers: Record<string, string>,
  seconds = Number(process.env.BENCH_SECONDS ?? 6),
  connections = 10,
): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      path.join(ROOT, 'bench/load.ts'),
      JSON.stringify({ url, headers, seconds, connections }),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  return result;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Each script writes its result as JSON for bench/all.ts to gather into one table. */
export function saveResult(name: string, result: unknown): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

/** The app as it runs in production: answers written by the compiled serializer without the tests' zod check. */
export const PRODUCTION_ENV = { CHECK_RESPONSES: 'false' };

/**
 * The PostgreSQL backends serving a test app's database, for bench/cpu.ts `measure` (none on PGlite, whose work is
 * this process's CPU). Listed from a connection of its own to TEST_DATABASE_URL's server.
 */
export async function testAppBackends(t: { kind: string; db: Db }): Promise<number[]> {
  if (t.kind !== 'postgres') return [];
  const [{ name }] = ((await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> }).rows;
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await backendPids((text, values) => client.query<{ pid: number }>(text, values), name);
  } finally {
    await client.end();
  }
}

export type Statement = { text: string; values: unknown[] };

/**
 * Records the SQL statements (text and values) `work` sends through node-postgres, so bench/bare.ts can replay exactly
 * those as its baseline. Every client of the process is recorded while `work` runs.
 */
export async function recordStatements(work: () => Promise<unknown>): Promise<Statement[]> {
  type Query = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const original = prototype.query;
  const recorded: Statement[] = [];
  prototype.query = function (this: pg.Client, config, values, callback) {
    if (typeof config === 'object' && config !== null && 'text' in config) {
      const c = config as { text: string; values?: unknown[] };
      recorded.push({ text: c.text, values: c.values ?? (Array.isArray(values) ? values : []) });
    }
    return original.call(this, config, values, callback);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return recorded;
}

/**
 * bench/bare.ts serving `statements` (endpoint name → its SQL) on `port`, in a node process of its own (no tsx wrapper, so
 * `pid` is the server's and bench/cpu.ts `processCpuMs` reads its CPU); `stop` ends it.
 */
export async function startBare(
  port: number,
  databaseUrl: string,
  statements: Record<string, Statement[]>,
): Promise<{ pid: number; stop: () => Promise<void> }> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `bare-statements-${port}.json`);
  fs.writeFileSync(file, JSON.stringify(statements, null, 2));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/bare.ts'), String(port), databaseUrl, file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Peak resident memory of this process since the last `resetPeak` (Linux VmHWM), in MB. */
export function peakMb(): number {
  const line =
    fs
      .readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:')) ?? 'VmHWM: 0 kB';
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

export const resetPeak = () => fs.writeFileSync('/proc/self/clear_refs', '5');

export const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

/**
 * `repeats` timed runs after one untimed one (unless `warm: false`): the median wall time, the mean CPU times (the
 * backends' are counted in ticks of 10 ms, so a mean over the runs says more than one run) and this process's memory peak.
 */
export async function sampleCost(
  work: () => Promise<unknown>,
  repeats: number,
  pids: number[] | (() => Promise<number[]>),
  options: { warm?: boolean } = {},
): Promise<Cost & { peak_mb: number }> {
  if (options.warm ?? true) await work();
  const costs: Cost[] = [];
  let peak = 0;
  for (let i = 0; i < repeats; i += 1) {
    resetPeak();
    costs.push((await measure(work, pids)).cost);
    peak = Math.max(peak, peakMb());
  }
  return {
    wall_ms: Math.round(median(costs.map((c) => c.wall_ms))),
    node_cpu_ms: Math.round(mean(costs.map((c) => c.node_cpu_ms))),
    pg_cpu_ms: Math.round(mean(costs.map((c) => c.pg_cpu_ms))),
    peak_mb: peak,
  };
}

/** The app's configuration in a benchmark: answers as in production, no web folder, a known first admin; `env` adds or overrides. */
export function benchConfig(env: Record<string, string>): Config {
  return {
    ...loadConfig({
      ...PRODUCTION_ENV,
      APP_URL: 'http://padtrack.test',
      ADMIN_EMAIL: 'admin@bench.test',
      ADMIN_PASSWORD: 'Admin@12345',
      ...env,
    }),
    webDir: null,
  };
}

export interface BenchUser {
  id: number;
  headers: Record<string, string>;
}

/**
 * Requests through `app.inject`, each from an address of its own (the render routes' 60 a minute per client is not
 * what a benchmark measures), by users it signs in, created on first use.
 */
export function benchClient(app: App, db: Db) {
  let requestNo = 0;
  const nextAddress = (): string => {
    requestNo += 1;
    return `10.${(requestNo >> 16) & 255}.${(requestNo >> 8) & 255}.${requestNo & 255}`;
  };
  const signIn = async (email: string, roleId: number, branchId: number): Promise<BenchUser> => {
    const found = (await db.execute(sql`select id from users where email = ${email}`)) as unknown as { rows: Array<{ id: number }> };
    const id =
      found.rows[0]?.id ??
      (await createUser(db, { email, role_id: roleId, branch_id: branchId, first_name: 'Bench', last_name: `Role${roleId}` })).id;
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: TEST_PASSWORD },
      remoteAddress: nextAddress(),
    });
    return { id, headers: { authorization: `Bearer ${(res.json() as { token: string }).token}` } };
  };
  const call = async (who: Pick<BenchUser, 'headers'>, method: 'GET' | 'POST' | 'PUT', target: string, payload?: object, status = 200) => {
    const res = await app.inject({
      method,
      url: target,
      headers: who.headers,
      remoteAddress: nextAddress(),
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode !== status) throw new Error(`${method} ${target} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    return res;
  };
  return { nextAddress, signIn, call };
}
