/** What every benchmark script shares: the machine line, load average, load runs in a child process, result files. */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../src/server/db/client.ts';
import { backendPids } from './cpu.ts';

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
