import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, lookup, updatedAt } from './columns.ts';
import { lossIncidents } from './incidents.ts';
import { pads } from './pads.ts';
import { branches, routes } from './reference.ts';
import { users } from './users.ts';

export const invoiceTypes = lookup('invoice_types');
export const invoiceStatuses = lookup('invoice_statuses');

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    invoice_type_id: smallint('invoice_type_id')
      .notNull()
      .references(() => invoiceTypes.id),
    invoice_status_id: smallint('invoice_status_id')
      .notNull()
      .references(() => invoiceStatuses.id),
    /** The requester (Request, Issued) or the creator (Return, Turnover). */
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Who wrote the invoice (the custodian for Issued). */
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    /** The branch the pads leave from. */
    from_branch_id: integer('from_branch_id').references(() => branches.id),
    /** The destination branch (spec "To"). */
    branch_id: integer('branch_id').references(() => branches.id),
    route_id: integer('route_id').references(() => routes.id),
    assigned_user_id: integer('assigned_user_id').references(() => users.id),
    pad_count: integer('pad_count').notNull(),
    request_invoice_id: integer('request_invoice_id'),
    expected_return_date: date('expected_return_date', { mode: 'string' }),
    accepted_by: integer('accepted_by').references(() => users.id),
    accepted_at: timestamp('accepted_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('invoices_type_status_idx').on(t.invoice_type_id, t.invoice_status_id),
    index('invoices_user_idx').on(t.user_id),
    index('invoices_assigned_idx').on(t.assigned_user_id),
    index('invoices_branch_idx').on(t.branch_id),
    index('invoices_from_branch_idx').on(t.from_branch_id),
    index('invoices_created_idx').on(t.created_at),
    /** "In transit at an instant" (each RAAF's month end): the transfers written before it and accepted at or after it. */
    index('invoices_in_transit_span_idx')
      .using('gist', sql`tstzrange(${t.created_at}, greatest(${t.created_at}, coalesce(${t.accepted_at}, 'infinity'::timestamptz)), '(]')`)
      .where(sql`${t.invoice_type_id} <> 1 and ${t.invoice_status_id} in (2, 4)`),
    uniqueIndex('invoices_request_uq').on(t.request_invoice_id),
  ],
);

export const invoicePads = pgTable(
  'invoice_pads',
  {
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    pad_id: integer('pad_id')
      .notNull()
      .references(() => pads.id),
    /** docs/design.md §9: when a loss confirmed on the way took the pad off the invoice, which then no longer carries it. */
    left_at: timestamp('left_at', { withTimezone: true }),
    lost_incident_id: integer('lost_incident_id').references(() => lossIncidents.id),
  },
  (t) => [
    primaryKey({ columns: [t.invoice_id, t.pad_id] }),
    index('invoice_pads_pad_idx').on(t.pad_id),
    check('invoice_pads_left_ck', sql`(${t.left_at} is null) = (${t.lost_incident_id} is null)`),
  ],
);

export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    invoice_status_id: smallint('invoice_status_id')
      .notNull()
      .references(() => invoiceStatuses.id),
    description: text('description').notNull(),
    location: text('location'),
    user_id: integer('user_id').references(() => users.id),
    assigned_user_id: integer('assigned_user_id').references(() => users.id),
    created_at: createdAt(),
    /** A hand-over's receiver who accepted it on his phone, or whose badge the giver scanned (docs/design.md §5). */
    confirmed_by: integer('confirmed_by').references(() => users.id),
    /** When the device recorded the action, if it was queued offline; created_at stays the server's time. */
    device_at: timestamp('device_at', { withTimezone: true }),
  },
  (t) => [index('activities_invoice_idx').on(t.invoice_id, t.id)],
);

/**
 * docs/design.md §5 two-party hand-over: a hand-over to a courier picked from the list waits here for him to accept
 * on his own phone; until then the invoice stays with the giver. One per invoice: a new pick replaces it.
 */
export const pendingHandOvers = pgTable(
  'pending_hand_overs',
  {
    invoice_id: integer('invoice_id')
      .primaryKey()
      .references(() => invoices.id),
    from_user_id: integer('from_user_id')
      .notNull()
      .references(() => users.id),
    to_user_id: integer('to_user_id')
      .notNull()
      .references(() => users.id),
    requested_by: integer('requested_by')
      .notNull()
      .references(() => users.id),
    device_at: timestamp('device_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    index('pending_hand_overs_to_idx').on(t.to_user_id),
    check('pending_hand_overs_other_ck', sql`${t.from_user_id} <> ${t.to_user_id}`),
  ],
);
