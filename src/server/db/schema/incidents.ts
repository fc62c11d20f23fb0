import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from './columns.ts';
import { pads } from './pads.ts';
import { routes } from './reference.ts';
import { users } from './users.ts';

/** The last LOSS-YYYY-NNNN number given per year: taken under the row's lock, so numbers are gapless. */
export const lossIncidentCounters = pgTable('loss_incident_counters', {
  year: integer('year').primaryKey(),
  last_number: integer('last_number').notNull(),
});

/** docs/design.md §9 loss incidents: reported, then confirmed (its Notice of Loss PDF kept here) or rejected. */
export const lossIncidents = pgTable(
  'loss_incidents',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull().unique(),
    year: integer('year').notNull(),
    seq: integer('seq').notNull(),
    status: text('status').notNull().default('reported'),
    place: text('place').notNull(),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull(),
    circumstances: text('circumstances').notNull(),
    reported_by: integer('reported_by')
      .notNull()
      .references(() => users.id),
    reported_at: timestamp('reported_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the phone recorded the report, for a report queued offline and sent later. */
    device_at: timestamp('device_at', { withTimezone: true }),
    decided_by: integer('decided_by').references(() => users.id),
    decided_at: timestamp('decided_at', { withTimezone: true }),
    rejection_reason: text('rejection_reason'),
    /** Why a loss was confirmed without an affidavit of loss (e.g. "Affidavit to follow"); the notice prints it. */
    no_affidavit_reason: text('no_affidavit_reason'),
    notice_pdf: bytea('notice_pdf'),
  },
  (t) => [
    uniqueIndex('loss_incidents_year_seq_uq').on(t.year, t.seq),
    check('loss_incidents_status_ck', sql`${t.status} in ('reported', 'confirmed', 'rejected')`),
  ],
);

export const lossIncidentPads = pgTable(
  'loss_incident_pads',
  {
    id: serial('id').primaryKey(),
    incident_id: integer('incident_id')
      .notNull()
      .references(() => lossIncidents.id),
    pad_id: integer('pad_id')
      .notNull()
      .references(() => pads.id),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    from_number: bigint('from_number', { mode: 'number' }).notNull(),
    to_number: bigint('to_number', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('loss_incident_pads_incident_idx').on(t.incident_id),
    index('loss_incident_pads_pad_idx').on(t.pad_id),
    check('loss_incident_pads_range_ck', sql`${t.to_number} >= ${t.from_number}`),
  ],
);

/** The affidavit, police report or tax office copy of a loss, stored in the database like report PDFs. */
export const lossIncidentAttachments = pgTable(
  'loss_incident_attachments',
  {
    id: serial('id').primaryKey(),
    incident_id: integer('incident_id')
      .notNull()
      .references(() => lossIncidents.id),
    kind: text('kind').notNull(),
    file_name: text('file_name').notNull(),
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    document_date: date('document_date', { mode: 'string' }),
    content: bytea('content').notNull(),
    uploaded_by: integer('uploaded_by')
      .notNull()
      .references(() => users.id),
    uploaded_at: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('loss_incident_attachments_incident_idx').on(t.incident_id),
    check('loss_incident_attachments_kind_ck', sql`${t.kind} in ('affidavit', 'police_report', 'tax_office_receipt', 'other')`),
  ],
);

/** Numbers of a confirmed loss found again: recorded by one user of roles 3 or 8, confirmed by another. */
export const lossIncidentFound = pgTable(
  'loss_incident_found',
  {
    id: serial('id').primaryKey(),
    incident_id: integer('incident_id')
      .notNull()
      .references(() => lossIncidents.id),
    pad_id: integer('pad_id')
      .notNull()
      .references(() => pads.id),
    from_number: bigint('from_number', { mode: 'number' }).notNull(),
    to_number: bigint('to_number', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    recorded_by: integer('recorded_by')
      .notNull()
      .references(() => users.id),
    recorded_at: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    confirmed_by: integer('confirmed_by').references(() => users.id),
    confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    index('loss_incident_found_incident_idx').on(t.incident_id),
    check('loss_incident_found_range_ck', sql`${t.to_number} >= ${t.from_number}`),
    check('loss_incident_found_two_users_ck', sql`${t.confirmed_by} is null or ${t.confirmed_by} <> ${t.recorded_by}`),
  ],
);
