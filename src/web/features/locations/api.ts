import type { Location, LocationInput } from '../../../shared/schemas/locations.ts';
import { api, type Paginated } from '../../lib/api.ts';

export const locationApi = {
  page: (params: { page: number; search: string }) => api.get<Paginated<Location>>('get-locations-with-search', params),
  create: (input: LocationInput) => api.post<{ message: string; data: Location }>('add-location', input),
  update: (id: number, input: LocationInput) => api.put<{ message: string; data: Location }>(`update-location/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-location/${id}`),
};
