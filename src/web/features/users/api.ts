import type { ExportFormat } from '../../../shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, CreateUserInput, UpdateUserInput } from '../../../shared/schemas/users.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

type Saved = { message: string; data: AdminUser };

export const userApi = {
  page: ({ perPage, sort, order, ...params }: ListView & { page: number; search: string; role: string | null }) =>
    api.get<Paginated<AdminUser>>('get-users', { ...params, ...viewParams({ perPage, sort, order }) }),
  /** Every row matching the list's search and filter, as a file (docs/design.md §10). */
  file: ({ perPage, sort, order, ...params }: ListView & { search: string; role: string | null }, format: ExportFormat) =>
    api.file('get-users', { ...params, ...viewParams({ perPage, sort, order }), per_page: undefined, format }),
  create: (input: CreateUserInput) => api.post<Saved>('add-user', input),
  update: (id: number, input: UpdateUserInput) => api.put<Saved>(`update-user/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-user/${id}`),
};

/** Mails the user a reset link; nothing shown in a list changes. */
export const useResetUserPassword = () =>
  useMutation({ mutationFn: (id: number) => api.post<{ message: string }>('reset-user-password', { user_id: id }) });

/** A short-lived address of the user's printable badge card, opened in a new tab; nothing cached changes. */
export const useBadgeCard = () => useMutation({ mutationFn: (id: number) => api.get<{ data: { url: string } }>(`user-badge/${id}`) });

/** (De)activates a user: the Users list shows the new status and the courier selects drop or regain them. */
export function useToggleUserActivation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<Saved>(`toggle-user-activation/${id}`),
    onSuccess: () => invalidate(queryClient, userCache.changes),
  });
}

/** Where the list is cached; a save or delete makes stale the users list and the couriers the Assign to selects offer. */
export const userCache = { list: (args: ListArgs) => queryKeys.users.of(args), changes: [queryKeys.users.all, queryKeys.couriers.all] };
