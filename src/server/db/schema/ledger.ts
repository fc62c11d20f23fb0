import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns.ts';
import { routes } from './reference.ts';
import { users } from './users.ts';

/**
 * docs/design.md §8 ledger: one row per thing that happened to a contiguous run of one pad's numbers. Append
 * only (a trigger refuses UPDATE and DELETE); seq numbers each pad's events and hash chains them.
 * holder_* is the party whose stock the event changes; counterparty_* the other side of a transfer.
 * pad_id has no foreign key: a deleted pad's history stays.
 * The other ids are checked as foreign keys would be, once per statement, by triggers (migration 0026): the
 * per-row checks of nine foreign keys cost two thirds of an acceptance's event insert.
 */
export const padEvents = pgTable(
  'pad_events',
  {
    id: serial('id').primaryKey(),
    pad_id: integer('pad_id').notNull(),
    seq: integer('seq').notNull(),
    route_id: integer('route_id').notNull(),
    kind: text('kind').notNull(),
    from_number: bigint('from_number', { mode: 'number' }).notNull(),
    to_number: bigint('to_number', { mode: 'number' }).notNull(),
    qty: integer('qty').notNull(),
    holder_user_id: integer('holder_user_id'),
    holder_branch_id: integer('holder_branch_id'),
    counterparty_user_id: integer('counterparty_user_id'),
    counterparty_branch_id: integer('counterparty_branch_id'),
    invoice_id: integer('invoice_id'),
    actor_user_id: integer('actor_user_id'),
    reason: text('reason'),
    recorded_at: timestamp('recorded_at', { withTimezone: true }).notNull(),
    business_date: date('business_date', { mode: 'string' }).notNull(),
    prev_hash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /** docs/design.md §9: who approved a cancellation or confirmed a loss or a find; the loss incident; copies retained. */
    approver_user_id: integer('approver_user_id'),
    incident_id: integer('incident_id'),
    copies_retained: boolean('copies_retained'),
    /** docs/design.md §2 offline: when the phone recorded it, if sent from its queue; recorded_at stays the server's time. */
    device_at: timestamp('device_at', { withTimezone: true }),
    /** docs/design.md §10: the import an opening balance (and its outcomes) came from. */
    import_id: integer('import_id'),
  },
  (t) => [
    uniqueIndex('pad_events_pad_seq_uq').on(t.pad_id, t.seq),
    /** A holder's RAAF reads its month's events only (issue 39). */
    index('pad_events_holder_user_day_idx')
      .on(t.holder_user_id, t.business_date)
      .where(sql`${t.holder_user_id} is not null`),
    index('pad_events_holder_branch_day_idx').on(t.holder_branch_id, t.business_date),
    index('pad_events_invoice_idx')
      .on(t.invoice_id)
      .where(sql`${t.invoice_id} is not null`),
    index('pad_events_business_date_idx').on(t.business_date),
    index('pad_events_incident_idx')
      .on(t.incident_id)
      .where(sql`${t.incident_id} is not null`),
    /** Find receipt asks for the voided ranges holding a number: a handful among millions of events. */
    index('pad_events_voided_idx')
      .on(t.from_number, t.to_number)
      .where(sql`${t.kind} = 'voided'`),
    check(
      'pad_events_range_ck',
      sql`${t.to_number} >= ${t.from_number} and (${t.qty} = ${t.to_number} - ${t.from_number} + 1 or (${t.kind} in ('custody_out', 'custody_in') and ${t.qty} = 0))`,
    ),
    check(
      'pad_events_kind_ck',
      sql`${t.kind} in ('received', 'opening', 'transfer_out', 'transfer_in', 'used', 'used_reverted', 'cancelled', 'lost', 'cancel_reverted', 'found', 'custody_out', 'custody_in', 'voided')`,
    ),
  ],
);

/** A certified RAAF, frozen as it was signed: the JSON, the PDF and the last event hash of every pad it covers. */
export const raafCertificates = pgTable(
  'raaf_certificates',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull().unique(),
    month: text('month').notNull(),
    holder_type: text('holder_type').notNull(),
    holder_id: integer('holder_id').notNull(),
    report_json: text('report_json').notNull(),
    pad_hashes: text('pad_hashes').notNull(),
    pdf: bytea('pdf').notNull(),
    certified_by: integer('certified_by')
      .notNull()
      .references(() => users.id),
    certified_at: timestamp('certified_at', { withTimezone: true }).notNull().defaultNow(),
    reviewed_by: integer('reviewed_by').references(() => users.id),
    reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
    /** SHA-256 over everything certified (not the review): the verifier recomputes it. A trigger allows only the one-way review. */
    content_hash: text('content_hash').notNull(),
  },
  (t) => [
    uniqueIndex('raaf_certificates_holder_month_uq').on(t.month, t.holder_type, t.holder_id),
    check('raaf_certificates_holder_type_ck', sql`${t.holder_type} in ('user', 'branch')`),
  ],
);

/** A month whose end balances are stored (docs/design.md §8): written once, after the month has ended. */
export const raafMonthCloses = pgTable('raaf_month_closes', {
  month: text('month').primaryKey(),
  closed_at: timestamp('closed_at', { withTimezone: true }).notNull().defaultNow(),
  balances: integer('balances').notNull(),
});

/** Derived data: one holder's unused numbers of one pad at a month's end, as "from-to" runs separated by commas. */
export const raafMonthBalances = pgTable(
  'raaf_month_balances',
  {
    month: text('month').notNull(),
    holder_type: text('holder_type').notNull(),
    holder_id: integer('holder_id').notNull(),
    pad_id: integer('pad_id').notNull(),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    ranges: text('ranges').notNull(),
  },
  (t) => [
    primaryKey({ name: 'raaf_month_balances_pk', columns: [t.month, t.holder_type, t.holder_id, t.pad_id] }),
    index('raaf_month_balances_pad_idx').on(t.pad_id, t.month),
    check('raaf_month_balances_holder_type_ck', sql`${t.holder_type} in ('user', 'branch')`),
  ],
);

/** The last event of each pad the verifier has checked: the next incremental run starts after it. */
export const ledgerVerifiedHeads = pgTable('ledger_verified_heads', {
  pad_id: integer('pad_id').primaryKey(),
  seq: integer('seq').notNull(),
  hash: text('hash').notNull(),
  verified_at: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
});

export const ledgerVerifyRuns = pgTable(
  'ledger_verify_runs',
  {
    id: serial('id').primaryKey(),
    mode: text('mode').notNull(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull(),
    finished_at: timestamp('finished_at', { withTimezone: true }).notNull(),
    pads: integer('pads').notNull(),
    events: integer('events').notNull(),
    problems: integer('problems').notNull(),
  },
  (t) => [check('ledger_verify_runs_mode_ck', sql`${t.mode} in ('full', 'incremental')`)],
);

/** Each ledger check that was run on a schedule or by `npm run ledger:verify`, with what it found; the newest one is shown. */
export const ledgerChecks = pgTable(
  'ledger_checks',
  {
    id: serial('id').primaryKey(),
    mode: text('mode').notNull(),
    source: text('source').notNull(),
    ran_by: text('ran_by').notNull(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull(),
    finished_at: timestamp('finished_at', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    pads: integer('pads').notNull(),
    events: integer('events').notNull(),
    certificates: integer('certificates').notNull(),
    problems: integer('problems').notNull(),
    problem_lines: text('problem_lines').array().notNull(),
  },
  (t) => [
    check('ledger_checks_mode_ck', sql`${t.mode} in ('full', 'incremental')`),
    check('ledger_checks_source_ck', sql`${t.source} in ('schedule', 'command')`),
  ],
);
