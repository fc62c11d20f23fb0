import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The outbox: every mail (later every webhook call) is a row written in the transaction that decided it, sent by the
 * sender job (features/deliveries/sender.ts) and retried with backoff. The dedupe key makes one message once.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').$type<'email' | 'webhook'>().notNull(),
    recipient_user_id: integer('recipient_user_id').references(() => users.id),
    /** The e-mail address or the URL. */
    target: text('target').notNull(),
    kind: text('kind').notNull(),
    dedupe_key: text('dedupe_key').notNull().unique('deliveries_dedupe_key_unique'),
    subject: text('subject').notNull(),
    body_text: text('body_text').notNull(),
    body_html: text('body_html'),
    payload: jsonb('payload'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    last_error: text('last_error'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('deliveries_channel_ck', sql`${t.channel} in ('email', 'webhook')`),
    index('deliveries_due_idx')
      .on(t.next_attempt_at)
      .where(sql`${t.sent_at} is null`),
  ],
);
