import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { lossIncidents } from './incidents.ts';
import { pads } from './pads.ts';
import { branches } from './reference.ts';
import { users } from './users.ts';

/** docs/design.md §9 physical counts: one holder's (or one branch's) pads counted by someone else; append-only once closed. */
export const countSessions = pgTable(
  'count_sessions',
  {
    id: serial('id').primaryKey(),
    holder_user_id: integer('holder_user_id').references(() => users.id),
    holder_branch_id: integer('holder_branch_id').references(() => branches.id),
    counter_id: integer('counter_id')
      .notNull()
      .references(() => users.id),
    status: text('status').notNull().default('open'),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    signed_off_by: integer('signed_off_by').references(() => users.id),
    signed_off_at: timestamp('signed_off_at', { withTimezone: true }),
    signature: text('signature'),
    closed_at: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('count_sessions_holder_user_idx').on(t.holder_user_id, t.closed_at),
    index('count_sessions_holder_branch_idx').on(t.holder_branch_id, t.closed_at),
    check('count_sessions_holder_ck', sql`(${t.holder_user_id} is null) <> (${t.holder_branch_id} is null)`),
    check('count_sessions_status_ck', sql`${t.status} in ('open', 'closed')`),
    check('count_sessions_closed_ck', sql`(${t.status} = 'closed') = (${t.closed_at} is not null)`),
    check('count_sessions_not_self_ck', sql`${t.holder_user_id} is distinct from ${t.counter_id}`),
  ],
);

/** One row per pad of a count: the pads the books placed there when it started, and any other pad found. */
export const countItems = pgTable(
  'count_items',
  {
    id: serial('id').primaryKey(),
    count_id: integer('count_id')
      .notNull()
      .references(() => countSessions.id),
    pad_id: integer('pad_id')
      .notNull()
      .references(() => pads.id),
    expected: boolean('expected').notNull(),
    state: text('state').notNull().default('pending'),
    book_next_number: bigint('book_next_number', { mode: 'number' }),
    book_holder_user_id: integer('book_holder_user_id').references(() => users.id),
    book_holder_branch_id: integer('book_holder_branch_id').references(() => branches.id),
    first_unused: bigint('first_unused', { mode: 'number' }),
    recorded_by: integer('recorded_by').references(() => users.id),
    recorded_at: timestamp('recorded_at', { withTimezone: true }),
    /** docs/design.md §9: the confirmed loss incident whose lost numbers the pad still had when it was scanned. */
    book_incident_id: integer('book_incident_id').references(() => lossIncidents.id),
    /** What the books said of the pad at the scan when it is not ordinary stock: lost, cancelled, in transit. */
    book_note: text('book_note'),
  },
  (t) => [
    uniqueIndex('count_items_count_pad_uq').on(t.count_id, t.pad_id),
    check('count_items_state_ck', sql`${t.state} in ('pending', 'found', 'missing')`),
  ],
);

/** How a variance of a count was settled: through the range-usage action, a loss incident, or accepted with a reason. */
export const countResolutions = pgTable(
  'count_resolutions',
  {
    id: serial('id').primaryKey(),
    count_id: integer('count_id')
      .notNull()
      .references(() => countSessions.id),
    item_id: integer('item_id')
      .notNull()
      .references(() => countItems.id),
    kind: text('kind').notNull(),
    action: text('action').notNull(),
    reason: text('reason').notNull(),
    incident_id: integer('incident_id').references(() => lossIncidents.id),
    resolved_by: integer('resolved_by')
      .notNull()
      .references(() => users.id),
    resolved_at: timestamp('resolved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('count_resolutions_item_uq').on(t.item_id),
    index('count_resolutions_count_idx').on(t.count_id),
    check('count_resolutions_action_ck', sql`${t.action} in ('usage', 'incident', 'accept', 'found')`),
    check('count_resolutions_kind_ck', sql`${t.kind} in ('missing', 'found_elsewhere', 'unrecorded_use', 'unused_recorded', 'found_lost')`),
  ],
);

/**
 * Issue 36: a resolution the counter may not take, asked of the one person who may (the holder, the courier): it is in
 * their Needs my action while the variance is open.
 */
export const countAsks = pgTable(
  'count_asks',
  {
    id: serial('id').primaryKey(),
    count_id: integer('count_id')
      .notNull()
      .references(() => countSessions.id),
    item_id: integer('item_id')
      .notNull()
      .references(() => countItems.id),
    action: text('action').notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    asked_at: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('count_asks_item_action_uq').on(t.item_id, t.action),
    index('count_asks_user_idx').on(t.user_id),
    check('count_asks_action_ck', sql`${t.action} in ('usage', 'incident', 'accept', 'found')`),
  ],
);
