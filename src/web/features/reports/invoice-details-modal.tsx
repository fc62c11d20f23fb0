import { Modal, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { routeLabel } from '../../../shared/format.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { Pager } from '../../components/pager.tsx';
import { reportQueries } from './api.ts';
import { byBranch, formatDate, formatDateTime, toBranch } from './format.ts';
import { StatusBadge } from './status-badge.tsx';

/** Read-only "{type} Invoice Details" of a candidate invoice, opened by VIEW in the Generate modal. */
export function InvoiceDetailsModal({ invoiceId, onClose }: { invoiceId: number | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const detail = useQuery({ ...reportQueries.invoice(invoiceId ?? 0), enabled: invoiceId !== null });
  const invoice = detail.data;
  return (
    <Modal
      opened={invoiceId !== null}
      onClose={onClose}
      title={<Title order={3}>{invoice ? `${invoice.invoice_type.name} Invoice Details` : 'Invoice Details'}</Title>}
      size="xl"
      fullScreen={phone}
      zIndex={300}
    >
      {!invoice ? (
        <Stack data-testid="table-loader">
          {detail.isError ? <Text c="red">{detail.error.message}</Text> : Array.from({ length: 6 }, (_, i) => <Skeleton key={i} h={20} />)}
        </Stack>
      ) : (
        <Stack gap="lg">
          <Details invoice={invoice} />
          <Pads invoiceId={invoice.id} />
          <Stack gap={4}>
            <Title order={4}>Invoice Activity</Title>
            {invoice.activities.map((a) => (
              <Text key={a.id} size="sm">
                <b>{a.invoice_status.name}</b> · {formatDateTime(a.created_at)} · {a.description}
                {a.location ? ` · ${a.location}` : ''}
              </Text>
            ))}
          </Stack>
          <AppButton variant="secondary" onClick={onClose} style={{ alignSelf: 'flex-end' }}>
            Close
          </AppButton>
        </Stack>
      )}
    </Modal>
  );
}

function Details({ invoice }: { invoice: InvoiceDetail }) {
  const rows: Array<[string, ReactNode]> = [
    ['Invoice No.', invoice.id],
    ['Status', <StatusBadge key="s" name={invoice.invoice_status.name} />],
    ['Pads', invoice.pads],
    ['Route', routeLabel(invoice.route)],
    ['By', byBranch(invoice)],
    ['To', toBranch(invoice)],
    ['Receiving user', invoice.user.full_name],
    ['Assigned To', invoice.assigned_to ?? '-'],
    ['Date', formatDate(invoice.created_at)],
    ['Accepted', formatDate(invoice.accepted_at)],
    ['Expected Return', formatDate(invoice.expected_return_date)],
  ];
  return (
    <Table withTableBorder withColumnBorders variant="vertical" layout="fixed" aria-label="Invoice details">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: 120, sm: 180 }}>{label}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Pads({ invoiceId }: { invoiceId: number }) {
  const [page, setPage] = useState(1);
  const list = useQuery(reportQueries.invoicePads(invoiceId, page));
  return (
    <Stack gap="xs">
      <Title order={4}>Pads</Title>
      <DataTable
        columns={[
          { key: 'number', header: 'Pad Number', render: (p) => p.number },
          { key: 'series', header: 'Series Number', render: (p) => p.series_number },
          { key: 'status', header: 'Pad Status', render: (p) => p.pad_status.name },
          { key: 'issuance', header: 'Issuance Status', render: (p) => p.issuance_status.name },
        ]}
        rows={list.data?.data}
        rowKey={(p) => p.id}
        loading={list.isLoading}
        emptyText="No pads"
      />
      <Pager page={page} lastPage={list.data?.last_page ?? 1} onChange={setPage} />
    </Stack>
  );
}
