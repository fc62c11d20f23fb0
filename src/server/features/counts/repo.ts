import { and, eq, sql, type SQL } from 'drizzle-orm';
import { fullName } from '../../../shared/format.ts';
import type { Actor, CountForRules } from '../../../shared/permissions.ts';
import type { CountItem, CountSession, CountVariance } from '../../../shared/schemas/counts.ts';
import { ROLE } from '../../../shared/lookups.ts';
import type { Conn } from '../../db/client.ts';
import { countAsks, countItems, countResolutions, countSessions } from '../../db/schema/counts.ts';
import { rowsOf } from '../../db/rows.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { incidentNumberById } from '../incidents/read-model.ts';
import { people, userBranchIdOf, userInBranch, userNameById } from '../users/read-model.ts';

export type SessionRecord = typeof countSessions.$inferSelect;
export type ItemRecord = typeof countItems.$inferSelect;

/**
 * A session with the facts its rules and screens need: the holder's name and branch, the counter's and signer's names. The
 * status is the API's union, as count_sessions_status_ck holds the text column to it.
 */
export interface SessionRow extends Omit<SessionRecord, 'status'> {
  status: CountSession['status'];
  holder_name: string;
  holder_user_branch_id: number | null;
  counter_name: string;
  signer_name: string | null;
}

/** The facts of a session that permissions.ts rules read. */
export const rulesOf = (s: SessionRow): CountForRules => ({
  counter_id: s.counter_id,
  holder_user_id: s.holder_user_id,
  holder_branch_id: s.holder_branch_id,
  holder_user_branch_id: s.holder_user_branch_id,
});

/** The holder's name: the person's full name, or the branch's name for its own stock. */
const HOLDER_NAME = sql`coalesce(${userNameById(sql`s.holder_user_id`)}, hb.name)`;
const SESSION_COLUMNS = sql`s.*, ${HOLDER_NAME} as holder_name, ${userBranchIdOf(sql`s.holder_user_id`)} as holder_user_branch_id,
  ${userNameById(sql`s.counter_id`)} as counter_name, ${userNameById(sql`s.signed_off_by`)} as signer_name`;
const SESSION_FROM = sql`from count_sessions s left join branches hb on hb.id = s.holder_branch_id`;

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
  return (await rowsOf<SessionRow>(conn, sql`select ${SESSION_COLUMNS} ${SESSION_FROM} where s.id = ${id}::int`))[0];
}

/** An item with its pad and book holder; the state is the API's union, as count_items_state_ck holds the text column to it. */
export interface ItemRow extends Omit<ItemRecord, 'state'> {
  state: CountItem['state'];
  pad_number: number;
  series_from: number;
  series_to: number;
  route_id: number;
  route_name: string;
  book_holder_name: string | null;
}

const ITEM_SELECT = sql`select i.*, p.number as pad_number, p.series_from, p.series_to, p.route_id, r.name as route_name,
  coalesce(${userNameById(sql`i.book_holder_user_id`)}, bb.name) as book_holder_name
  from count_items i join pads p on p.id = i.pad_id join routes r on r.id = p.route_id
  left join branches bb on bb.id = i.book_holder_branch_id`;

export async function items(conn: Conn, countId: number): Promise<ItemRow[]> {
  return (await rowsOf<ItemRow>(conn, sql`${ITEM_SELECT} where i.count_id = ${countId}::int order by r.name, p.number`)).map(numeric);
}

export async function item(conn: Conn, countId: number, itemId: number, lock = false): Promise<ItemRow | undefined> {
  if (lock) await conn.select({ id: countItems.id }).from(countItems).where(eq(countItems.id, itemId)).for('update');
  const [row] = await rowsOf<ItemRow>(conn, sql`${ITEM_SELECT} where i.count_id = ${countId}::int and i.id = ${itemId}::int`);
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
        book_incident_id: sql`excluded.book_incident_id`,
        book_note: sql`excluded.book_note`,
      },
    })
    .returning({ id: countItems.id });
  return row.id;
}

/** A settled variance; count_resolutions_kind_ck holds the kind to the API's union. */
export interface ResolutionRow {
  item_id: number;
  kind: CountVariance['kind'];
  action: 'usage' | 'incident' | 'accept';
  reason: string;
  incident_id: number | null;
  incident_number: string | null;
  resolved_by: number;
  resolver_name: string;
  resolved_at: Date | string;
}

export async function resolutions(conn: Conn, countId: number): Promise<ResolutionRow[]> {
  return rowsOf<ResolutionRow>(
    conn,
    sql`select c.item_id, c.kind, c.action, c.reason, c.incident_id, ${incidentNumberById(sql`c.incident_id`)} as incident_number,
      c.resolved_by, ${userNameById(sql`c.resolved_by`)} as resolver_name, c.resolved_at
      from count_resolutions c where c.count_id = ${countId}::int order by c.id`,
  );
}

export async function insertResolution(conn: Conn, values: typeof countResolutions.$inferInsert): Promise<void> {
  await conn.insert(countResolutions).values(values);
}

export async function hasResolution(conn: Conn, itemId: number): Promise<boolean> {
  const [row] = await conn.select({ id: countResolutions.id }).from(countResolutions).where(eq(countResolutions.item_id, itemId));
  return row !== undefined;
}

/** Issue 36: the counter ends the scan; the expected pads still not seen are marked missing. Answers their ids. */
export async function markPendingMissing(conn: Conn, countId: number, actorId: number): Promise<number[]> {
  const rows = await conn
    .update(countItems)
    .set({ state: 'missing', recorded_by: actorId, recorded_at: new Date() })
    .where(and(eq(countItems.count_id, countId), eq(countItems.state, 'pending')))
    .returning({ id: countItems.id });
  return rows.map((row) => row.id);
}

/** Asks a person for a resolution the counter may not take; asking twice for the same one changes nothing. */
export async function insertAsks(conn: Conn, rows: Array<typeof countAsks.$inferInsert>): Promise<void> {
  if (rows.length > 0) await conn.insert(countAsks).values(rows).onConflictDoNothing();
}

export interface AskRow {
  id: number;
  count_id: number;
  action: 'usage' | 'incident' | 'accept' | 'found';
  pad_id: number;
  pad_number: number;
  route_name: string;
  counter_name: string;
  total: number;
}

/** Needs my action: what open counts ask of the user, while the variance stays unresolved; oldest first. */
export async function asksOf(conn: Conn, userId: number, limit: number): Promise<AskRow[]> {
  return rowsOf<AskRow>(
    conn,
    sql`select a.id, a.count_id, a.action, i.pad_id, p.number as pad_number, r.name as route_name,
        ${userNameById(sql`s.counter_id`)} as counter_name, count(*) over ()::int as total
      from count_asks a join count_sessions s on s.id = a.count_id join count_items i on i.id = a.item_id
        join pads p on p.id = i.pad_id join routes r on r.id = p.route_id
      where a.user_id = ${userId}::int and s.status = 'open'
        and not exists (select 1 from count_resolutions c where c.item_id = a.item_id)
      order by a.asked_at, a.id limit ${limit}::int`,
  );
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
 * The counts an actor reads, as SQL on `s` (the session): mirrors `count.read` in
 * permissions.ts: roles 1, 3, 8, 9 all; a Branch Head their branch's users'; anyone the counts they ran or were counted in.
 */
export function readableBy(actor: Actor): SQL {
  if ([ROLE.ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR].some((role) => role === actor.role_id)) return sql`true`;
  const own = sql`(s.counter_id = ${actor.id}::int or s.holder_user_id = ${actor.id}::int)`;
  if (actor.branch_id === null) return own;
  const branchStock =
    actor.role_id === ROLE.BRANCH_CUSTODIAN || actor.role_id === ROLE.BRANCH_HEAD
      ? sql`or s.holder_branch_id = ${actor.branch_id}::int`
      : sql``;
  const branchUsers =
    actor.role_id === ROLE.BRANCH_HEAD ? sql`or ${userInBranch(sql`s.holder_user_id`, sql`${actor.branch_id}::int`)}` : sql``;
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
    ? sql`and (${HOLDER_NAME} ilike ${likePattern(query.search.trim())} or s.id::text = ${query.search.trim()})`
    : sql``;
  const rows = await rowsOf<ListRow>(
    conn,
    sql`select ${SESSION_COLUMNS}, (select count(*)::int from count_items i where i.count_id = s.id) as pads,
      count(*) over ()::int as total ${SESSION_FROM}
      where ${readableBy(actor)} ${search}
      order by s.id desc limit ${query.per_page}::int offset ${offsetOf(query.page, query.per_page)}::int`,
  );
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

/**
 * A session `s` that counted the user: a count of them, or (issue 36) a branch count that listed booklets the books
 * placed with them.
 */
export const countedUser = (userId: SQL) =>
  sql`(s.holder_user_id = ${userId} or (s.holder_branch_id is not null
    and exists (select 1 from count_items ci where ci.count_id = s.id and ci.book_holder_user_id = ${userId})))`;

/** docs/design.md §9: a holder's newest closed count (its id and when it closed), undefined when never counted. */
export async function lastCounted(
  conn: Conn,
  holder: { userId: number | null; branchId: number | null },
): Promise<{ id: number; closed_at: Date | string } | undefined> {
  const where = holder.userId !== null ? countedUser(sql`${holder.userId}::int`) : sql`s.holder_branch_id = ${holder.branchId}::int`;
  const [row] = await rowsOf<{ id: number; closed_at: Date | string }>(
    conn,
    sql`select s.id, s.closed_at from count_sessions s where s.status = 'closed' and ${where} order by s.closed_at desc, s.id desc limit 1`,
  );
  return row;
}

/** A holder's name and branch as a count names them; undefined when the person or branch does not exist. */
export async function holder(
  conn: Conn,
  who: { userId: number } | { branchId: number },
): Promise<{ name: string; branch_id: number | null } | undefined> {
  if ('userId' in who) {
    const [person] = await people(conn, [who.userId]);
    return person ? { name: fullName(person), branch_id: person.branch_id } : undefined;
  }
  const [row] = await rowsOf<{ name: string; branch_id: number | null }>(
    conn,
    sql`select name, id as branch_id from branches where id = ${who.branchId}::int`,
  );
  return row;
}
