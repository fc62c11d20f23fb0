import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { pads } from './pads.ts';
import { users } from './users.ts';

/** docs/design.md §9: a cancellation (or write-off) asked for by someone who may not approve it, waiting for an approver. */
export const outcomeRequests = pgTable(
  'outcome_requests',
  {
    id: serial('id').primaryKey(),
    pad_id: integer('pad_id')
      .notNull()
      .references(() => pads.id, { onDelete: 'cascade' }),
    from_number: bigint('from_number', { mode: 'number' }).notNull(),
    to_number: bigint('to_number', { mode: 'number' }).notNull(),
    outcome: text('outcome').notNull(),
    reason: text('reason').notNull(),
    copies_retained: boolean('copies_retained'),
    status: text('status').notNull().default('pending'),
    requested_by: integer('requested_by')
      .notNull()
      .references(() => users.id),
    requested_at: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decided_by: integer('decided_by').references(() => users.id),
    decided_at: timestamp('decided_at', { withTimezone: true }),
    rejection_reason: text('rejection_reason'),
  },
  (t) => [
    index('outcome_requests_pending_idx')
      .on(t.pad_id)
      .where(sql`${t.status} = 'pending'`),
    check('outcome_requests_range_ck', sql`${t.to_number} >= ${t.from_number}`),
    check('outcome_requests_outcome_ck', sql`${t.outcome} in ('cancelled', 'lost')`),
    check('outcome_requests_status_ck', sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
);
