import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../../shared/permissions.ts';
import { ROLE } from '../../../shared/lookups.ts';
import type { Conn } from '../../db/client.ts';
import { countItems, countResolutions, countSessions } from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';

export type SessionRecord = typeof countSessions.$inferSelect;
export type ItemRecord = typeof countItems.$inferSelect;

/** A session with the facts its rules and screens need: the holder's name and branch, the counter's and signer's names. */
export interface SessionRow extends SessionRecord {
  holder_name: string;
  holder_user_branch_id: number | null;
  counter_first: string;
  counter_middle: string | null;
  counter_last: string;
  signer_first: string | null;
  signer_middle: string | null;
  signer_last: string | null;
}

const SESSION_COLUMNS = sql`s.*, coalesce(hu.first_name || ' ' || hu.last_name, hb.name) as holder_name, hu.branch_id as holder_user_branch_id,
  cu.first_name as counter_first, cu.middle_name as counter_middle, cu.last_name as counter_last,
  su.first_name as signer_first, su.middle_name as signer_middle, su.last_name as signer_last`;
const SESSION_FROM = sql`from count_sessions s left join users hu on hu.id = s.holder_user_id left join branches hb on hb.id = s.holder_branch_id
  join users cu on cu.id = s.counter_id left join users su on su.id = s.signed_off_by`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function insertSession(
  conn: Conn,
  values: { holder_user_id: number | null; holder_branch_id: number | null; counter_id: number },
): Promise<number> {
  const [row] = await conn.insert(countSessions).values(values).returning({ id: countSessions.id });
  return row.id;
}

export async function insertItems(conn: Conn, rows: Array<typeof countItems.$inferInsert>): Promise<void> {
  if (rows.length > 0) await conn.insert(countItems).values(rows);
}

/** The session, locked until the transaction ends when `lock` says so: scans take turns, and none lands after the close. */
export async function session(conn: Conn, id: number, lock = false): Promise<SessionRow | undefined> {
  if (lock) await conn.select({ id: countSessions.id }).from(countSessions).where(eq(countSessions.id, id)).for('update');
  return rowsOf<SessionRow>(await conn.execute(sql`select ${SESSION_COLUMNS} ${SESSION_FROM} where s.id = ${id}::int`))[0];
}

export interface ItemRow extends ItemRecord {
  pad_number: number;
  series_from: number;
  series_to: number;
  route_id: number;
  route_name: string;
  book_holder_name: string | null;
}

const ITEM_SELECT = sql`select i.*, p.number as pad_number, p.series_from, p.series_to, p.route_id, r.name as route_name,
  coalesce(bu.first_name || ' ' || bu.last_name, bb.name) as book_holder_name
  from count_items i join pads p on p.id = i.pad_id join routes r on r.id = p.route_id
  left join users bu on bu.id = i.book_holder_user_id left join branches bb on bb.id = i.book_holder_branch_id`;

export async function items(conn: Conn, countId: number): Promise<ItemRow[]> {
  return rowsOf<ItemRow>(await conn.execute(sql`${ITEM_SELECT} where i.count_id = ${countId}::int order by r.name, p.number`)).map(numeric);
}

export async function item(conn: Conn, countId: number, itemId: number, lock = false): Promise<ItemRow | undefined> {
  if (lock) await conn.select({ id: countItems.id }).from(countItems).where(eq(countItems.id, itemId)).for('update');
  const [row] = rowsOf<ItemRow>(await conn.execute(sql`${ITEM_SELECT} where i.count_id = ${countId}::int and i.id = ${itemId}::int`));
  return row ? numeric(row) : undefined;
}

const numeric = (row: ItemRow): ItemRow => ({
  ...row,
  series_from: Number(row.series_from),
  series_to: Number(row.series_to),
  book_next_number: row.book_next_number === null ? null : Number(row.book_next_number),
  first_unused: row.first_unused === null ? null : Number(row.first_unused),
});

/**
 * Records a pad seen (or marked missing): one row per pad and count whoever scans at once, by the unique index;
 * a pad the books did not place with the holder comes in as not expected.
 */
export async function upsertItem(
  conn: Conn,
  values: Omit<typeof countItems.$inferInsert, 'id'> & { count_id: number; pad_id: number },
): Promise<number> {
  const [row] = await conn
    .insert(countItems)
    .values(values)
    .onConflictDoUpdate({
      target: [countItems.count_id, countItems.pad_id],
      set: {
        state: sql`excluded.state`,
        first_unused: sql`excluded.first_unused`,
        book_next_number: sql`excluded.book_next_number`,
        recorded_by: sql`excluded.recorded_by`,
        recorded_at: sql`excluded.recorded_at`,
      },
    })
    .returning({ id: countItems.id });
  return row.id;
}

export interface ResolutionRow {
  item_id: number;
  kind: string;
  action: 'usage' | 'incident' | 'accept';
  reason: string;
  incident_id: number | null;
  incident_number: string | null;
  resolved_by: number;
  resolver_first: string;
  resolver_middle: string | null;
  resolver_last: string;
  resolved_at: Date | string;
}

export async function resolutions(conn: Conn, countId: number): Promise<ResolutionRow[]> {
  return rowsOf<ResolutionRow>(
    await conn.execute(sql`select c.item_id, c.kind, c.action, c.reason, c.incident_id, li.number as incident_number, c.resolved_by,
      u.first_name as resolver_first, u.middle_name as resolver_middle, u.last_name as resolver_last, c.resolved_at
      from count_resolutions c join users u on u.id = c.resolved_by left join loss_incidents li on li.id = c.incident_id
      where c.count_id = ${countId}::int order by c.id`),
  );
}

export async function insertResolution(conn: Conn, values: typeof countResolutions.$inferInsert): Promise<void> {
  await conn.insert(countResolutions).values(values);
}

export async function hasResolution(conn: Conn, itemId: number): Promise<boolean> {
  const [row] = await conn.select({ id: countResolutions.id }).from(countResolutions).where(eq(countResolutions.item_id, itemId));
  return row !== undefined;
}

export async function signOff(conn: Conn, id: number, userId: number, signature: string | null): Promise<void> {
  await conn
    .update(countSessions)
    .set({ signed_off_by: userId, signed_off_at: new Date(), signature })
    .where(and(eq(countSessions.id, id), eq(countSessions.status, 'open')));
}

export async function close(conn: Conn, id: number): Promise<void> {
  await conn
    .update(countSessions)
    .set({ status: 'closed', closed_at: new Date() })
    .where(and(eq(countSessions.id, id), eq(countSessions.status, 'open')));
}

/**
 * The counts an actor reads, as SQL on `s` (the session) and `hu` (its holding user): mirrors `count.read` in
 * permissions.ts: roles 1, 3, 8, 9 all; a Branch Head their branch's users'; anyone the counts they ran or were counted in.
 */
export function readableBy(actor: Actor): SQL {
  if ([ROLE.ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR].includes(actor.role_id as never)) return sql`true`;
  const own = sql`(s.counter_id = ${actor.id}::int or s.holder_user_id = ${actor.id}::int)`;
  if (actor.branch_id === null) return own;
  const branchStock =
    actor.role_id === ROLE.BRANCH_CUSTODIAN || actor.role_id === ROLE.BRANCH_HEAD
      ? sql`or s.holder_branch_id = ${actor.branch_id}::int`
      : sql``;
  const branchUsers = actor.role_id === ROLE.BRANCH_HEAD ? sql`or hu.branch_id = ${actor.branch_id}::int` : sql``;
  return sql`(${own} ${branchStock} ${branchUsers})`;
}

export interface ListRow extends SessionRow {
  pads: number;
  total: number;
}

/** Newest first; search matches the holder's name or the count number. */
export async function list(
  conn: Conn,
  actor: Actor,
  query: { page: number; per_page: number; search?: string },
): Promise<{ rows: ListRow[]; total: number }> {
  const search = query.search?.trim()
    ? sql`and (coalesce(hu.first_name || ' ' || hu.last_name, hb.name) ilike ${likePattern(query.search.trim())} or s.id::text = ${query.search.trim()})`
    : sql``;
  const rows = rowsOf<ListRow>(
    await conn.execute(sql`select ${SESSION_COLUMNS}, (select count(*)::int from count_items i where i.count_id = s.id) as pads,
      count(*) over ()::int as total ${SESSION_FROM}
      where ${readableBy(actor)} ${search}
      order by s.id desc limit ${query.per_page}::int offset ${offsetOf(query.page, query.per_page)}::int`),
  );
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

/** docs/design.md §9: a holder's newest closed count (its id and when it closed), undefined when never counted. */
export async function lastCounted(
  conn: Conn,
  holder: { userId: number | null; branchId: number | null },
): Promise<{ id: number; closed_at: Date | string } | undefined> {
  const where = holder.userId !== null ? sql`holder_user_id = ${holder.userId}::int` : sql`holder_branch_id = ${holder.branchId}::int`;
  const [row] = rowsOf<{ id: number; closed_at: Date | string }>(
    await conn.execute(
      sql`select id, closed_at from count_sessions where status = 'closed' and ${where} order by closed_at desc, id desc limit 1`,
    ),
  );
  return row;
}

/** A holder's name and branch as a count names them; undefined when the person or branch does not exist. */
export async function holder(
  conn: Conn,
  who: { userId: number } | { branchId: number },
): Promise<{ name: string; branch_id: number | null } | undefined> {
  const query =
    'userId' in who
      ? sql`select first_name || ' ' || last_name as name, branch_id from users where id = ${who.userId}::int`
      : sql`select name, id as branch_id from branches where id = ${who.branchId}::int`;
  const [row] = rowsOf<{ name: string; branch_id: number | null }>(await conn.execute(query));
  return row;
}

export interface DueRow {
  type: 'user' | 'branch';
  id: number;
  name: string;
  last_counted: Date | string | null;
  total: number;
}

/**
 * docs/design.md §9 count schedule: the holders of pads (users, and branches' own stock) the actor may count whose last
 * closed count is older than `everyDays`, or who were never counted; longest waiting first.
 */
export async function due(conn: Conn, actor: Actor, everyDays: number, limit: number): Promise<DueRow[]> {
  const all = [ROLE.ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR].includes(actor.role_id as never);
  if (!all && (actor.role_id !== ROLE.BRANCH_HEAD || actor.branch_id === null)) return [];
  const userScope = all ? sql`u.id <> ${actor.id}::int` : sql`u.id <> ${actor.id}::int and u.branch_id = ${actor.branch_id}::int`;
  const ownBranch = sql`(b.id = ${actor.branch_id ?? 0}::int and ${actor.role_id ?? 0}::int in (${ROLE.BRANCH_CUSTODIAN}, ${ROLE.BRANCH_HEAD}))`;
  return dueWhere(conn, userScope, all ? sql`not ${ownBranch}` : sql`false`, everyDays, limit);
}

/** The Dashboard's view of the count schedule: every holder due, whoever looks. */
export const dueEverywhere = (conn: Conn, everyDays: number, limit: number) => dueWhere(conn, sql`true`, sql`true`, everyDays, limit);

async function dueWhere(conn: Conn, userScope: SQL, branchScope: SQL, everyDays: number, limit: number): Promise<DueRow[]> {
  const rows = rowsOf<DueRow>(
    await conn.execute(sql`with holders as (
        select 'user' as type, u.id, u.first_name || ' ' || u.last_name as name,
          (select max(closed_at) from count_sessions s where s.status = 'closed' and s.holder_user_id = u.id) as last_counted
        from users u where ${userScope} and exists (select 1 from pads p where p.holder_user_id = u.id)
        union all
        select 'branch', b.id, b.name,
          (select max(closed_at) from count_sessions s where s.status = 'closed' and s.holder_branch_id = b.id)
        from branches b where ${branchScope} and exists (select 1 from pads p where p.holder_branch_id = b.id and p.holder_user_id is null))
      select *, count(*) over ()::int as total from holders
      where last_counted is null or last_counted < now() - make_interval(days => ${everyDays}::int)
      order by last_counted nulls first, name limit ${limit}::int`),
  );
  return rows;
}
