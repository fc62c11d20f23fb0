import type { Role, RoleInput } from '../../../shared/schemas/roles.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { directoryApi } from '../../components/directory-api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const roleApi = directoryApi<Role, RoleInput>('role', 'roles');

/** Where the list is cached; a save or delete makes stale the roles list, the role selects, and the Users list that names each user's role. */
export const roleCache = {
  list: (args: ListArgs) => queryKeys.rolesPage.of(args),
  changes: [queryKeys.rolesPage.all, queryKeys.roles.all, queryKeys.users.all],
};
