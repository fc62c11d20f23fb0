/**
 * What a figure costs, not only how long it took: the CPU time of this process (worker threads included) and of the
 * PostgreSQL backends serving the database, beside the wall time; and the same work measured again with one core kept
 * busy by stress-ng (Debian's standard load generator), so a table says what the code costs and what a busy server adds.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in ticks of 10 ms. */
const TICK_MS = 10;

export interface Cost {
  wall_ms: number;
  /** This process: the app, the benchmark's own client and any worker threads. */
  node_cpu_ms: number;
  /** The PostgreSQL backends given to `measure` (0 on PGlite, whose work is in node_cpu_ms). */
  pg_cpu_ms: number;
}

/** PostgreSQL backends connected to a database, read from /proc by the pids pg_stat_activity names. */
export async function backendPids(
  query: (text: string, values: unknown[]) => Promise<{ rows: Array<{ pid: number }> }>,
  database: string,
): Promise<number[]> {
  const { rows } = await query('select pid from pg_stat_activity where datname = $1', [database]);
  return rows.map((r) => Number(r.pid)).filter((pid) => fs.existsSync(`/proc/${pid}/stat`));
}

/** CPU time (user + system) of the given processes so far, in ms; a process that ended counts 0. */
export function processCpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the backend ended between the listing and the read
    }
  }
  return ticks * TICK_MS;
}

/**
 * Wall time and CPU time of one piece of work. Given a function, the backends are listed again after the work, so one
 * opened during it counts whole (a backend that ended during it is lost to the count).
 */
export async function measure<T>(
  work: () => Promise<T>,
  pids: number[] | (() => Promise<number[]>) = [],
): Promise<{ result: T; cost: Cost }> {
  const before = typeof pids === 'function' ? await pids() : pids;
  // Per backend, so a pool that closes an idle backend and opens another during the work does not cancel it out.
  const pgStart = new Map(before.map((pid) => [pid, processCpuMs([pid])]));
  const nodeStart = process.cpuUsage();
  const start = performance.now();
  const result = await work();
  const wall = performance.now() - start;
  const used = process.cpuUsage(nodeStart);
  const after = typeof pids === 'function' ? await pids() : pids;
  const pgUsed = after.reduce((sum, pid) => sum + processCpuMs([pid]) - (pgStart.get(pid) ?? 0), 0);
  return {
    result,
    cost: {
      wall_ms: Math.round(wall),
      node_cpu_ms: Math.round((used.user + used.system) / 1000),
      pg_cpu_ms: pgUsed,
    },
  };
}

const STRESS_NG = '/usr/bin/stress-ng';

/**
 * The busy-core runs need Debian's stress-ng: installed here when missing and this is root (as scripts/ensure-system-packages.ts
 * does for the tests), so a run does not spend its idle half and then stop; otherwise throws with the install line.
 */
export function ensureStressNg(): void {
  if (fs.existsSync(STRESS_NG)) return;
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get'))
    throw new Error('The busy-core runs need stress-ng: sudo apt-get install -y stress-ng');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'stress-ng'], { stdio: 'inherit', env });
}

/** One core kept busy by `stress-ng --cpu 1` for the duration of `work`. */
export async function withBusyCore<T>(work: () => Promise<T>): Promise<T> {
  ensureStressNg();
  const stress: ChildProcess = spawn(STRESS_NG, ['--cpu', '1', '--cpu-method', 'matrixprod', '--quiet'], {
    stdio: 'ignore',
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    return await work();
  } finally {
    stress.kill('SIGTERM');
    await new Promise((resolve) => stress.once('exit', resolve));
  }
}

/** The same measurement at idle and with one core busy: `{ idle, busy }`, each the work's own result. */
export async function idleAndBusy<T>(work: () => Promise<T>): Promise<{ idle: T; busy: T }> {
  ensureStressNg();
  const idle = await work();
  const busy = await withBusyCore(work);
  return { idle, busy };
}
