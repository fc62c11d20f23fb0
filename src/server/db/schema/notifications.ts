import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AlertThresholds } from '../../../shared/schemas/notifications.ts';
import { branches, routes } from './reference.ts';
import { users } from './users.ts';

/**
 * Issue 37: one row per alert an evaluator answered, per dedupe key (kind:subject:recipient:level:period), kept open
 * while the evaluators still answer it and resolved when they no longer do (features/notifications/evaluate.ts).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    recipient_user_id: integer('recipient_user_id')
      .notNull()
      .references(() => users.id),
    level: smallint('level').notNull().default(0),
    subject_type: text('subject_type').notNull(),
    subject_id: text('subject_id').notNull(),
    period: text('period').notNull(),
    dedupe_key: text('dedupe_key').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    read_at: timestamp('read_at', { withTimezone: true }),
    resolved_at: timestamp('resolved_at', { withTimezone: true }),
    /** When the immediate mail of a loss or failed check was put in the outbox. */
    mailed_at: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_key_uq').on(t.dedupe_key),
    index('notifications_recipient_idx').on(t.recipient_user_id, t.created_at),
    index('notifications_open_kind_idx')
      .on(t.kind)
      .where(sql`${t.resolved_at} is null`),
    check('notifications_level_ck', sql`${t.level} between 0 and 9`),
  ],
);

/** A user's choice to mail an optional kind or not; no row means mailed. */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    email: boolean('email').notNull(),
  },
  (t) => [primaryKey({ name: 'notification_settings_pk', columns: [t.user_id, t.kind] })],
);

/** The one row of thresholds Admin and Accounting set; no row means the defaults. */
export const alertSettings = pgTable(
  'alert_settings',
  {
    id: smallint('id').primaryKey().default(1),
    thresholds: jsonb('thresholds').$type<Partial<AlertThresholds>>().notNull(),
    updated_by: integer('updated_by').references(() => users.id),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('alert_settings_one_row_ck', sql`${t.id} = 1`)],
);

/** Odoo's minimum-stock rule per branch and route: point = max(minimum, average daily use over 30 days × lead days). */
export const reorderPoints = pgTable(
  'reorder_points',
  {
    branch_id: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    minimum: integer('minimum').notNull(),
    lead_days: integer('lead_days').notNull(),
    snoozed_until: date('snoozed_until', { mode: 'string' }),
  },
  (t) => [
    primaryKey({ name: 'reorder_points_pk', columns: [t.branch_id, t.route_id] }),
    check('reorder_points_minimum_ck', sql`${t.minimum} >= 0`),
    check('reorder_points_lead_days_ck', sql`${t.lead_days} >= 0`),
  ],
);
