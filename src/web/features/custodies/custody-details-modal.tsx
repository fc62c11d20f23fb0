import { Group, Modal, Skeleton, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCircle, IconCircleCheck, IconClock, IconFileExport, IconTruck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { expectedReturnText, routeLabel } from '../../../shared/format.ts';
import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import { can } from '../../../shared/permissions.ts';
import type { ActivityRow, InvoiceDetail, InvoicePad } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { useSession } from '../../lib/session.ts';
import { custodyQueries } from './api.ts';
import { formatDate, formatDateTime } from './format.ts';
import { HandOverModal } from './hand-over-modal.tsx';
import { StatusBadge } from './status-badge.tsx';

/** Spec §2 "{type} Custody Details": details, the pads carried, the Custody Activity timeline and Hand Over. */
export function CustodyDetailsModal({ invoiceId, onClose }: { invoiceId: number | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const detail = useQuery({ ...custodyQueries.detail(invoiceId ?? 0), enabled: invoiceId !== null });
  const session = useSession();
  const [handingOver, setHandingOver] = useState(false);
  const invoice = detail.data;
  const mayHandOver = invoice && invoice.invoice_status_id === INVOICE_STATUS.IN_TRANSIT && can(session?.user, 'custody.handOver', invoice);

  return (
    <>
      <Modal
        opened={invoiceId !== null}
        onClose={onClose}
        title={<Title order={3}>{invoice ? `${invoice.invoice_type.name} Custody Details` : 'Custody Details'}</Title>}
        size="xl"
        fullScreen={phone}
      >
        {!invoice ? (
          <Stack data-testid="table-loader">
            {detail.isError ? (
              <Text c="red">{detail.error.message}</Text>
            ) : (
              Array.from({ length: 6 }, (_, i) => <Skeleton key={i} h={20} />)
            )}
          </Stack>
        ) : (
          <Stack gap="lg">
            <DetailsTable invoice={invoice} />
            <PadsCarried invoiceId={invoice.id} />
            <ActivityTimeline activities={invoice.activities} />
            <Group
              justify="flex-end"
              gap="sm"
              grow={phone}
              py="xs"
              style={{ position: 'sticky', bottom: 0, zIndex: 2, background: 'var(--mantine-color-body)', borderTop: '1px solid var(--mantine-color-gray-3)' }}
            >
              {mayHandOver ? <AppButton onClick={() => setHandingOver(true)}>Hand Over</AppButton> : null}
              <AppButton variant="secondary" onClick={onClose}>
                Close
              </AppButton>
            </Group>
          </Stack>
        )}
      </Modal>
      {invoice ? (
        <HandOverModal
          opened={handingOver}
          invoice={invoice}
          onClose={() => setHandingOver(false)}
          onDone={() => {
            setHandingOver(false);
            onClose();
          }}
        />
      ) : null}
    </>
  );
}

function DetailsTable({ invoice }: { invoice: InvoiceDetail }) {
  const rows: Array<[string, ReactNode]> = [
    ['Invoice Type', invoice.invoice_type.name],
    ['Status', <StatusBadge key="s" name={invoice.invoice_status.name} />],
    ['Pads', invoice.pads],
    ['Route', invoice.route ? routeLabel(invoice.route) : 'Mixed routes'],
    ['By', invoice.from_branch?.name ?? invoice.user.branch?.name ?? '-'],
    ['To', invoice.branch?.name ?? '-'],
    ['Created By', invoice.user.full_name],
    ['Assigned To', invoice.assigned_to ?? '-'],
    ['Date', formatDate(invoice.created_at)],
  ];
  if (invoice.expected_return_date) {
    rows.push(['Expected Return', expectedReturnText(invoice.expected_return_date, new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone)]);
  }
  return (
    <Table withTableBorder withColumnBorders variant="vertical" layout="fixed" aria-label="Custody details">
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

const padColumns: Column<InvoicePad>[] = [
  { key: 'number', header: 'Pad Number', render: (p) => p.number },
  { key: 'series', header: 'Series Number', render: (p) => p.series_number },
  { key: 'route', header: 'Route', wrap: true, render: (p) => routeLabel(p.route) },
  { key: 'pad_status', header: 'Pad Status', render: (p) => p.pad_status.name },
  { key: 'issuance', header: 'Issuance Status', render: (p) => p.issuance_status.name },
  { key: 'remarks', header: 'Remarks', render: (p) => p.remarks || '-' },
];

function PadsCarried({ invoiceId }: { invoiceId: number }) {
  const [params, setParams] = useState({ page: 1, search: '' });
  const list = useQuery(custodyQueries.invoicePads(invoiceId, params));
  return (
    <Stack gap="xs">
      <Title order={4}>Pads</Title>
      <Group>
        <SearchInput placeholder="Search by pad name" onSearch={(search) => setParams({ page: 1, search })} />
      </Group>
      <DataTable columns={padColumns} rows={list.data?.data} rowKey={(p) => p.id} loading={list.isLoading} emptyText="No pads" />
      <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={(page) => setParams((p) => ({ ...p, page }))} />
    </Stack>
  );
}

function statusIcon(name: string) {
  if (name === 'Completed') return <IconCircleCheck size={14} />;
  if (name === 'In-Transit') return <IconTruck size={14} />;
  if (name === 'Issued') return <IconFileExport size={14} />;
  if (name === 'Pending') return <IconClock size={14} />;
  return <IconCircle size={14} />;
}

/** Spec §2 activity timeline; an In-Transit entry names the person carrying the pads. */
function ActivityTimeline({ activities }: { activities: ActivityRow[] }) {
  return (
    <Stack gap="xs">
      <Title order={4}>Custody Activity</Title>
      {activities.length === 0 ? (
        <Text c="dimmed">No activity yet</Text>
      ) : (
        <Timeline active={activities.length - 1} bulletSize={26} lineWidth={2} aria-label="Custody Activity">
          {activities.map((a) => {
            const person = a.invoice_status.name === 'In-Transit' ? (a.assigned_user ?? a.user) : null;
            return (
              <Timeline.Item key={a.id} bullet={statusIcon(a.invoice_status.name)} title={a.invoice_status.name}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(a.created_at)}
                </Text>
                <Text size="sm">{a.description}</Text>
                {a.location ? (
                  <Text size="xs" c="dimmed">
                    {a.location}
                  </Text>
                ) : null}
                {person ? (
                  <Text size="sm" fw={500}>
                    {person.full_name}
                  </Text>
                ) : null}
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Stack>
  );
}
