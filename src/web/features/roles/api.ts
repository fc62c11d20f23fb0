import type { Role, RoleInput } from '../../../shared/schemas/roles.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { api, type Paginated } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export const roleApi = {
  page: ({ perPage, sort, order, ...params }: ListView & { page: number; search: string }) =>
    api.get<Paginated<Role>>('get-roles-with-search', { ...params, ...viewParams({ perPage, sort, order }) }),
  create: (input: RoleInput) => api.post<{ message: string; data: Role }>('add-role', input),
  update: (id: number, input: RoleInput) => api.put<{ message: string; data: Role }>(`update-role/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-role/${id}`),
};

/** Where the list is cached; a save or delete makes stale the roles list, the role selects, and the Users list that names each user's role. */
export const roleCache = {
  list: (args: ListArgs) => queryKeys.rolesPage.of(args),
  changes: [queryKeys.rolesPage.all, queryKeys.roles.all, queryKeys.users.all],
};
