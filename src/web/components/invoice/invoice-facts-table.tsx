import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { calendarDayText, shownDayTime } from '../../../shared/format.ts';
import { deviceZone } from '../../lib/clock.ts';
import { invoiceFacts } from './invoice-facts.ts';
import { InvoiceStatusBadge } from './invoice-status.tsx';

function factRows(invoice: InvoiceDetail, typeLabel: string): Array<[string, ReactNode]> {
  const facts = invoiceFacts(invoice, invoice.time_zone);
  const zone = invoice.time_zone;
  const forRequest = invoice.invoice_type_id === INVOICE_TYPE.REQUEST || invoice.invoice_type_id === INVOICE_TYPE.ISSUED;
  const rows: Array<[string, ReactNode]> = [
    ['Invoice No.', invoice.id],
    [typeLabel, invoice.invoice_type.name],
    ['Status', <InvoiceStatusBadge key="status" status={invoice.invoice_status} />],
    ['Route', facts.route],
    ['By', facts.by],
    ['To', facts.to],
    [forRequest ? 'Requested By' : 'Created By', invoice.user.full_name],
    ['Pads', invoice.pads],
  ];
  if (invoice.invoice_type_id === INVOICE_TYPE.ISSUED) rows.push(['Issued By', invoice.creator.full_name]);
  if (invoice.invoice_type_id !== INVOICE_TYPE.REQUEST) rows.push(['Assigned To', facts.assignedTo]);
  if (invoice.expected_return_date)
    rows.push(['Expected Return', `${calendarDayText(invoice.expected_return_date)} (${facts.expectedReturn})`]);
  rows.push(['Date', shownDayTime(invoice.created_at, zone, deviceZone())]);
  if (invoice.accepted_at) rows.push(['Accepted', shownDayTime(invoice.accepted_at, zone, deviceZone())]);
  return rows;
}

/** The details table of every invoice modal: the same facts, worded the same, in every screen. */
export function InvoiceFactsTable({
  invoice,
  label,
  typeLabel = 'Transaction Type',
}: {
  invoice: InvoiceDetail;
  label: string;
  typeLabel?: string;
}) {
  return (
    <Table withTableBorder withColumnBorders variant="vertical" layout="fixed" aria-label={label}>
      <Table.Tbody>
        {factRows(invoice, typeLabel).map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th w={{ base: 120, sm: 180 }}>{name}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
