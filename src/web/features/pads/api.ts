import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { GeneratedPads, Pad } from '../../../shared/schemas/pads.ts';
import type { Route } from '../../../shared/schemas/routes.ts';
import { api, type Paginated } from '../../lib/api.ts';

export interface PadListParams {
  page: number;
  search: string;
  route: string | null;
}

export interface PadChanges {
  number: number;
  pad_status_id: number;
  issuance_status_id: number;
  remarks: string | null;
  series: Pad['series'];
}

const lookup = (path: string) =>
  queryOptions({ queryKey: ['lookup', path], queryFn: () => api.get<{ data: NamedRef[] }>(path).then((r) => r.data), staleTime: 300_000 });

export const padQueries = {
  all: ['pads'] as const,
  list: (params: PadListParams) =>
    queryOptions({
      queryKey: ['pads', 'list', params],
      queryFn: () => api.get<Paginated<Pad>>('get-pads', { page: params.page, search: params.search, route: params.route }),
      placeholderData: keepPreviousData,
    }),
  routes: () => queryOptions({ queryKey: ['routes', 'all'], queryFn: () => api.get<{ data: Route[] }>('get-routes').then((r) => r.data), staleTime: 60_000 }),
  padStatuses: () => lookup('pad-statuses'),
  issuanceStatuses: () => lookup('issuance-statuses'),
};

export const padApi = {
  generate: (input: { route_id: number; series_from: number; series_to: number; user_id?: number }) =>
    api.post<{ message: string; data: GeneratedPads }>('add-pad', input),
  update: (id: number, input: PadChanges) => api.put<{ message: string; data: Pad }>(`update-pad/${id}`, input),
};
