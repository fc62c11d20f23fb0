import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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

/** One row per run of a background job and period: the primary key makes a job run once per period across instances. */
export const jobRuns = pgTable(
  'job_runs',
  {
    name: text('name').notNull(),
    period: text('period').notNull(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    instance: text('instance').notNull(),
  },
  (t) => [primaryKey({ name: 'job_runs_pk', columns: [t.name, t.period] })],
);
