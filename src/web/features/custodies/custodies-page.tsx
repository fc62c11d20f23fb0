import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CUSTODY_MSG } from '../../../shared/schemas/custodies.ts';
import type { InvoiceDetail, InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import type { Column, TableSort } from '../../components/data-table.tsx';
import { ListBody } from '../../components/list-body.tsx';
import { InvoiceCards } from '../../components/invoice/invoice-cards.tsx';
import { invoiceColumns } from '../../components/invoice/invoice-columns.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { SortSelect } from '../../components/sort-select.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { SEARCH_HINTS } from '../../lib/search-hints.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { custodyQueries, inTransitFile } from './api.ts';
import { couriersQuery } from '../../components/qr-scanner/assignee-field.tsx';
import { QueuedActions } from '../../components/queued-actions.tsx';
import { CustodyDetailsModal } from './custody-details-modal.tsx';
import { PendingHandOvers } from './pending-hand-overs.tsx';
import { usePhone } from '../../lib/use-media.ts';

const initialFilters: { invoiceType: string | null } = { invoiceType: null };

/**
 * docs/spec.md §2 Custodies: the in-transit invoices the user may see, with hand-over (and the app's Accept and Report a loss)
 * from the details view.
 */
export function CustodiesPage({
  acceptAction,
  lossAction,
}: {
  acceptAction?: (invoice: InvoiceDetail) => ReactNode;
  lossAction?: (invoice: InvoiceDetail) => ReactNode;
}) {
  const { params, setSearch, setFilter, setPage, setPerPage, setSort, fitPage } = useListParams(initialFilters);
  const list = useQuery(custodyQueries.inTransit({ ...params, invoiceType: params.filters.invoiceType }));
  const types = useQuery(lookupQueries.invoiceTypes());
  /* docs/design.md §2 offline: the couriers to hand to are saved with the list, so a hand-over can be picked at the pier. */
  useQuery({ ...couriersQuery(), enabled: (list.data?.total ?? 0) > 0 });
  const viewing = useUrlModal('custody');
  const phone = usePhone();
  const timeZone = list.data?.time_zone ?? 'UTC';

  const view = (row: InvoiceRow) => (
    <AppButton
      size="compact-sm"
      variant="secondary"
      onClick={() => viewing.open(row.id)}
      aria-label={`View ${row.invoice_type.name} custody ${row.id}`}
    >
      VIEW
    </AppButton>
  );
  const columns: Column<InvoiceRow>[] = [
    ...invoiceColumns(timeZone, 'Invoice Type', false),
    { key: 'actions', header: 'Actions', render: view },
  ];
  const sort: TableSort = { by: params.sort, order: params.order, onChange: setSort };

  return (
    <>
      <PageHeader title="Custodies" />
      <PendingHandOvers />
      <QueuedActions />
      <ListCard
        query={list}
        toolbar={
          <>
            <SearchInput
              placeholder="Search by branch name or pad number"
              onSearch={setSearch}
              initial={params.search}
              hint={SEARCH_HINTS.invoices}
            />
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
            {phone ? <SortSelect columns={columns} sort={sort} /> : null}
            <ExportButton
              fileBase="Custodies"
              download={(format) => inTransitFile({ ...params, invoiceType: params.filters.invoiceType }, format)}
            />
          </>
        }
      >
        <ListBody
          query={list}
          paging={{ page: params.page, perPage: params.perPage, setPage, setPerPage, fitPage }}
          cards={(rows, loading) => (
            <InvoiceCards
              rows={rows}
              loading={loading}
              emptyText={CUSTODY_MSG.noCustodies}
              label="Custodies"
              timeZone={timeZone}
              showExpectedReturn={false}
              actions={view}
            />
          )}
          table={{ columns, rowKey: (r) => r.id, emptyText: CUSTODY_MSG.noCustodies, sort }}
        />
      </ListCard>
      <CustodyDetailsModal invoiceId={viewing.id} onClose={viewing.close} acceptAction={acceptAction} lossAction={lossAction} />
    </>
  );
}
