import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Failures counted per key in a sliding window (sign-in throttles), shared by every instance on one PostgreSQL. */
export const limitHits = pgTable(
  'limit_hits',
  { key: text('key').notNull(), at: timestamp('at', { withTimezone: true }).notNull().defaultNow() },
  (t) => [index('limit_hits_key_at_idx').on(t.key, t.at)],
);

/** Request counters per key in a fixed window (the HTTP rate limits), shared by every instance on one PostgreSQL. */
export const limitWindows = pgTable('limit_windows', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  reset_at: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/**
 * One row per background job and period: the primary key makes a job run once per period across instances; a failed run
 * keeps its error and is tried again from next_attempt_at (db/jobs.ts).
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    name: text('name').notNull(),
    period: text('period').notNull(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    instance: text('instance').notNull(),
    status: text('status').$type<'running' | 'ok' | 'failed'>().notNull().default('running'),
    attempts: integer('attempts').notNull().default(1),
    last_error: text('last_error'),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'job_runs_pk', columns: [t.name, t.period] }),
    check('job_runs_status_ck', sql`${t.status} in ('running', 'ok', 'failed')`),
  ],
);
