import type { ReactNode } from 'react';
import type { Paginated } from '../../shared/schemas/common.ts';
import { usePhone } from '../lib/use-media.ts';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { Pager } from './pager.tsx';

/** Where a list stands and how it moves: its page and page size and the setters of useListParams. */
export interface ListPaging {
  page: number;
  perPage: number;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
  fitPage: (lastPage: number) => void;
}

/**
 * The rows of a list screen and its pager: on a phone the screen's cards, so nothing scrolls sideways; on a desk the
 * table. Every paged list shows its rows through it, so the two layouts and the pager cannot drift apart.
 */
export function ListBody<Row>({
  query,
  paging,
  cards,
  table,
}: {
  query: { data?: Paginated<Row>; isLoading: boolean };
  paging: ListPaging;
  /** The phone's cards of this page's rows (undefined while the first page loads). */
  cards: (rows: Row[] | undefined, loading: boolean) => ReactNode;
  table: Omit<DataTableProps<Row>, 'rows' | 'loading'>;
}) {
  const phone = usePhone();
  const rows = query.data?.data;
  return (
    <>
      {phone ? cards(rows, query.isLoading) : <DataTable {...table} rows={rows} loading={query.isLoading} />}
      <Pager
        page={paging.page}
        lastPage={query.data?.last_page ?? 1}
        onChange={paging.setPage}
        total={query.data?.total}
        totalCapped={query.data?.total_capped}
        totalIsEstimate={query.data?.total_is_estimate}
        perPage={paging.perPage}
        onPerPageChange={paging.setPerPage}
        onOutOfRange={paging.fitPage}
      />
    </>
  );
}
