import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * docs/design.md §4 idempotency: the answer to an action a device sent with an Idempotency-Key, stored in the
 * action's own transaction, so a retry (a queued action sent again after a lost answer) gets the same answer and
 * changes nothing.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    /** SHA-256 of the request the key was first sent with; null on keys stored before it was kept. */
    fingerprint: text('fingerprint'),
    status: smallint('status').notNull(),
    answer: jsonb('answer').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [t.user_id, t.key] }),
    check('idempotency_keys_key_ck', sql`length(${t.key}) between 8 and 100`),
  ],
);
