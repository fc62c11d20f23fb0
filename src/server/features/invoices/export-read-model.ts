import { invoiceListColumns } from '../../../shared/list-columns.ts';
import type { InvoiceListQuery } from '../../../shared/schemas/invoices.ts';
import { listExport } from '../../lib/export.ts';
import { listSource } from './service.ts';

/** The Transactions list's export, as its route and an export worker (src/server/exports/registry.ts) write it. */
export const invoiceListExport = listExport({
  kind: 'invoices',
  fileBase: 'Transactions',
  columns: (timeZone) => invoiceListColumns(timeZone, 'Transaction Type', true),
  source: (ctx, actor, query: InvoiceListQuery) => listSource(ctx, actor, query),
});
