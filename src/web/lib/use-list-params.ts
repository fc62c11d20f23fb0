import { useCallback, useState } from 'react';

export interface ListParams<F extends Record<string, string | null>> {
  page: number;
  search: string;
  filters: F;
}

/**
 * Spec §4 list behaviour in one place: a search or filter change goes back to page 1, a page change
 * keeps the search and filters. Use the returned `params` in the queryKey of the list query.
 */
export function useListParams<F extends Record<string, string | null>>(initialFilters: F) {
  const [params, setParams] = useState<ListParams<F>>({ page: 1, search: '', filters: initialFilters });
  const setSearch = useCallback((search: string) => setParams((p) => ({ ...p, search, page: 1 })), []);
  const setFilter = useCallback(<K extends keyof F>(key: K, value: F[K]) => setParams((p) => ({ ...p, filters: { ...p.filters, [key]: value }, page: 1 })), []);
  const clearFilters = useCallback(() => setParams((p) => ({ ...p, filters: initialFilters, page: 1 })), [initialFilters]);
  const setPage = useCallback((page: number) => setParams((p) => ({ ...p, page })), []);
  return { params, setSearch, setFilter, clearFilters, setPage };
}
