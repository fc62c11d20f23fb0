import { USER_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { UsersQuery } from '../../../shared/schemas/users.ts';
import { listExport } from '../../lib/export.ts';
import { listSource } from './service.ts';

/** The Users list's export, as its route and an export worker (src/server/exports/registry.ts) write it. */
export const userListExport = listExport({
  kind: 'users',
  fileBase: 'Users',
  columns: () => USER_LIST_COLUMNS,
  source: (ctx, _actor, query: UsersQuery) => listSource(ctx, query),
});
