import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, updatedAt } from './columns.ts';
import { pads } from './pads.ts';
import { branches, routes } from './reference.ts';
import { registeredSeries } from './registered-series.ts';
import { users } from './users.ts';

/** Issue 38: a branch as a tax establishment, and whether (since when) it issues e-invoices. One row per branch, when set. */
export const establishments = pgTable(
  'establishments',
  {
    branch_id: integer('branch_id')
      .primaryKey()
      .references(() => branches.id),
    bir_branch_code: text('bir_branch_code').notNull(),
    covered: boolean('covered').notNull().default(false),
    e_invoicing_since: date('e_invoicing_since', { mode: 'string' }),
    permit_reference: text('permit_reference'),
    invoicing_system: text('invoicing_system'),
    updated_by: integer('updated_by').references(() => users.id),
    updated_at: updatedAt(),
  },
  (t) => [
    check('establishments_branch_code_ck', sql`${t.bir_branch_code} ~ '^[0-9]{3,5}$'`),
    check('establishments_covered_since_ck', sql`NOT ${t.covered} OR ${t.e_invoicing_since} IS NOT NULL`),
  ],
);

/**
 * Issue 38: a declared time when an establishment could not issue e-invoices. Windows of one establishment never overlap:
 * an exclusion constraint on tstzrange(starts_at, ends_at) added in migration 0022; an open outage has no end.
 */
export const outages = pgTable(
  'outages',
  {
    id: serial('id').primaryKey(),
    branch_id: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    starts_at: timestamp('starts_at', { withTimezone: true }).notNull(),
    ends_at: timestamp('ends_at', { withTimezone: true }),
    cause: text('cause').notNull(),
    details: text('details'),
    notice_reference: text('notice_reference'),
    declared_by: integer('declared_by')
      .notNull()
      .references(() => users.id),
    closed_by: integer('closed_by').references(() => users.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    check('outages_cause_ck', sql`${t.cause} in ('power', 'network', 'invoicing_system', 'tax_bureau_system', 'other')`),
    check('outages_window_ck', sql`${t.ends_at} IS NULL OR ${t.ends_at} > ${t.starts_at}`),
  ],
);

/** A photo or document that shows the outage happened (a screenshot, a ticket). */
export const outageEvidence = pgTable(
  'outage_evidence',
  {
    id: serial('id').primaryKey(),
    outage_id: integer('outage_id')
      .notNull()
      .references(() => outages.id),
    file_name: text('file_name').notNull(),
    content_type: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    uploaded_by: integer('uploaded_by')
      .notNull()
      .references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [index('outage_evidence_outage_idx').on(t.outage_id), check('outage_evidence_size_ck', sql`octet_length(${t.bytes}) <= 5242880`)],
);

/**
 * Issue 38: a range of paper numbers used at a covered establishment after its go-live, written with the usage: linked to
 * the outage it fell in, or an exception (open until Accounting justifies or rejects it).
 */
export const paperUses = pgTable(
  'paper_uses',
  {
    id: serial('id').primaryKey(),
    branch_id: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    pad_id: integer('pad_id')
      .notNull()
      .references(() => pads.id),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    registered_series_id: integer('registered_series_id').references(() => registeredSeries.id),
    series_role: text('series_role').notNull(),
    number_from: bigint('number_from', { mode: 'number' }).notNull(),
    number_to: bigint('number_to', { mode: 'number' }).notNull(),
    holder_user_id: integer('holder_user_id').references(() => users.id),
    used_at: timestamp('used_at', { withTimezone: true }).notNull(),
    business_date: date('business_date', { mode: 'string' }).notNull(),
    recorded_by: integer('recorded_by')
      .notNull()
      .references(() => users.id),
    outage_id: integer('outage_id').references(() => outages.id),
    state: text('state').notNull(),
    reason_code: text('reason_code'),
    reason_text: text('reason_text'),
    decided_by: integer('decided_by').references(() => users.id),
    decided_at: timestamp('decided_at', { withTimezone: true }),
    undone_at: timestamp('undone_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    index('paper_uses_branch_used_idx').on(t.branch_id, t.used_at),
    index('paper_uses_outage_idx').on(t.outage_id),
    index('paper_uses_pad_idx').on(t.pad_id, t.number_from),
    index('paper_uses_open_idx')
      .on(t.holder_user_id, t.business_date)
      .where(sql`${t.state} = 'open' AND ${t.undone_at} IS NULL`),
    check('paper_uses_range_ck', sql`${t.number_to} >= ${t.number_from}`),
    check('paper_uses_state_ck', sql`${t.state} in ('linked', 'open', 'justified', 'rejected')`),
    check('paper_uses_linked_ck', sql`(${t.state} = 'linked') = (${t.outage_id} IS NOT NULL)`),
    check(
      'paper_uses_decided_ck',
      sql`${t.state} NOT IN ('justified', 'rejected') OR (${t.decided_by} IS NOT NULL AND ${t.decided_at} IS NOT NULL AND ${t.reason_code} IS NOT NULL)`,
    ),
  ],
);

/** Issue 38: the e-invoice that later recorded a paper sale made during an outage. */
export const replacementEinvoices = pgTable(
  'replacement_einvoices',
  {
    id: serial('id').primaryKey(),
    outage_id: integer('outage_id')
      .notNull()
      .references(() => outages.id),
    pad_id: integer('pad_id')
      .notNull()
      .references(() => pads.id),
    paper_number: bigint('paper_number', { mode: 'number' }).notNull(),
    einvoice_number: text('einvoice_number').notNull(),
    transmitted_on: date('transmitted_on', { mode: 'string' }).notNull(),
    entered_by: integer('entered_by')
      .notNull()
      .references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('replacement_einvoices_paper_uq').on(t.pad_id, t.paper_number),
    index('replacement_einvoices_outage_idx').on(t.outage_id),
  ],
);
