import type { ExportFormat } from '../../../shared/schemas/common.ts';
import type { Location, LocationInput } from '../../../shared/schemas/locations.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { api, type Paginated } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export const locationApi = {
  page: ({ perPage, sort, order, ...params }: ListView & { page: number; search: string }) =>
    api.get<Paginated<Location>>('get-locations-with-search', { ...params, ...viewParams({ perPage, sort, order }) }),
  /** Every row matching the list's search and filter, as a file (docs/design.md §10). */
  file: ({ perPage, sort, order, ...params }: ListView & { search: string }, format: ExportFormat) =>
    api.file('get-locations-with-search', { ...params, ...viewParams({ perPage, sort, order }), per_page: undefined, format }),
  create: (input: LocationInput) => api.post<{ message: string; data: Location }>('add-location', input),
  update: (id: number, input: LocationInput) => api.put<{ message: string; data: Location }>(`update-location/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-location/${id}`),
};

/** Where the list is cached; a save or delete makes stale the locations list and select, and the branches that show their location. */
export const locationCache = {
  list: (args: ListArgs) => queryKeys.locationsPage.of(args),
  changes: [queryKeys.locationsPage.all, queryKeys.locations.all, queryKeys.branchesPage.all],
};
