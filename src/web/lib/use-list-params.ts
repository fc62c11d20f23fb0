import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZES } from '../../shared/lookups.ts';
import type { SortOrder } from '../../shared/schemas/common.ts';
import { currentSearchParams } from './current-search-params.ts';

export const DEFAULT_PAGE_SIZE = 10;

export interface ListParams<F extends Record<string, string | null>> {
  page: number;
  /** Rows per page: one of PAGE_SIZES, the spec's 10 unless chosen. */
  perPage: number;
  search: string;
  /** The column key the list is sorted by; null keeps the server's default order. */
  sort: string | null;
  order: SortOrder;
  filters: F;
}

/** A list's page size and sort as its query takes them; left out, the server's defaults. */
export interface ListView {
  perPage?: number;
  sort?: string | null;
  order?: SortOrder;
}

/** What a list query sends besides its own filters: the page size and the sort, left out when they are the defaults. */
export const viewParams = (p: ListView) => ({
  per_page: p.perPage === DEFAULT_PAGE_SIZE ? undefined : p.perPage,
  sort: p.sort ?? undefined,
  order: p.sort ? p.order : undefined,
});

const CORE = ['page', 'per_page', 'search', 'sort', 'order'];

function fromUrl<F extends Record<string, string | null>>(url: URLSearchParams, initialFilters: F): ListParams<F> {
  const page = Number(url.get('page'));
  const perPage = Number(url.get('per_page'));
  const filters = { ...initialFilters };
  // -- the keys of an F are F's keys; filters are strings or null (F's values), read back from the URL as strings.
  for (const key of Object.keys(initialFilters) as Array<keyof F>) {
    const value = url.get(String(key));
    if (value) filters[key] = value as F[keyof F];
  }
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    perPage: PAGE_SIZES.some((size) => size === perPage) ? perPage : DEFAULT_PAGE_SIZE,
    search: url.get('search') ?? '',
    sort: url.get('sort') || null,
    order: url.get('order') === 'desc' ? 'desc' : 'asc',
    filters,
  };
}

/** The params as URL entries; defaults are left out so a plain screen keeps a plain address. */
function toUrl<F extends Record<string, string | null>>(current: URLSearchParams, p: ListParams<F>): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of [...CORE, ...Object.keys(p.filters)]) next.delete(key);
  if (p.page > 1) next.set('page', String(p.page));
  if (p.perPage !== DEFAULT_PAGE_SIZE) next.set('per_page', String(p.perPage));
  if (p.search) next.set('search', p.search);
  if (p.sort) {
    next.set('sort', p.sort);
    next.set('order', p.order);
  }
  for (const [key, value] of Object.entries(p.filters)) if (value) next.set(key, value);
  return next;
}

/**
 * docs/spec.md §4 list behaviour in one place: a search, filter, sort or page-size change goes back to page 1,
 * a page change keeps the rest. A screen's list keeps its params in the address (docs/user-guide.md "Screens"), so Back,
 * Reload and a shared link restore them; a list inside a modal passes `{ inUrl: false }` and keeps them
 * in memory. Use the returned `params` in the queryKey of the list query.
 */
export function useListParams<F extends Record<string, string | null>>(initialFilters: F, options: { inUrl?: boolean } = {}) {
  const inUrl = options.inUrl ?? true;
  const [url, setUrl] = useSearchParams();
  const [local, setLocal] = useState<ListParams<F>>({
    page: 1,
    perPage: DEFAULT_PAGE_SIZE,
    search: '',
    sort: null,
    order: 'asc',
    filters: initialFilters,
  });
  const fromAddress = useMemo(() => fromUrl(url, initialFilters), [url, initialFilters]);
  const params = inUrl ? fromAddress : local;

  /** Typing in search replaces the history entry; every other change is a step Back can undo. */
  const update = useCallback(
    (change: (p: ListParams<F>) => ListParams<F>, replace = false) => {
      if (!inUrl) {
        setLocal(change);
        return;
      }
      const current = currentSearchParams();
      setUrl(toUrl(current, change(fromUrl(current, initialFilters))), { replace });
    },
    [inUrl, setUrl, initialFilters],
  );

  const setSearch = useCallback((search: string) => update((p) => (p.search === search ? p : { ...p, search, page: 1 }), true), [update]);
  const setFilter = useCallback(
    <K extends keyof F>(key: K, value: F[K]) => update((p) => ({ ...p, filters: { ...p.filters, [key]: value }, page: 1 })),
    [update],
  );
  const clearFilters = useCallback(() => update((p) => ({ ...p, filters: initialFilters, page: 1 })), [update, initialFilters]);
  const setPage = useCallback((page: number) => update((p) => ({ ...p, page })), [update]);
  const setPerPage = useCallback((perPage: number) => update((p) => ({ ...p, perPage, page: 1 })), [update]);
  const setSort = useCallback((sort: string | null, order: SortOrder) => update((p) => ({ ...p, sort, order, page: 1 })), [update]);
  /** A page past the end (an old link, rows gone) becomes the last page in place, so Back never lands on it again. */
  const fitPage = useCallback((lastPage: number) => update((p) => (p.page > lastPage ? { ...p, page: lastPage } : p), true), [update]);
  return { params, setSearch, setFilter, clearFilters, setPage, setPerPage, setSort, fitPage };
}
