import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { zonedFormat } from '../../shared/format.ts';
import type { Conn, Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** Background work that must happen once per period however many instances run: purges, the daily backup, the sender. */
export interface Job {
  name: string;
  /** What it does, in a line the Admin's jobs page shows. */
  description?: string;
  /** How often each instance looks whether the job is due. */
  everyMs: number;
  /**
   * The period a run belongs to ("2026-11-26" for a daily job): one successful run per name and period across
   * instances. A daily job with a time of day answers the previous day until that time (`dailyAt`), so a day missed
   * while no instance ran is caught up once at the next start, and today's run waits for its hour.
   */
  period(now: Date): string;
  /** Does the work; `now` is the runner's clock (tests inject one). A throw marks the run failed and it is tried again. */
  run(now: Date): Promise<void>;
  /** How long a run may take before another instance takes it for lost (its instance stopped); 1 hour when unset. */
  leaseMs?: number;
}

/** One job's run for one period, as job_runs keeps it. */
export interface JobRun {
  name: string;
  period: string;
  status: 'running' | 'ok' | 'failed';
  /** Tries in this period, the one running included. */
  attempts: number;
  last_error: string | null;
  instance: string;
  started_at: Date;
  finished_at: Date | null;
  /** A failed run's next try; a running run's lease end. */
  next_attempt_at: Date | null;
}

/** This process, as job_runs records who ran what. */
export const INSTANCE_ID = `${process.pid}-${randomBytes(4).toString('hex')}`;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DEFAULT_LEASE_MS = 60 * MINUTE_MS;

/** Waits after the 1st, 2nd … failure: 1 min, 5 min, 30 min, 2 h, 6 h, then daily (failed job runs and deliveries alike). */
const RETRY_DELAYS_MS = [MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS, 120 * MINUTE_MS, 360 * MINUTE_MS];

/** How long to wait before trying again after the given number of failed attempts (1 = the first failure). */
export function retryDelayMs(failures: number): number {
  return RETRY_DELAYS_MS[Math.max(0, failures - 1)] ?? DAY_MS;
}

const LOCAL_MINUTE: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** The local date ("2026-11-29") and minute of the day of an instant in a time zone. */
function localDay(now: Date, timeZone: string): { day: string; minute: number } {
  const parts = Object.fromEntries(
    zonedFormat('en-CA', LOCAL_MINUTE, timeZone)
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

/**
 * The period function of a job due once a day at a local time: today's date from `hour:minute` in the time zone,
 * the day before until then. A start at 09:00 after a night down runs today's period once; a start at 06:00 after a
 * day down runs yesterday's (the last missed day only); anything older is not caught up.
 */
export function dailyAt(timeZone: string, hour: number, minute = 0): (now: Date) => string {
  return (now) => {
    const local = localDay(now, timeZone);
    if (local.minute >= hour * 60 + minute) return local.day;
    return new Date(Date.parse(`${local.day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  };
}

const iso = (at: Date) => at.toISOString();

/**
 * Claims the job's period for this instance and answers the attempt number, or null when the period already ran
 * (or another instance is running it, or a failed run is not due again yet). `manual` claims a period that already ran
 * too: the Admin's "run now". One statement, so two instances racing on PostgreSQL get one claim; PGlite alike.
 */
export async function claimJobRun(
  db: Conn,
  job: Pick<Job, 'name' | 'leaseMs'>,
  period: string,
  now: Date,
  options: { manual?: boolean } = {},
): Promise<number | null> {
  const leaseEnd = new Date(now.getTime() + (job.leaseMs ?? DEFAULT_LEASE_MS));
  const reclaimable = options.manual
    ? sql`(job_runs.status <> 'running' or job_runs.next_attempt_at <= ${iso(now)}::timestamptz)`
    : sql`(job_runs.status <> 'ok' and job_runs.next_attempt_at <= ${iso(now)}::timestamptz)`;
  const [claimed] = await rowsOf<{ attempts: number }>(
    db,
    sql`insert into job_runs (name, period, instance, started_at, status, attempts, next_attempt_at)
        values (${job.name}, ${period}, ${INSTANCE_ID}, ${iso(now)}::timestamptz, 'running', 1, ${iso(leaseEnd)}::timestamptz)
        on conflict (name, period) do update set
          instance = excluded.instance, started_at = excluded.started_at, status = 'running',
          attempts = job_runs.attempts + 1, finished_at = null, next_attempt_at = excluded.next_attempt_at
        where ${reclaimable}
        returning attempts`,
  );
  return claimed ? Number(claimed.attempts) : null;
}

/** Records how a claimed run ended; a run another instance took over meanwhile (its lease ran out) is left to it. */
async function finishJobRun(db: Db, name: string, period: string, attempts: number, now: Date, error: string | null) {
  const next = error === null ? null : iso(new Date(now.getTime() + retryDelayMs(attempts)));
  await db.execute(
    sql`update job_runs set status = ${error === null ? 'ok' : 'failed'}, finished_at = ${iso(now)}::timestamptz,
          last_error = coalesce(${error}, last_error), next_attempt_at = ${next}::timestamptz
        where name = ${name} and period = ${period} and instance = ${INSTANCE_ID} and attempts = ${attempts}`,
  );
}

/** What a run that happened came to. */
export interface JobOutcome {
  period: string;
  status: 'ok' | 'failed';
  attempts: number;
  error: string | null;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'failed';

/**
 * Runs the job if this instance wins its current period (or, `manual`, unless it is running somewhere now) and records
 * the outcome; answers null when it did not run. A throw is caught and kept as the run's error, retried by retryDelayMs.
 */
export async function runJob(db: Db, job: Job, options: { now?: () => Date; manual?: boolean } = {}): Promise<JobOutcome | null> {
  const clock = options.now ?? (() => new Date());
  const started = clock();
  const period = job.period(started);
  const attempts = await claimJobRun(db, job, period, started, { manual: options.manual });
  if (attempts === null) return null;
  let error: string | null = null;
  try {
    await job.run(started);
  } catch (thrown) {
    error = errorText(thrown);
  }
  await finishJobRun(db, job.name, period, attempts, clock(), error);
  return { period, status: error === null ? 'ok' : 'failed', attempts, error };
}

/** Runs the job if this instance wins its current period; answers whether it ran, and throws the job's error if it failed. */
export async function runJobOnce(db: Db, job: Job, now = new Date()): Promise<boolean> {
  const outcome = await runJob(db, job, { now: () => now });
  if (outcome?.status === 'failed') throw new Error(`job ${job.name} failed: ${outcome.error}`);
  return outcome !== null;
}

/** Each job's newest run (the Admin's jobs page, the failed-backup alert). */
export async function latestJobRuns(conn: Conn): Promise<JobRun[]> {
  const rows = await rowsOf<JobRun>(
    conn,
    sql`select distinct on (name) name, period, status, attempts, last_error, instance, started_at, finished_at, next_attempt_at
        from job_runs order by name, started_at desc`,
  );
  const at = (value: Date | string | null) => (value === null ? null : new Date(value));
  return rows.map((row) => ({
    ...row,
    attempts: Number(row.attempts),
    started_at: new Date(row.started_at),
    finished_at: at(row.finished_at),
    next_attempt_at: at(row.next_attempt_at),
  }));
}

/** Forgets runs older than `before`, keeping each job's newest so its last result stays visible. */
export async function purgeJobRuns(conn: Conn, before: Date): Promise<void> {
  await conn.execute(
    sql`delete from job_runs r where r.started_at < ${iso(before)}::timestamptz
          and r.started_at < (select max(n.started_at) from job_runs n where n.name = r.name)`,
  );
}

/**
 * When the job next runs, by the runner's rules: a failed run's retry, now for a period not run yet; else the first
 * instant its period changes (found by bisection: periods only move forward).
 */
export function nextRunAt(job: Job, latest: JobRun | undefined, now: Date): Date {
  const period = job.period(now);
  const current = latest?.period === period ? latest : undefined;
  if (!current) return now;
  if (current.status === 'failed' && current.next_attempt_at) return new Date(Math.max(now.getTime(), current.next_attempt_at.getTime()));
  let low = now.getTime();
  let high = low + job.everyMs;
  while (job.period(new Date(high)) === period) {
    if (high - low > 400 * DAY_MS) return new Date(high);
    high += high - low;
  }
  while (high - low > 1000) {
    const mid = low + Math.floor((high - low) / 2);
    if (job.period(new Date(mid)) === period) low = mid;
    else high = mid;
  }
  return new Date(high);
}

/** How long after start each job is first looked at: a period not yet run (a weekly check, a missed day) runs at once. */
const FIRST_LOOK_MS = 5_000;

/**
 * Looks at every job soon after start and then on its interval (timers do not keep the process alive); a failed run
 * is looked at again when its retry is due. Returns the function that stops them, which resolves once a job still
 * running has finished, so the database is not closed under it.
 */
export function startJobs(
  db: Db,
  jobs: Job[],
  log: FastifyBaseLogger,
  options: { now?: () => Date; firstLookMs?: number } = {},
): () => Promise<void> {
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const later = (tick: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      tick();
    }, ms);
    timer.unref();
    timers.add(timer);
  };
  for (const job of jobs) {
    const tick = () => {
      if (stopped) return;
      const run = runJob(db, job, { now: options.now }).then(
        (outcome) => {
          if (outcome?.status === 'ok') log.info({ job: job.name, period: outcome.period }, 'background job ran');
          if (outcome?.status === 'failed') {
            log.error({ job: job.name, period: outcome.period, attempts: outcome.attempts, err: outcome.error }, 'background job failed');
            const wait = retryDelayMs(outcome.attempts);
            if (wait < job.everyMs) later(tick, wait);
          }
        },
        (error: unknown) => log.error({ err: error, job: job.name }, 'background job could not be claimed'),
      );
      running.add(run);
      void run.finally(() => running.delete(run));
    };
    later(tick, options.firstLookMs ?? FIRST_LOOK_MS);
    const interval = setInterval(tick, job.everyMs);
    interval.unref();
    timers.add(interval);
  }
  return async () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    await Promise.all(running);
  };
}
