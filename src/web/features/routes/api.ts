import type { ExportFormat } from '../../../shared/schemas/common.ts';
import type { Route, RouteInput } from '../../../shared/schemas/routes.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { api, type Paginated } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export const routeApi = {
  page: ({ perPage, sort, order, ...params }: ListView & { page: number; search: string }) =>
    api.get<Paginated<Route>>('get-routes-with-search', { ...params, ...viewParams({ perPage, sort, order }) }),
  /** Every row matching the list's search and filter, as a file (docs/design.md §10). */
  file: ({ perPage, sort, order, ...params }: ListView & { search: string }, format: ExportFormat) =>
    api.file('get-routes-with-search', { ...params, ...viewParams({ perPage, sort, order }), per_page: undefined, format }),
  create: (input: RouteInput) => api.post<{ message: string; data: Route }>('add-route', input),
  update: (id: number, input: RouteInput) => api.put<{ message: string; data: Route }>(`update-route/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-route/${id}`),
};

/** Where the list is cached; a save or delete makes stale the routes list and the route selects. */
export const routeCache = {
  list: (args: ListArgs) => queryKeys.routesPage.of(args),
  changes: [queryKeys.routesPage.all, queryKeys.routes.all],
};
