import type { Route, RouteInput } from '../../../shared/schemas/routes.ts';
import { api, type Paginated } from '../../lib/api.ts';

export const routeApi = {
  page: (params: { page: number; search: string }) => api.get<Paginated<Route>>('get-routes-with-search', params),
  create: (input: RouteInput) => api.post<{ message: string; data: Route }>('add-route', input),
  update: (id: number, input: RouteInput) => api.put<{ message: string; data: Route }>(`update-route/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-route/${id}`),
};
