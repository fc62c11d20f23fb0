import { Collapse } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import type { Column, TableSort } from '../../components/data-table.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { FilterToggle } from '../../components/filter-toggle.tsx';
import { InvoiceCards } from '../../components/invoice/invoice-cards.tsx';
import { invoiceColumns } from '../../components/invoice/invoice-columns.tsx';
import { ListBody } from '../../components/list-body.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { MountOnceOpened } from '../../components/mount-once-opened.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { SortSelect } from '../../components/sort-select.tsx';
import { useSession } from '../../lib/session.ts';
import { SEARCH_HINTS } from '../../lib/search-hints.ts';
import { useListParams, type ListParams } from '../../lib/use-list-params.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { invoiceListFile, invoiceListQueries, type InvoiceFilters } from './api.ts';
import { usePhone } from '../../lib/use-media.ts';

const RequestInvoiceModal = lazy(() => import('./request-invoice-modal.tsx').then((m) => ({ default: m.RequestInvoiceModal })));
const InvoiceDetailsModal = lazy(() => import('./invoice-details-modal.tsx').then((m) => ({ default: m.InvoiceDetailsModal })));
const InvoiceFilterFields = lazy(() => import('./invoice-filter-fields.tsx').then((m) => ({ default: m.InvoiceFilterFields })));

const initialFilters: InvoiceFilters = { invoiceType: null, invoiceStatus: null, startDate: null, endDate: null };

/**
 * docs/spec.md §2 Transactions (/invoices): the invoices the user may see, with Request; the app composes in
 * the Return and Turnover buttons, which belong to the Custody feature. The list's answer is read by `InvoiceList`
 * alone, so an arriving page redraws the rows and the pager, not the header and the toolbar.
 */
export function InvoicesPage({ transferActions }: { transferActions: ReactNode }) {
  const session = useSession();
  const { params, setSearch, setFilter, clearFilters, setPage, setPerPage, setSort, fitPage } = useListParams(initialFilters);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const requesting = useUrlModal('request');
  const viewing = useUrlModal('invoice');
  const phone = usePhone();

  const view = (row: InvoiceRow) => (
    <AppButton
      size="compact-sm"
      variant="secondary"
      onClick={() => viewing.open(row.id)}
      aria-label={`View ${row.invoice_type.name} invoice ${row.id}`}
    >
      VIEW
    </AppButton>
  );
  const columns = (timeZone: string): Column<InvoiceRow>[] => [
    ...invoiceColumns(timeZone, 'Transaction Type', true),
    { key: 'actions', header: 'Actions', render: view },
  ];
  const sort: TableSort = { by: params.sort, order: params.order, onChange: setSort };

  const toolbar = (
    <>
      <SearchInput
        placeholder="Search by branch name or pad number"
        onSearch={setSearch}
        initial={params.search}
        hint={SEARCH_HINTS.invoices}
      />
      {phone ? <SortSelect columns={columns('UTC')} sort={sort} /> : null}
      <FilterToggle open={filtersOpen} onToggle={() => setFiltersOpen((o) => !o)} />
      <ExportButton fileBase="Transactions" download={(format) => invoiceListFile(params, format)} />
    </>
  );

  const filters = (
    <Collapse expanded={filtersOpen}>
      <MountOnceOpened when={filtersOpen}>
        <InvoiceFilterFields filters={params.filters} setFilter={setFilter} clearFilters={clearFilters} />
      </MountOnceOpened>
    </Collapse>
  );

  return (
    <>
      <PageHeader
        title="Transactions"
        actions={
          <>
            {can(session?.user, 'invoice.request') ? <AppButton onClick={() => requesting.open(1)}>Request</AppButton> : null}
            {transferActions}
          </>
        }
      />
      <InvoiceList
        params={params}
        toolbar={toolbar}
        filters={filters}
        columns={columns}
        view={view}
        sort={sort}
        pager={{ setPage, setPerPage, fitPage }}
      />
      <MountOnceOpened when={requesting.id !== null}>
        <RequestInvoiceModal opened={requesting.id !== null} onClose={requesting.close} />
      </MountOnceOpened>
      <MountOnceOpened when={viewing.id !== null}>
        <InvoiceDetailsModal invoiceId={viewing.id} onClose={viewing.close} />
      </MountOnceOpened>
    </>
  );
}

/**
 * The list card: the one reader of the list's answer, with the rows (cards on a phone) and the pager. TanStack Query hands
 * each answer to React through useSyncExternalStore, which React always renders in one synchronous pass: a page of cards
 * drawn that way held a throttled phone's main thread for 400–600 ms. The card draws the deferred answer instead, in a
 * transition that yields between rows, and the synchronous pass stops at this component (the memo below).
 */
function InvoiceList({
  params,
  toolbar,
  filters,
  columns,
  view,
  sort,
  pager,
}: {
  params: ListParams<InvoiceFilters>;
  toolbar: ReactNode;
  filters: ReactNode;
  columns: (timeZone: string) => Column<InvoiceRow>[];
  view: (row: InvoiceRow) => ReactNode;
  sort: TableSort;
  pager: { setPage: (page: number) => void; setPerPage: (perPage: number) => void; fitPage: (lastPage: number) => void };
}) {
  const list = useDeferredValue(useQuery(invoiceListQueries.list(params)));
  const timeZone = list.data?.time_zone ?? 'UTC';
  return useMemo(
    () => (
      <ListCard toolbar={toolbar} filters={filters} query={list}>
        <ListBody
          query={list}
          paging={{ page: params.page, perPage: params.perPage, ...pager }}
          cards={(rows, loading) => (
            <InvoiceCards
              rows={rows}
              loading={loading}
              emptyText="No invoices"
              label="Invoices"
              timeZone={timeZone}
              showExpectedReturn
              actions={view}
            />
          )}
          table={{ columns: columns(timeZone), rowKey: (r) => r.id, emptyText: 'No invoices', sort }}
        />
      </ListCard>
    ),
    [list, timeZone, toolbar, filters, params.page, params.perPage, pager, view, columns, sort],
  );
}
