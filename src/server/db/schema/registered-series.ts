import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
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
