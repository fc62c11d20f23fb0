import type { ExportFormat } from '../../../shared/schemas/common.ts';
import type { Branch, BranchInput } from '../../../shared/schemas/branches.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { api, type Paginated } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export const branchApi = {
  page: ({ perPage, sort, order, ...params }: ListView & { page: number; search: string }) =>
    api.get<Paginated<Branch>>('get-branches-with-search', { ...params, ...viewParams({ perPage, sort, order }) }),
  /** Every row matching the list's search and filter, as a file (docs/design.md §10). */
  file: ({ perPage, sort, order, ...params }: ListView & { search: string }, format: ExportFormat) =>
    api.file('get-branches-with-search', { ...params, ...viewParams({ perPage, sort, order }), per_page: undefined, format }),
  create: (input: BranchInput) => api.post<{ message: string; data: Branch }>('add-branch', input),
  update: (id: number, input: BranchInput) => api.put<{ message: string; data: Branch }>(`update-branch/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-branch/${id}`),
};

/** Where the list is cached; a save or delete makes stale the branches list and select, and the Users list that names each user's branch. */
export const branchCache = {
  list: (args: ListArgs) => queryKeys.branchesPage.of(args),
  changes: [queryKeys.branchesPage.all, queryKeys.branches.all, queryKeys.users.all],
};
