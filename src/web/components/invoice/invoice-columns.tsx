import { invoiceListColumns } from '../../../shared/list-columns.ts';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import type { Column } from '../data-table.tsx';
import { tableColumns } from '../list-columns.tsx';
import { InvoiceStatusBadge } from './invoice-status.tsx';

/**
 * The invoice list columns from their one shared definition (src/shared/list-columns.ts: No., Type, Pads,
 * Route, By, To, Status, Date, Expected Return, Assigned To); a screen leaves out the type column (`typeHeader`
 * null) or Expected Return. Every one but No. sorts server-side by its key (shared INVOICE_SORTS).
 */
export function invoiceColumns(timeZone: string, typeHeader: string | null, withExpectedReturn: boolean): Column<InvoiceRow>[] {
  return tableColumns(invoiceListColumns(timeZone, typeHeader, withExpectedReturn), {
    id: { sortable: false, width: 56 },
    route: { wrap: true, minWidth: 136 },
    by: { wrap: true, minWidth: 90 },
    to: { wrap: true, minWidth: 90 },
    status: { width: 130, render: (r) => <InvoiceStatusBadge status={r.invoice_status} /> },
    assigned: { wrap: true, minWidth: 90 },
  });
}
