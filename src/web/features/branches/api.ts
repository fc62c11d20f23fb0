import type { Branch, BranchInput } from '../../../shared/schemas/branches.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { directoryApi } from '../../components/directory-api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const branchApi = directoryApi<Branch, BranchInput>('branch', 'branches');

/** Where the list is cached; a save or delete makes stale the branches list and select, and the Users list that names each user's branch. */
export const branchCache = {
  list: (args: ListArgs) => queryKeys.branchesPage.of(args),
  changes: [queryKeys.branchesPage.all, queryKeys.branches.all, queryKeys.users.all],
};
