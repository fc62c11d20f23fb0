import { Badge, Card, Collapse, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { expectedReturnText, routeLabel } from '../../../shared/format.ts';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { DateField } from '../../components/form-fields.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { useSession } from '../../lib/session.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { invoiceQueries, type InvoiceFilters } from './api.ts';
import { formatDate } from './format.ts';
import { InvoiceDetailsModal } from './invoice-details-modal.tsx';
import { RequestInvoiceModal } from './request-invoice-modal.tsx';
import { InvoiceStatusBadge } from './status-badge.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';

const initialFilters: InvoiceFilters = { invoiceType: null, invoiceStatus: null, startDate: null, endDate: null };
const dash = (text: string | null | undefined) => (text ? text : '-');

/**
 * Spec §2 Transactions (/invoices): the invoices the user may see, with Request; the app composes in
 * the Return and Turnover buttons, which belong to the Custody feature.
 */
export function InvoicesPage({ transferActions }: { transferActions: (reload: () => void) => ReactNode }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const { params, setSearch, setFilter, clearFilters, setPage } = useListParams(initialFilters);
  const list = useQuery(invoiceQueries.list({ page: params.page, search: params.search, filters: params.filters }));
  const types = useQuery(invoiceQueries.types());
  const statuses = useQuery(invoiceQueries.statuses());
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [requesting, setRequesting] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const phone = useMediaQuery('(max-width: 48em)');
  const timeZone = list.data?.time_zone ?? 'UTC';
  const reload = () => queryClient.invalidateQueries({ queryKey: invoiceQueries.all });

  const view = (row: InvoiceRow) => (
    <AppButton size="compact-sm" variant="secondary" onClick={() => setViewing(row.id)} aria-label={`View ${row.invoice_type.name} invoice ${row.id}`}>
      VIEW
    </AppButton>
  );
  const expected = (row: InvoiceRow) => expectedReturnText(row.expected_return_date, new Date(), timeZone);

  const columns: Column<InvoiceRow>[] = [
    { key: 'type', header: 'Transaction Type', render: (r) => r.invoice_type.name },
    { key: 'pads', header: 'Pads', render: (r) => r.pads },
    { key: 'route', header: 'Route', wrap: true, render: (r) => routeLabel(r.route) },
    { key: 'by', header: 'By', render: (r) => dash(r.from_branch?.name) },
    { key: 'to', header: 'To', render: (r) => dash(r.branch?.name) },
    { key: 'status', header: 'Status', width: 130, render: (r) => <InvoiceStatusBadge name={r.invoice_status.name} /> },
    { key: 'date', header: 'Date', render: (r) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(r.created_at)}</span> },
    { key: 'expected', header: 'Expected Return', render: expected },
    { key: 'assigned', header: 'Assigned To', render: (r) => dash(r.assigned_to) },
    { key: 'actions', header: 'Actions', render: view },
  ];

  const toolbar = (
    <>
      <SearchInput placeholder="Search by branch name or pad number" onSearch={setSearch} />
      <AppButton variant="secondary" leftSection={<IconFilter size={16} />} onClick={() => setFiltersOpen((o) => !o)} aria-expanded={filtersOpen}>
        Filter
      </AppButton>
    </>
  );

  const filters = (
    <Collapse expanded={filtersOpen}>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Invoice Type"
          placeholder="All types"
          clearable
          data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
          value={params.filters.invoiceType}
          onChange={(value) => setFilter('invoiceType', value)}
          w={{ base: '100%', xs: 180 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Invoice Status"
          placeholder="All statuses"
          clearable
          data={(statuses.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
          value={params.filters.invoiceStatus}
          onChange={(value) => setFilter('invoiceStatus', value)}
          w={{ base: '100%', xs: 180 }}
          comboboxProps={{ withinPortal: true }}
        />
        <DateField
          label="Start Date"
          placeholder="YYYY-MM-DD"
          value={params.filters.startDate}
          maxDate={params.filters.endDate ?? undefined}
          onChange={(value) => setFilter('startDate', value)}
          w={{ base: '100%', xs: 160 }}
        />
        <DateField
          label="End Date"
          placeholder="YYYY-MM-DD"
          value={params.filters.endDate}
          minDate={params.filters.startDate ?? undefined}
          onChange={(value) => setFilter('endDate', value)}
          w={{ base: '100%', xs: 160 }}
        />
        <AppButton variant="secondary" onClick={clearFilters}>
          Clear Filter
        </AppButton>
      </Group>
    </Collapse>
  );

  return (
    <>
      <PageHeader
        title="Transactions"
        actions={
          <>
            {can(session?.user, 'invoice.request') ? <AppButton onClick={() => setRequesting(true)}>Request</AppButton> : null}
            {transferActions(reload)}
          </>
        }
      />
      <ListCard toolbar={toolbar} filters={filters}>
        {phone ? (
          <InvoiceCards rows={list.data?.data} loading={list.isLoading} onView={view} expected={expected} />
        ) : (
          <DataTable columns={columns} rows={list.data?.data} rowKey={(r) => r.id} loading={list.isLoading} emptyText="No invoices" />
        )}
        <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={setPage} />
      </ListCard>
      <RequestInvoiceModal opened={requesting} onClose={() => setRequesting(false)} onCreated={reload} />
      <InvoiceDetailsModal invoiceId={viewing} onClose={() => setViewing(null)} onChanged={reload} />
    </>
  );
}

/** On a phone each invoice is a card with the same ten facts, readable without scrolling sideways. */
function InvoiceCards({
  rows,
  loading,
  onView,
  expected,
}: {
  rows: InvoiceRow[] | undefined;
  loading: boolean;
  onView: (row: InvoiceRow) => ReactNode;
  expected: (row: InvoiceRow) => string;
}) {
  if (!rows) {
    return loading ? (
      <Text c="dimmed" ta="center" py="md" data-testid="table-loader">
        Loading...
      </Text>
    ) : null;
  }
  if (rows.length === 0) {
    return (
      <Text ta="center" c="dimmed" py="md">
        No invoices
      </Text>
    );
  }
  return (
    <Stack gap="sm" role="list" aria-label="Invoices">
      {rows.map((r) => (
        <Card key={r.id} withBorder radius="md" padding="sm" role="listitem">
          <Group justify="space-between" wrap="nowrap" mb={6}>
            <Group gap={6}>
              <Text fw={700}>{r.invoice_type.name}</Text>
              <Badge variant="light" color="gray">
                {r.pads} {r.pads === 1 ? 'pad' : 'pads'}
              </Badge>
            </Group>
            <InvoiceStatusBadge name={r.invoice_status.name} />
          </Group>
          <SimpleGrid cols={2} spacing={4} verticalSpacing={2}>
            <LabelledValue label="By" value={dash(r.from_branch?.name)} />
            <LabelledValue label="To" value={dash(r.branch?.name)} />
            <LabelledValue label="Date" value={formatDate(r.created_at)} />
            <LabelledValue label="Expected Return" value={expected(r)} />
            <LabelledValue label="Assigned To" value={dash(r.assigned_to)} />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={4} lineClamp={2}>
            Route: {routeLabel(r.route)}
          </Text>
          <Group justify="flex-end" mt="xs">
            {onView(r)}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
