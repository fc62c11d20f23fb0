/** What every benchmark script shares: the machine line, load average, load runs in a child process, result files. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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
