import { JOBS_MSG, type JobItem, type JobRunResult } from '../../../shared/schemas/jobs.ts';
import type { AppContext } from '../../context.ts';
import { nextRunAt, runJob } from '../../db/jobs.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { lastRuns } from './read-model.ts';

type JobsCtx = Pick<AppContext, 'db' | 'jobs'>;

/** The Admin's view of every background job: its newest run, result and error, and when it runs next. */
export async function list(ctx: JobsCtx, now = new Date()): Promise<JobItem[]> {
  const runs = new Map((await lastRuns(ctx.db)).map((run) => [run.name, run]));
  return ctx.jobs.map((job) => {
    const run = runs.get(job.name);
    return {
      name: job.name,
      description: job.description ?? job.name,
      every_seconds: Math.round(job.everyMs / 1000),
      current_period: job.period(now),
      last_run: run
        ? {
            period: run.period,
            status: run.status,
            attempts: run.attempts,
            last_error: run.last_error,
            instance: run.instance,
            started_at: run.started_at.toISOString(),
            finished_at: run.finished_at?.toISOString() ?? null,
          }
        : null,
      next_run_at: nextRunAt(job, run, now).toISOString(),
    };
  });
}

/**
 * Runs a job now for its current period, even if that period already ran, and answers how it went; once across
 * instances: a run in progress anywhere refuses with 409 rather than starting a second.
 */
export async function runNow(ctx: JobsCtx, name: string, now?: () => Date): Promise<JobRunResult> {
  const job = ctx.jobs.find((candidate) => candidate.name === name);
  if (!job) throw notFound(JOBS_MSG.unknown);
  const outcome = await runJob(ctx.db, job, { manual: true, now });
  if (!outcome) throw conflict(JOBS_MSG.running);
  return { name, period: outcome.period, status: outcome.status, attempts: outcome.attempts, error: outcome.error };
}
