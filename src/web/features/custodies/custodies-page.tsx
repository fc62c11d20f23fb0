import { Badge, Card, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { routeLabel } from '../../../shared/format.ts';
import { CUSTODY_MSG } from '../../../shared/messages.ts';
import type { CustodyInvoice } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { useListParams } from '../../lib/use-list-params.ts';
import { custodyQueries } from './api.ts';
import { CustodyDetailsModal } from './custody-details-modal.tsx';
import { formatDate } from './format.ts';
import { StatusBadge } from './status-badge.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';

const initialFilters = { invoiceType: null as string | null };
const byBranch = (row: CustodyInvoice) => row.from_branch?.name ?? row.user.branch?.name ?? '-';

/** Spec §2 Custodies: the in-transit invoices the user may see, with hand-over from the details view. */
export function CustodiesPage() {
  const { params, setSearch, setFilter, setPage } = useListParams(initialFilters);
  const list = useQuery(custodyQueries.inTransit({ page: params.page, search: params.search, invoiceType: params.filters.invoiceType }));
  const types = useQuery(custodyQueries.invoiceTypes());
  const [viewing, setViewing] = useState<number | null>(null);
  const phone = useMediaQuery('(max-width: 48em)');

  const view = (row: CustodyInvoice) => (
    <AppButton size="compact-sm" variant="secondary" onClick={() => setViewing(row.id)} aria-label={`View ${row.invoice_type.name} custody ${row.id}`}>
      VIEW
    </AppButton>
  );

  const columns: Column<CustodyInvoice>[] = [
    { key: 'type', header: 'Invoice Type', render: (r) => r.invoice_type.name },
    { key: 'pads', header: 'Pads', render: (r) => r.pads },
    { key: 'route', header: 'Route', wrap: true, render: (r) => (r.route ? routeLabel(r.route) : 'Mixed routes') },
    { key: 'by', header: 'By', render: byBranch },
    { key: 'to', header: 'To', render: (r) => r.branch?.name ?? '-' },
    { key: 'status', header: 'Status', render: (r) => <StatusBadge name={r.invoice_status.name} /> },
    { key: 'date', header: 'Date', render: (r) => formatDate(r.created_at) },
    { key: 'assigned', header: 'Assigned To', render: (r) => r.assigned_to ?? '-' },
    { key: 'actions', header: 'Actions', render: view },
  ];

  return (
    <>
      <PageHeader title="Custodies" />
      <ListCard
        toolbar={
          <>
            <SearchInput placeholder="Search by branch name or pad number" onSearch={setSearch} />
            <Select
              label="Invoice Type"
              placeholder="All types"
              clearable
              data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
              value={params.filters.invoiceType}
              onChange={(value) => setFilter('invoiceType', value)}
              w={{ base: '100%', xs: 200 }}
              comboboxProps={{ withinPortal: true }}
            />
          </>
        }
      >
        {phone ? (
          <CustodyCards rows={list.data?.data} loading={list.isLoading} onView={view} />
        ) : (
          <DataTable columns={columns} rows={list.data?.data} rowKey={(r) => r.id} loading={list.isLoading} emptyText={CUSTODY_MSG.noCustodies} />
        )}
        <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={setPage} />
      </ListCard>
      <CustodyDetailsModal invoiceId={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

/** On a phone each custody is a card a courier can read without scrolling sideways. */
function CustodyCards({ rows, loading, onView }: { rows: CustodyInvoice[] | undefined; loading: boolean; onView: (row: CustodyInvoice) => ReactNode }) {
  if (!rows) return loading ? <Text c="dimmed" ta="center" py="md" data-testid="table-loader">Loading...</Text> : null;
  if (rows.length === 0) {
    return (
      <Text ta="center" c="dimmed" py="md">
        {CUSTODY_MSG.noCustodies}
      </Text>
    );
  }
  return (
    <Stack gap="sm" role="list" aria-label="Custodies">
      {rows.map((r) => (
        <Card key={r.id} withBorder radius="md" padding="sm" role="listitem">
          <Group justify="space-between" wrap="nowrap" mb={6}>
            <Group gap={6}>
              <Text fw={700}>{r.invoice_type.name}</Text>
              <Badge variant="light" color="gray">
                {r.pads} {r.pads === 1 ? 'pad' : 'pads'}
              </Badge>
            </Group>
            <StatusBadge name={r.invoice_status.name} />
          </Group>
          <SimpleGrid cols={2} spacing={4} verticalSpacing={2}>
            <LabelledValue label="By" value={byBranch(r)} />
            <LabelledValue label="To" value={r.branch?.name ?? '-'} />
            <LabelledValue label="Assigned To" value={r.assigned_to ?? '-'} />
            <LabelledValue label="Date" value={formatDate(r.created_at)} />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={4} lineClamp={2}>
            Route: {r.route ? routeLabel(r.route) : 'Mixed routes'}
          </Text>
          <Group justify="flex-end" mt="xs">
            {onView(r)}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
