import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import type { Column } from '../data-table.tsx';
import { invoiceFacts } from './invoice-facts.ts';
import { InvoiceStatusBadge } from './invoice-status.tsx';

/**
 * The invoice list columns in the spec's order (Type, Pads, Route, By, To, Status, Date, Expected
 * Return, Assigned To); a screen leaves out the type column (`typeHeader` null) or Expected Return.
 * Every one sorts server-side by its key (shared INVOICE_SORTS).
 */
export function invoiceColumns(timeZone: string, typeHeader: string | null, withExpectedReturn: boolean): Column<InvoiceRow>[] {
  const facts = (row: InvoiceRow) => invoiceFacts(row, timeZone);
  const columns: Array<Column<InvoiceRow> | null> = [
    typeHeader ? { key: 'type', header: typeHeader, sortable: true, render: (r) => r.invoice_type.name } : null,
    { key: 'pads', header: 'Pads', sortable: true, render: (r) => r.pads },
    { key: 'route', header: 'Route', sortable: true, wrap: true, minWidth: 150, render: (r) => facts(r).route },
    { key: 'by', header: 'By', sortable: true, wrap: true, minWidth: 90, render: (r) => facts(r).by },
    { key: 'to', header: 'To', sortable: true, wrap: true, minWidth: 90, render: (r) => facts(r).to },
    { key: 'status', header: 'Status', sortable: true, width: 130, render: (r) => <InvoiceStatusBadge status={r.invoice_status} /> },
    { key: 'date', header: 'Date', sortable: true, render: (r) => facts(r).date },
    withExpectedReturn ? { key: 'expected', header: 'Expected Return', sortable: true, render: (r) => facts(r).expectedReturn } : null,
    { key: 'assigned', header: 'Assigned To', sortable: true, wrap: true, minWidth: 90, render: (r) => facts(r).assignedTo },
  ];
  return columns.filter((c): c is Column<InvoiceRow> => c !== null);
}
