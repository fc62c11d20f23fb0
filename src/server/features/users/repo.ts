import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { IN_TRANSIT } from '../../../shared/custody-rules.ts';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { fullName } from '../../../shared/format.ts';
import type { AdminUser, AssignableUser, UsersQuery } from '../../../shared/schemas/users.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { Conn } from '../../db/client.ts';
import { streamByIds } from '../../db/stream.ts';
import { activities, invoices } from '../../db/schema/invoices.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { branches, roles, routes } from '../../db/schema/reference.ts';
import { reports } from '../../db/schema/reports.ts';
import { accessTokens, userStatuses, users } from '../../db/schema/users.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

export interface UserValues {
  first_name: string;
  middle_name: string | null;
  last_name: string;
  contact_number: string;
  email: string;
  branch_id: number;
  role_id: number;
  user_status_id: number;
}

const columns = {
  id: users.id,
  first_name: users.first_name,
  middle_name: users.middle_name,
  last_name: users.last_name,
  email: users.email,
  contact_number: users.contact_number,
  role_id: users.role_id,
  branch_id: users.branch_id,
  user_status_id: users.user_status_id,
  role: { id: roles.id, name: roles.name },
  branch: { id: branches.id, name: branches.name },
  status: { id: userStatuses.id, name: userStatuses.name },
};

const select = (conn: Conn) =>
  conn
    .select(columns)
    .from(users)
    .leftJoin(roles, eq(roles.id, users.role_id))
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .leftJoin(userStatuses, eq(userStatuses.id, users.user_status_id));

type Row = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];
const toUser = (row: Row): AdminUser => ({ ...row, full_name: fullName(row) });

/** The expression the users_search_trgm index is built on, so the name-or-email search uses it. */
const searchable = sql`(${users.first_name} || ' ' || coalesce(${users.middle_name}, '') || ' ' || ${users.last_name} || ' ' || ${users.email})`;

/** The Users columns the list sorts by. */
const userSortColumns = {
  first_name: users.first_name,
  last_name: users.last_name,
  email: users.email,
  role: roles.name,
  branch: branches.name,
  status: userStatuses.name,
};

function listWhere(q: UsersQuery): SQL | undefined {
  const filters: SQL[] = [];
  if (q.search) filters.push(sql`${searchable} ilike ${likePattern(q.search)}`);
  if (q.role) filters.push(eq(users.role_id, q.role));
  return and(...filters);
}

/** Every user the Users list shows for this search and role, in its order, batch by batch (docs/design.md §10 Export). */
export async function streamList(conn: Conn, q: UsersQuery, onBatch: (rows: AdminUser[]) => Promise<void>): Promise<void> {
  const ids = conn
    .select({ id: users.id })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.role_id))
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .leftJoin(userStatuses, eq(userStatuses.id, users.user_status_id))
    .where(listWhere(q))
    .orderBy(...sortedBy(userSortColumns, q, users.id, [desc(users.id)]));
  await streamByIds(conn, ids.getSQL(), async (tx, wanted) => (await select(tx).where(inArray(users.id, wanted))).map(toUser), onBatch);
}

/** One page of users, newest first or by a chosen column, by name-or-email search and role. */
export async function page(conn: Conn, q: UsersQuery): Promise<{ rows: AdminUser[]; total: number }> {
  const where = listWhere(q);
  const order = sortedBy(userSortColumns, q, users.id, [desc(users.id)]);
  const rows = await select(conn)
    .where(where)
    .orderBy(...order)
    .limit(q.per_page)
    .offset(offsetOf(q.page, q.per_page));
  const [{ total }] = await conn
    .select({ total: sql<number>`count(*)::int` })
    .from(users)
    .where(where);
  return { rows: rows.map(toUser), total };
}

export async function find(conn: Conn, id: number): Promise<AdminUser | undefined> {
  const [row] = await select(conn).where(eq(users.id, id)).limit(1);
  return row ? toUser(row) : undefined;
}

/** Active users of the given roles, by name, for the "Assign to" selects. */
export async function activeByRoles(conn: Conn, roleIds: number[]): Promise<AssignableUser[]> {
  const rows = await conn
    .select({
      id: users.id,
      first_name: users.first_name,
      middle_name: users.middle_name,
      last_name: users.last_name,
      role_id: users.role_id,
      branch_id: users.branch_id,
      role: { id: roles.id, name: roles.name },
      branch: { id: branches.id, name: branches.name },
    })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.role_id))
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .where(and(inArray(users.role_id, roleIds), eq(users.user_status_id, USER_STATUS.ACTIVE)))
    .orderBy(asc(users.first_name), asc(users.last_name), asc(users.id));
  return rows.map((row) => ({ ...row, full_name: fullName(row) }));
}

export async function insert(conn: Conn, values: UserValues & { password_hash: string; must_change_password: boolean }): Promise<number> {
  const [row] = await conn.insert(users).values(values).returning({ id: users.id });
  return row.id;
}

export async function update(conn: Conn, id: number, values: UserValues): Promise<boolean> {
  const rows = await conn
    .update(users)
    .set({ ...values, updated_at: new Date() })
    .where(eq(users.id, id))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Flips Active and Inactive in one statement; returns the new status, or undefined for an unknown user. */
export async function toggleStatus(conn: Conn, id: number): Promise<number | undefined> {
  const [row] = await conn
    .update(users)
    .set({
      user_status_id: sql`(case when ${users.user_status_id} = ${USER_STATUS.ACTIVE} then ${USER_STATUS.INACTIVE} else ${USER_STATUS.ACTIVE} end)::smallint`,
      updated_at: new Date(),
    })
    .where(eq(users.id, id))
    .returning({ user_status_id: users.user_status_id });
  return row?.user_status_id;
}

export async function remove(conn: Conn, id: number): Promise<void> {
  await conn.delete(users).where(eq(users.id, id));
}

export async function deleteTokens(conn: Conn, userId: number): Promise<void> {
  await conn.delete(accessTokens).where(eq(accessTokens.user_id, userId));
}

export async function emailTaken(conn: Conn, email: string, exceptId: number | null): Promise<boolean> {
  const sameEmail = sql`lower(${users.email}) = ${email.toLowerCase()}`;
  const [row] = await conn
    .select({ id: users.id })
    .from(users)
    .where(exceptId ? and(sameEmail, ne(users.id, exceptId)) : sameEmail)
    .limit(1);
  return Boolean(row);
}

/** Which of the picked branch, role and status exist. */
export async function refsExist(conn: Conn, refs: { branch_id: number; role_id: number; user_status_id: number }) {
  const [branch] = await conn.select({ id: branches.id }).from(branches).where(eq(branches.id, refs.branch_id)).limit(1);
  const [role] = await conn.select({ id: roles.id }).from(roles).where(eq(roles.id, refs.role_id)).limit(1);
  const [status] = await conn.select({ id: userStatuses.id }).from(userStatuses).where(eq(userStatuses.id, refs.user_status_id)).limit(1);
  return { branch: Boolean(branch), role: Boolean(role), status: Boolean(status) };
}

export async function statusList(conn: Conn): Promise<NamedRef[]> {
  return conn.select({ id: userStatuses.id, name: userStatuses.name }).from(userStatuses).orderBy(asc(userStatuses.id));
}

const countWhere = async (conn: Conn, table: typeof invoices | typeof activities | typeof reports, where: SQL | undefined) => {
  const [{ n }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return n;
};

/** The pads the user holds or created. */
async function padsNaming(conn: Conn, id: number): Promise<number> {
  const [{ n }] = await conn.select({ n: sql<number>`count(*)::int` }).from(
    conn
      .select({ id: padCustody.pad_id })
      .from(padCustody)
      .where(eq(padCustody.holder_user_id, id))
      .union(conn.select({ id: pads.id }).from(pads).where(eq(pads.created_by, id)))
      .as('naming'),
  );
  return n;
}

/** The history that names the user: invoices, activities, pads and reports. */
export async function usage(conn: Conn, id: number): Promise<{ invoices: number; activities: number; pads: number; reports: number }> {
  return {
    invoices: await countWhere(
      conn,
      invoices,
      or(eq(invoices.user_id, id), eq(invoices.created_by, id), eq(invoices.assigned_user_id, id), eq(invoices.accepted_by, id)),
    ),
    activities: await countWhere(conn, activities, or(eq(activities.user_id, id), eq(activities.assigned_user_id, id))),
    pads: await padsNaming(conn, id),
    reports: await countWhere(conn, reports, eq(reports.generated_by, id)),
  };
}

/** Locks the user's row, so two changes to one user (or a change and the custody check) run one after the other. */
export async function lockForChange(conn: Conn, id: number): Promise<void> {
  await conn.execute(sql`select 1 from ${users} where ${users.id} = ${id} for update`);
}

/**
 * What a user answers for (docs/design.md §10): the pads they hold, named "Route #number", and the transfer
 * invoices in transit that they carry as courier (IN_TRANSIT of src/shared/custody-rules.ts).
 */
export async function custodyHeld(conn: Conn, id: number): Promise<{ pads: string[]; invoices: number[] }> {
  const held = await conn
    .select({ route: routes.name, number: pads.number })
    .from(pads)
    .innerJoin(padCustody, eq(padCustody.pad_id, pads.id))
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .where(eq(padCustody.holder_user_id, id))
    .orderBy(asc(routes.name), asc(pads.number))
    .limit(1000);
  const carried = await conn
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.assigned_user_id, id),
        eq(invoices.invoice_status_id, IN_TRANSIT.invoice_status_id),
        inArray(invoices.invoice_type_id, [...IN_TRANSIT.invoice_type_ids]),
      ),
    )
    .orderBy(asc(invoices.id))
    .limit(1000);
  return { pads: held.map((pad) => `${pad.route} #${pad.number}`), invoices: carried.map((row) => row.id) };
}
