import { z } from 'zod';

export const JOB_RUN_STATUSES = ['running', 'ok', 'failed'] as const;
export type JobRunStatus = (typeof JOB_RUN_STATUSES)[number];

export const JOBS_MSG = {
  ran: 'The job ran.',
  failed: (error: string) => `The job failed: ${error}`,
  running: 'This job is running now; try again when it has finished.',
  unknown: 'There is no job of that name.',
} as const;

/** A job's newest run, as job_runs keeps it. */
export const jobRunItem = z
  .object({
    /** The period the run belongs to: "2026-11-29" for a daily job, "2026-11-29T07" for an hourly one. */
    period: z.string(),
    status: z.enum(JOB_RUN_STATUSES),
    /** Tries in that period, the running one included: more than 1 means an earlier try failed. */
    attempts: z.number(),
    /** The newest failure's message, kept after a later try succeeds. */
    last_error: z.string().nullable(),
    /** The instance (process) that ran it. */
    instance: z.string(),
    started_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'JobRun' });
export type JobRunItem = z.infer<typeof jobRunItem>;

/** One background job on the Admin's jobs page. */
export const jobItem = z
  .object({
    name: z.string(),
    description: z.string(),
    /** How often each instance looks whether it is due, in seconds. */
    every_seconds: z.number(),
    /** The period a run now would belong to. */
    current_period: z.string(),
    last_run: jobRunItem.nullable(),
    /** When it runs next: a failed run's retry, now for a period not run yet, else the start of the next period. */
    next_run_at: z.string(),
  })
  .meta({ id: 'Job' });
export type JobItem = z.infer<typeof jobItem>;

/** What "Run now" came to. */
export const jobRunResult = z
  .object({
    name: z.string(),
    period: z.string(),
    status: z.enum(['ok', 'failed']),
    attempts: z.number(),
    error: z.string().nullable(),
  })
  .meta({ id: 'JobRunResult' });
export type JobRunResult = z.infer<typeof jobRunResult>;

export const jobNameParams = z.object({ name: z.string().min(1).max(100) });
