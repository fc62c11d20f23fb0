import type { Branch, BranchInput } from '../../../shared/schemas/branches.ts';
import { api, type Paginated } from '../../lib/api.ts';

export const branchApi = {
  page: (params: { page: number; search: string }) => api.get<Paginated<Branch>>('get-branches-with-search', params),
  create: (input: BranchInput) => api.post<{ message: string; data: Branch }>('add-branch', input),
  update: (id: number, input: BranchInput) => api.put<{ message: string; data: Branch }>(`update-branch/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-branch/${id}`),
};
