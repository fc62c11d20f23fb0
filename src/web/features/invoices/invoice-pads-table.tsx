import { Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { abbreviateSeries, routeLabel } from '../../../shared/format.ts';
import type { InvoicePadLink } from '../../../shared/schemas/invoices.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { useListParams } from '../../lib/use-list-params.ts';
import { invoiceQueries } from './api.ts';

const noFilters = {};

/** The pads an invoice carries, searchable and paged (spec §2 view modal, types Issued, Return and Turnover). */
export function InvoicePadsTable({ invoiceId }: { invoiceId: number }) {
  const { params, setSearch, setPage } = useListParams(noFilters);
  const pads = useQuery(invoiceQueries.pads(invoiceId, { page: params.page, search: params.search }));
  const columns: Column<InvoicePadLink>[] = [
    { key: 'number', header: 'Pad Number', render: (r) => r.pad.number },
    {
      key: 'series',
      header: 'Series Number',
      render: (r) => (
        <span title={r.pad.series_number}>
          {abbreviateSeries(r.pad.series_from)} - {abbreviateSeries(r.pad.series_to)}
        </span>
      ),
    },
    { key: 'route', header: 'Route', wrap: true, render: (r) => routeLabel(r.pad.route) },
    { key: 'status', header: 'Pad Status', render: (r) => r.pad.pad_status.name },
    { key: 'issuance', header: 'Issuance Status', render: (r) => r.pad.issuance_status.name },
    { key: 'remarks', header: 'Remarks', render: (r) => r.pad.remarks || '-' },
  ];
  return (
    <Stack gap="xs">
      <Text fw={600}>Pads</Text>
      <Group>
        <SearchInput placeholder="Search by pad number" onSearch={setSearch} />
      </Group>
      <DataTable columns={columns} rows={pads.data?.data} rowKey={(r) => r.pad_id} loading={pads.isLoading} emptyText="No pads" />
      <Pager page={params.page} lastPage={pads.data?.last_page ?? 1} onChange={setPage} />
    </Stack>
  );
}
