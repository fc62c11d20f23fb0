import { asc, ilike, sql } from 'drizzle-orm';
import { SYSTEM_ROLE_MAX_ID } from '../../../shared/lookups.ts';
import type { Role, RolesPageQuery } from '../../../shared/schemas/roles.ts';
import type { Conn } from '../../db/client.ts';
import { roles } from '../../db/schema/reference.ts';
import { users } from '../../db/schema/users.ts';
import { likePattern } from '../../lib/pagination.ts';
import { refCount, referenceRepo } from '../../lib/reference-data.ts';
import { sortedBy } from '../../lib/sorting.ts';

const columns = { id: roles.id, name: roles.name, is_system: sql<boolean>`${roles.id} <= ${SYSTEM_ROLE_MAX_ID}` };

/** Roles by id (or the asked column), matching the name; by id in the Role selects. */
export const { page, all, find, insert, update, remove, nameTaken, streamList } = referenceRepo<typeof roles, Role, RolesPageQuery>({
  table: roles,
  rows: (conn) => conn.select(columns).from(roles).$dynamic(),
  ids: (conn) => conn.select({ id: roles.id }).from(roles).$dynamic(),
  where: (q) => (q.search ? ilike(roles.name, likePattern(q.search)) : undefined),
  order: (q) => sortedBy({ id: roles.id, name: roles.name }, q, roles.id, [asc(roles.id)]),
  allOrder: [asc(roles.id)],
});

export const userCount = (conn: Conn, id: number) => refCount(conn, users.role_id, id);
