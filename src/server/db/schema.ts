import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

const lookup = (name: string) =>
  pgTable(name, {
    id: smallint('id').primaryKey(),
    name: text('name').notNull().unique(),
  });

export const userStatuses = lookup('user_statuses');
export const companyTypes = lookup('company_types');
export const padStatuses = lookup('pad_statuses');
export const issuanceStatuses = lookup('issuance_statuses');
export const invoiceTypes = lookup('invoice_types');
export const invoiceStatuses = lookup('invoice_statuses');

export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('roles_name_lower_uq').on(sql`lower(${t.name})`)],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('locations_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    uniqueIndex('locations_name_lower_uq').on(sql`lower(${t.name})`),
  ],
);

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    company_type_id: smallint('company_type_id')
      .notNull()
      .references(() => companyTypes.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('companies_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    index('companies_company_type_idx').on(t.company_type_id),
    uniqueIndex('companies_name_lower_uq').on(sql`lower(${t.name})`),
  ],
);

export const routes = pgTable(
  'routes',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    tin: text('tin').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('routes_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    index('routes_tin_trgm').using('gin', sql`${t.tin} gin_trgm_ops`),
    index('routes_company_idx').on(t.company_id),
    uniqueIndex('routes_company_name_lower_uq').on(t.company_id, sql`lower(${t.name})`),
  ],
);

export const branches = pgTable(
  'branches',
  {
    id: serial('id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    location_id: integer('location_id')
      .notNull()
      .references(() => locations.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('branches_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
    index('branches_company_idx').on(t.company_id),
    index('branches_location_idx').on(t.location_id),
    uniqueIndex('branches_name_lower_uq').on(sql`lower(${t.name})`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    first_name: text('first_name').notNull(),
    middle_name: text('middle_name'),
    last_name: text('last_name').notNull(),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    contact_number: text('contact_number'),
    branch_id: integer('branch_id').references(() => branches.id),
    role_id: integer('role_id').references(() => roles.id),
    user_status_id: smallint('user_status_id')
      .notNull()
      .references(() => userStatuses.id),
    badge_version: integer('badge_version').notNull().default(1),
    /** A password an administrator chose (or the generated first-admin one): the user must replace it before anything else. */
    must_change_password: boolean('must_change_password').notNull().default(false),
    is_demo: smallint('is_demo').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_search_trgm').using(
      'gin',
      sql`(${t.first_name} || ' ' || coalesce(${t.middle_name}, '') || ' ' || ${t.last_name} || ' ' || ${t.email}) gin_trgm_ops`,
    ),
    index('users_role_idx').on(t.role_id),
    index('users_branch_idx').on(t.branch_id),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('access_tokens_user_idx').on(t.user_id)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.user_id)],
);

/**
 * A pad covers the receipt numbers series_from..series_to of one route. The per-entry statuses live
 * in the row as one character per number ('1' not used, '2' used), so a pad is one row whatever its size.
 * The exclusion constraint that keeps ranges of a route disjoint is added in a hand-written migration;
 * so is pad_series_suffixes (0004), every suffix of the series text, which makes a contains-search a prefix lookup,
 * and the trigger (0018) that keeps the series text of a pad Cancelled or Lost as a whole until it is reinstated.
 */
export const pads = pgTable(
  'pads',
  {
    id: serial('id').primaryKey(),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    number: integer('number').notNull(),
    series_from: bigint('series_from', { mode: 'number' }).notNull(),
    series_to: bigint('series_to', { mode: 'number' }).notNull(),
    series_status: text('series_status').notNull(),
    pad_status_id: smallint('pad_status_id')
      .notNull()
      .references(() => padStatuses.id),
    issuance_status_id: smallint('issuance_status_id')
      .notNull()
      .references(() => issuanceStatuses.id),
    remarks: text('remarks'),
    holder_user_id: integer('holder_user_id').references(() => users.id),
    holder_branch_id: integer('holder_branch_id').references(() => branches.id),
    locked_by_invoice_id: integer('locked_by_invoice_id'),
    /** docs/design.md §10: the registered series (ATP) the pad lies inside, if any. */
    registered_series_id: integer('registered_series_id').references(() => registeredSeries.id),
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('pads_route_number_uq').on(t.route_id, t.number),
    index('pads_series_suffix_gin').using('gin', sql`pad_series_suffixes(${t.series_from}, ${t.series_to})`),
    index('pads_status_idx').on(t.issuance_status_id, t.pad_status_id),
    index('pads_holder_user_idx').on(t.holder_user_id),
    index('pads_holder_branch_idx').on(t.holder_branch_id),
    index('pads_locked_by_invoice_idx')
      .on(t.locked_by_invoice_id)
      .where(sql`${t.locked_by_invoice_id} is not null`),
    index('pads_route_id_idx').on(t.route_id, t.id),
    index('pads_registered_series_idx')
      .on(t.registered_series_id)
      .where(sql`${t.registered_series_id} is not null`),
    check('pads_range_ck', sql`${t.series_to} >= ${t.series_from}`),
    check('pads_series_len_ck', sql`length(${t.series_status}) = ${t.series_to} - ${t.series_from} + 1`),
    check('pads_series_chars_ck', sql`${t.series_status} ~ '^[1-4]*$'`),
  ],
);

/**
 * How many pads of a route have ids in each block of 1,024 ids (block = id >> 10), kept exact by triggers
 * on pads in the writing transaction (migration 0002). The pad list reads its total and finds the block a
 * page starts in from these few rows instead of counting and offsetting the whole table.
 */
export const padIdBlocks = pgTable(
  'pad_id_blocks',
  {
    route_id: integer('route_id').notNull(),
    block: integer('block').notNull(),
    pads: integer('pads').notNull(),
  },
  (t) => [primaryKey({ name: 'pad_id_blocks_pk', columns: [t.route_id, t.block] })],
);

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
  },
  (t) => [primaryKey({ columns: [t.invoice_id, t.pad_id] }), index('invoice_pads_pad_idx').on(t.pad_id)],
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

export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    number: text('number').notNull().unique(),
    remarks: text('remarks'),
    total_invoice: integer('total_invoice').notNull(),
    period_from: date('period_from', { mode: 'string' }),
    period_to: date('period_to', { mode: 'string' }),
    pdf: bytea('pdf').notNull(),
    generated_by: integer('generated_by')
      .notNull()
      .references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [index('reports_created_idx').on(t.created_at), index('reports_generated_by_idx').on(t.generated_by)],
);

export const reportInvoices = pgTable(
  'report_invoices',
  {
    report_id: integer('report_id')
      .notNull()
      .references(() => reports.id),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id)
      .unique(),
  },
  (t) => [primaryKey({ columns: [t.report_id, t.invoice_id] })],
);

/**
 * docs/design.md §8 ledger: one row per thing that happened to a contiguous run of one pad's numbers. Append
 * only (a trigger refuses UPDATE and DELETE); seq numbers each pad's events and hash chains them.
 * holder_* is the party whose stock the event changes; counterparty_* the other side of a transfer.
 * pad_id has no foreign key: a deleted pad's history stays.
 */
export const padEvents = pgTable(
  'pad_events',
  {
    id: serial('id').primaryKey(),
    pad_id: integer('pad_id').notNull(),
    seq: integer('seq').notNull(),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    kind: text('kind').notNull(),
    from_number: bigint('from_number', { mode: 'number' }).notNull(),
    to_number: bigint('to_number', { mode: 'number' }).notNull(),
    qty: integer('qty').notNull(),
    holder_user_id: integer('holder_user_id').references(() => users.id),
    holder_branch_id: integer('holder_branch_id').references(() => branches.id),
    counterparty_user_id: integer('counterparty_user_id').references(() => users.id),
    counterparty_branch_id: integer('counterparty_branch_id').references(() => branches.id),
    invoice_id: integer('invoice_id').references(() => invoices.id),
    actor_user_id: integer('actor_user_id').references(() => users.id),
    reason: text('reason'),
    recorded_at: timestamp('recorded_at', { withTimezone: true }).notNull(),
    business_date: date('business_date', { mode: 'string' }).notNull(),
    prev_hash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    /** docs/design.md §9: who approved a cancellation or confirmed a loss or a find; the loss incident; copies retained. */
    approver_user_id: integer('approver_user_id').references(() => users.id),
    incident_id: integer('incident_id'),
    copies_retained: boolean('copies_retained'),
    /** docs/design.md §2 offline: when the phone recorded it, if sent from its queue; recorded_at stays the server's time. */
    device_at: timestamp('device_at', { withTimezone: true }),
    /** docs/design.md §10: the import an opening balance (and its outcomes) came from. */
    import_id: integer('import_id').references(() => imports.id),
  },
  (t) => [
    uniqueIndex('pad_events_pad_seq_uq').on(t.pad_id, t.seq),
    index('pad_events_holder_user_idx')
      .on(t.holder_user_id, t.recorded_at)
      .where(sql`${t.holder_user_id} is not null`),
    index('pad_events_holder_branch_idx').on(t.holder_branch_id, t.recorded_at),
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
    check('count_resolutions_action_ck', sql`${t.action} in ('usage', 'incident', 'accept')`),
    check('count_resolutions_kind_ck', sql`${t.kind} in ('missing', 'found_elsewhere', 'unrecorded_use', 'unused_recorded')`),
  ],
);

/** docs/design.md §10: one import file (pads or users), dry run or applied, with its totals and errors as JSON. */
export const imports = pgTable(
  'imports',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    dry_run: boolean('dry_run').notNull(),
    applied: boolean('applied').notNull(),
    file_name: text('file_name').notNull(),
    totals: text('totals').notNull(),
    errors: text('errors').notNull(),
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [index('imports_created_idx').on(t.created_at), check('imports_kind_ck', sql`${t.kind} in ('pads', 'users')`)],
);

/**
 * docs/design.md §10: what the tax bureau authorised to be printed for one establishment (an Authority to Print).
 * Series of one route never overlap: an exclusion constraint added in the migration, like pads'.
 */
export const registeredSeries = pgTable(
  'registered_series',
  {
    id: serial('id').primaryKey(),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    branch_id: integer('branch_id')
      .notNull()
      .references(() => branches.id),
    form_type: text('form_type').notNull(),
    atp_number: text('atp_number').notNull(),
    atp_date: date('atp_date', { mode: 'string' }).notNull(),
    printer: text('printer').notNull(),
    delivery_date: date('delivery_date', { mode: 'string' }),
    series_from: bigint('series_from', { mode: 'number' }).notNull(),
    series_to: bigint('series_to', { mode: 'number' }).notNull(),
    remarks: text('remarks'),
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('registered_series_route_idx').on(t.route_id),
    index('registered_series_branch_idx').on(t.branch_id),
    check('registered_series_range_ck', sql`${t.series_to} >= ${t.series_from}`),
    check('registered_series_form_type_ck', sql`${t.form_type} in ('invoice', 'converted_receipt', 'supplementary')`),
  ],
);
