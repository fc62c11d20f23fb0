import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** Background work that must happen once per period however many instances run: purges, the daily backup. */
export interface Job {
  name: string;
  /** How often each instance looks whether the job is due. */
  everyMs: number;
  /** The period a run belongs to ("2026-11-26" for a daily job): one run per name and period, across instances. */
  period(now: Date): string;
  run(): Promise<void>;
}

/** This process, as job_runs records who ran what. */
export const INSTANCE_ID = `${process.pid}-${randomBytes(4).toString('hex')}`;

/** Namespace of the advisory locks that keep two instances from running one job at the same time ("JOBS"). */
const JOB_LOCK = 0x4a4f4253;

/**
 * Claims the job's period for this instance, or answers false when another instance holds the job right now
 * (advisory lock) or already ran it for this period (job_runs' primary key). Works alike on PGlite.
 */
export async function claimJobRun(db: Db, name: string, period: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [locked] = await rowsOf<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${JOB_LOCK}::int, hashtext(${name})) as ok`);
    if (!locked?.ok) return false;
    const claimed = await rowsOf<{ name: string }>(
      tx,
      sql`insert into job_runs (name, period, instance) values (${name}, ${period}, ${INSTANCE_ID}) on conflict do nothing returning name`,
    );
    return claimed.length === 1;
  });
}

/** Runs the job if this instance wins its current period; answers whether it ran. */
export async function runJobOnce(db: Db, job: Job, now = new Date()): Promise<boolean> {
  if (!(await claimJobRun(db, job.name, job.period(now)))) return false;
  await job.run();
  return true;
}

/** How long after start each job is first looked at: a period not yet run (a weekly check, today's backup) is due at once. */
const FIRST_LOOK_MS = 5_000;

/**
 * Looks at every job soon after start and then on its interval (timers do not keep the process alive); returns the
 * function that stops them, which resolves once a job still running has finished, so the database is not closed under it.
 */
export function startJobs(db: Db, jobs: Job[], log: FastifyBaseLogger): () => Promise<void> {
  const running = new Set<Promise<void>>();
  const timers = jobs.flatMap((job) => {
    const tick = () => {
      const run = runJobOnce(db, job).then(
        (ran) => {
          if (ran) log.info({ job: job.name }, 'background job ran');
        },
        (error: unknown) => log.error({ err: error, job: job.name }, 'background job failed'),
      );
      running.add(run);
      void run.finally(() => running.delete(run));
    };
    const timers = [setTimeout(tick, FIRST_LOOK_MS), setInterval(tick, job.everyMs)];
    for (const timer of timers) timer.unref();
    return timers;
  });
  return async () => {
    for (const timer of timers) clearTimeout(timer);
    await Promise.all(running);
  };
}
