import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { branches, routes } from './reference.ts';
import { users } from './users.ts';

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
    /** Issue 38: what the series is for once its establishment issues e-invoices; changes are kept in registered_series_roles. */
    role: text('role').notNull().default('regular'),
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('registered_series_route_idx').on(t.route_id),
    index('registered_series_branch_idx').on(t.branch_id),
    check('registered_series_range_ck', sql`${t.series_to} >= ${t.series_from}`),
    check('registered_series_form_type_ck', sql`${t.form_type} in ('invoice', 'converted_receipt', 'supplementary')`),
    check('registered_series_role_ck', sql`${t.role} in ('regular', 'contingency', 'converted', 'supplementary', 'retired')`),
  ],
);

/** Issue 38: every change of a series' role (who, when, why); the series row holds the current one. */
export const registeredSeriesRoles = pgTable(
  'registered_series_roles',
  {
    id: serial('id').primaryKey(),
    registered_series_id: integer('registered_series_id')
      .notNull()
      .references(() => registeredSeries.id),
    role: text('role').notNull(),
    previous_role: text('previous_role').notNull(),
    reason: text('reason').notNull(),
    changed_by: integer('changed_by')
      .notNull()
      .references(() => users.id),
    changed_at: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('registered_series_roles_series_idx').on(t.registered_series_id, t.changed_at),
    check('registered_series_roles_role_ck', sql`${t.role} in ('regular', 'contingency', 'converted', 'supplementary', 'retired')`),
  ],
);
