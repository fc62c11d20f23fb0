import { date, index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns.ts';
import { invoices } from './invoices.ts';
import { users } from './users.ts';

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
