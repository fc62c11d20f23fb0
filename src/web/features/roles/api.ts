import type { Role, RoleInput } from '../../../shared/schemas/roles.ts';
import { api, type Paginated } from '../../lib/api.ts';

export const roleApi = {
  page: (params: { page: number; search: string }) => api.get<Paginated<Role>>('get-roles-with-search', params),
  create: (input: RoleInput) => api.post<{ message: string; data: Role }>('add-role', input),
  update: (id: number, input: RoleInput) => api.put<{ message: string; data: Role }>(`update-role/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-role/${id}`),
};
