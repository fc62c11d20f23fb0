import type { AdminUser, CreateUserInput, UpdateUserInput } from '../../../shared/schemas/users.ts';
import { api, type Paginated } from '../../lib/api.ts';

type Saved = { message: string; data: AdminUser };

export const userApi = {
  page: (params: { page: number; search: string; role: string | null }) => api.get<Paginated<AdminUser>>('get-users', params),
  create: (input: CreateUserInput) => api.post<Saved>('add-user', input),
  update: (id: number, input: UpdateUserInput) => api.put<Saved>(`update-user/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-user/${id}`),
  resetPassword: (id: number) => api.post<{ message: string }>('reset-user-password', { user_id: id }),
  toggleActivation: (id: number) => api.post<Saved>(`toggle-user-activation/${id}`),
};
