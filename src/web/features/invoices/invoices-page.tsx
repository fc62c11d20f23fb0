import { Collapse } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, useState, type ReactNode } from 'react';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column, type TableSort } from '../../components/data-table.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { InvoiceCards } from '../../components/invoice/invoice-cards.tsx';
import { invoiceColumns } from '../../components/invoice/invoice-columns.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { MountOnceOpened } from '../../components/mount-once-opened.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Pager } from '../../components/pager.tsx';
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
      <AppButton
        variant="secondary"
        leftSection={<IconFilter size={16} />}
        onClick={() => setFiltersOpen((o) => !o)}
        aria-expanded={filtersOpen}
      >
        Filter
      </AppButton>
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
        phone={phone}
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

/** The list card: the one reader of the list's answer, with the rows (cards on a phone) and the pager. */
function InvoiceList({
  params,
  toolbar,
  filters,
  phone,
  columns,
  view,
  sort,
  pager,
}: {
  params: ListParams<InvoiceFilters>;
  toolbar: ReactNode;
  filters: ReactNode;
  phone: boolean;
  columns: (timeZone: string) => Column<InvoiceRow>[];
  view: (row: InvoiceRow) => ReactNode;
  sort: TableSort;
  pager: { setPage: (page: number) => void; setPerPage: (perPage: number) => void; fitPage: (lastPage: number) => void };
}) {
  const list = useQuery(invoiceListQueries.list(params));
  const timeZone = list.data?.time_zone ?? 'UTC';
  return (
    <ListCard toolbar={toolbar} filters={filters} query={list}>
      {phone ? (
        <InvoiceCards
          rows={list.data?.data}
          loading={list.isLoading}
          emptyText="No invoices"
          label="Invoices"
          timeZone={timeZone}
          showExpectedReturn
          actions={view}
        />
      ) : (
        <DataTable
          columns={columns(timeZone)}
          rows={list.data?.data}
          rowKey={(r) => r.id}
          loading={list.isLoading}
          emptyText="No invoices"
          sort={sort}
        />
      )}
      <Pager
        page={params.page}
        lastPage={list.data?.last_page ?? 1}
        onChange={pager.setPage}
        total={list.data?.total}
        totalCapped={list.data?.total_capped}
        perPage={params.perPage}
        onPerPageChange={pager.setPerPage}
        onOutOfRange={pager.fitPage}
      />
    </ListCard>
  );
}
