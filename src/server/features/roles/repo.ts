import { asc, eq, ilike, sql } from 'drizzle-orm';
import { SYSTEM_ROLE_MAX_ID } from '../../../shared/lookups.ts';
import type { Role, RolesPageQuery } from '../../../shared/schemas/roles.ts';
import type { Conn } from '../../db/client.ts';
import { roles, users } from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

const columns = { id: roles.id, name: roles.name, is_system: sql<boolean>`${roles.id} <= ${SYSTEM_ROLE_MAX_ID}` };

/** One page of roles by id (or the asked column), matching the name. */
export async function page(
  conn: Conn,
  q: Pick<RolesPageQuery, 'page' | 'per_page' | 'search' | 'sort' | 'order'>,
): Promise<{ rows: Role[]; total: number }> {
  const where = q.search ? ilike(roles.name, likePattern(q.search)) : undefined;
  const order = sortedBy({ id: roles.id, name: roles.name }, q, roles.id, [asc(roles.id)]);
  const rows = await conn
    .select(columns)
    .from(roles)
    .where(where)
    .orderBy(...order)
    .limit(q.per_page)
    .offset(offsetOf(q.page, q.per_page));
  const [{ total }] = await conn
    .select({ total: sql<number>`count(*)::int` })
    .from(roles)
    .where(where);
  return { rows, total };
}

export async function all(conn: Conn): Promise<Role[]> {
  return conn.select(columns).from(roles).orderBy(asc(roles.id));
}

export async function find(conn: Conn, id: number): Promise<Role | undefined> {
  const [row] = await conn.select(columns).from(roles).where(eq(roles.id, id)).limit(1);
  return row;
}

export async function nameTaken(conn: Conn, name: string, exceptId: number | null): Promise<boolean> {
  const [row] = await conn
    .select({ id: roles.id })
    .from(roles)
    .where(
      exceptId
        ? sql`lower(${roles.name}) = ${name.toLowerCase()} and ${roles.id} <> ${exceptId}`
        : sql`lower(${roles.name}) = ${name.toLowerCase()}`,
    )
    .limit(1);
  return Boolean(row);
}

export async function insert(conn: Conn, name: string): Promise<Role> {
  const [row] = await conn.insert(roles).values({ name }).returning(columns);
  return row;
}

export async function rename(conn: Conn, id: number, name: string): Promise<Role | undefined> {
  const [row] = await conn.update(roles).set({ name, updated_at: new Date() }).where(eq(roles.id, id)).returning(columns);
  return row;
}

export async function remove(conn: Conn, id: number): Promise<void> {
  await conn.delete(roles).where(eq(roles.id, id));
}

export async function userCount(conn: Conn, id: number): Promise<number> {
  const [{ n }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.role_id, id));
  return n;
}
