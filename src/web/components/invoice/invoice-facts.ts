import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { dayText } from '../../../shared/format.ts';

/**
 * By, To, Route and Expected Return as the server words them (decided once there, days counted in
 * APP_TIMEZONE), and the date in that zone: the same texts in every screen.
 */
export function invoiceFacts(row: InvoiceRow, timeZone: string) {
  return {
    by: row.by,
    to: row.to,
    route: row.route_label,
    date: dayText(row.created_at, timeZone),
    expectedReturn: row.expected_return_text,
    assignedTo: row.assigned_to ?? '-',
    padCount: `${row.pads} ${row.pads === 1 ? 'pad' : 'pads'}`,
  };
}
