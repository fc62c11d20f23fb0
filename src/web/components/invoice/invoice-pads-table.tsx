import { Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { routeLabel, seriesRange } from '../../../shared/format.ts';
import type { InvoicePad } from '../../../shared/schemas/invoices.ts';
import { invoiceQueries } from '../../lib/invoice-queries.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { DataTable, type Column } from '../data-table.tsx';
import { PadCards } from '../pad-cards.tsx';
import { Pager } from '../pager.tsx';
import { SearchInput } from '../search-input.tsx';
import { usePhone } from '../../lib/use-media.ts';

const noFilters = {};

const columns: Column<InvoicePad>[] = [
  { key: 'number', header: 'Pad Number', render: (p) => p.number },
  {
    key: 'series',
    header: 'Series Number',
    render: (p) => seriesRange(p.series_from, p.series_to),
  },
  { key: 'route', header: 'Route', wrap: true, minWidth: 150, render: (p) => routeLabel(p.route) },
  { key: 'status', header: 'Pad Status', render: (p) => p.pad_status.name },
  { key: 'issuance', header: 'Issuance Status', render: (p) => p.issuance_status.name },
  { key: 'remarks', header: 'Remarks', wrap: true, minWidth: 120, render: (p) => p.remarks || '-' },
];

/** The pads an invoice carries, searchable and paged (docs/spec.md §2 view modals). */
export function InvoicePadsTable({ invoiceId }: { invoiceId: number }) {
  const { params, setSearch, setPage } = useListParams(noFilters, { inUrl: false });
  const pads = useQuery(invoiceQueries.pads(invoiceId, { page: params.page, search: params.search }));
  const phone = usePhone();
  return (
    <Stack gap="xs">
      <Text fw={600}>Pads</Text>
      <Group>
        <SearchInput placeholder="Search by pad number" onSearch={setSearch} />
      </Group>
      {phone ? (
        <PadCards rows={pads.data?.data} loading={pads.isLoading} emptyText="No pads" label="Invoice pads" />
      ) : (
        <DataTable
          columns={columns}
          rows={pads.data?.data}
          rowKey={(p) => p.id}
          loading={pads.isLoading}
          emptyText="No pads"
          label="Invoice pads"
        />
      )}
      <Pager page={params.page} lastPage={pads.data?.last_page ?? 1} onChange={setPage} />
    </Stack>
  );
}
