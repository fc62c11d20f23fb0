import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  date,
  index,
  integer,
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
  (t) => [index('locations_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`)],
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
 * The exclusion constraint that keeps ranges of a route disjoint is added in a hand-written migration.
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
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('pads_route_number_uq').on(t.route_id, t.number),
    index('pads_series_trgm').using('gin', sql`((${t.series_from}::text || '-' || ${t.series_to}::text)) gin_trgm_ops`),
    index('pads_status_idx').on(t.issuance_status_id, t.pad_status_id),
    index('pads_holder_user_idx').on(t.holder_user_id),
    index('pads_holder_branch_idx').on(t.holder_branch_id),
    check('pads_range_ck', sql`${t.series_to} >= ${t.series_from}`),
    check('pads_series_len_ck', sql`length(${t.series_status}) = ${t.series_to} - ${t.series_from} + 1`),
  ],
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
  },
  (t) => [index('activities_invoice_idx').on(t.invoice_id, t.id)],
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
