import { and, count, desc, eq, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AlertKind, AlertThresholds } from '../../../shared/schemas/notifications.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { alertSettings, notificationSettings, notifications, reorderPoints } from '../../db/schema/notifications.ts';
import type { ListTotal } from '../../lib/pagination.ts';
import { cappedCount, listTotal } from '../../db/list-total.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

/** Rows per insert statement: well under PostgreSQL's 65,535 parameters at ten columns a row. */
const UPSERT_CHUNK = 500;

/**
 * One row per dedupe key: a new key is inserted, a key already open stays as it is, and a key resolved earlier opens
 * again (the condition came back in the same period). Safe when two instances run it at once. Answers the rows it inserted or opened again.
 */
export async function upsertNotifications(conn: Conn, rows: NewNotification[]): Promise<NotificationRow[]> {
  const touched: NotificationRow[] = [];
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    touched.push(
      ...(await conn
        .insert(notifications)
        .values(rows.slice(i, i + UPSERT_CHUNK))
        .onConflictDoUpdate({
          target: notifications.dedupe_key,
          set: { resolved_at: null },
          setWhere: isNotNull(notifications.resolved_at),
        })
        .returning()),
    );
  }
  return touched;
}

/** The open notifications of these kinds created before `before`: what a run may resolve when nobody answers them now. */
export async function openKeysOfKinds(conn: Conn, kinds: readonly AlertKind[], before: Date) {
  if (kinds.length === 0) return [];
  return conn
    .select({ id: notifications.id, dedupe_key: notifications.dedupe_key })
    .from(notifications)
    .where(and(inArray(notifications.kind, [...kinds]), isNull(notifications.resolved_at), lt(notifications.created_at, before)));
}

export async function resolveNotifications(conn: Conn, ids: number[], at: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await conn
    .update(notifications)
    .set({ resolved_at: at })
    .where(and(inArray(notifications.id, ids), isNull(notifications.resolved_at)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function markMailed(conn: Conn, id: number, at: Date): Promise<void> {
  await conn
    .update(notifications)
    .set({ mailed_at: at })
    .where(and(eq(notifications.id, id), isNull(notifications.mailed_at)));
}

export interface ListFilter {
  userId: number;
  state?: 'open' | 'resolved';
  kind?: AlertKind;
  limit: number;
  offset: number;
}

function listWhere(filter: Omit<ListFilter, 'limit' | 'offset'>): SQL | undefined {
  return and(
    eq(notifications.recipient_user_id, filter.userId),
    filter.state === 'open'
      ? isNull(notifications.resolved_at)
      : filter.state === 'resolved'
        ? isNotNull(notifications.resolved_at)
        : undefined,
    filter.kind ? eq(notifications.kind, filter.kind) : undefined,
  );
}

/** A page of one user's notifications, newest first, with the filter's total (db/list-total.ts). */
export async function listNotifications(conn: Conn, filter: ListFilter): Promise<{ rows: NotificationRow[]; total: ListTotal }> {
  const where = listWhere(filter);
  const matching = () =>
    conn
      .select({ one: sql`1` })
      .from(notifications)
      .where(where)
      .getSQL();
  const [rows, [{ count }]] = await Promise.all([
    conn
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.created_at), desc(notifications.id))
      .limit(filter.limit)
      .offset(filter.offset),
    rowsOf<{ count: number }>(conn, cappedCount(matching())),
  ]);
  return { rows, total: await listTotal(conn, Number(count), matching, filter.offset + rows.length) };
}

/** The bell: a user's open notifications not read yet. */
export async function unreadCount(conn: Conn, userId: number): Promise<number> {
  const [{ total }] = await conn
    .select({ total: count() })
    .from(notifications)
    .where(and(eq(notifications.recipient_user_id, userId), isNull(notifications.resolved_at), isNull(notifications.read_at)));
  return Number(total);
}

/** Marks one of the user's own notifications read; answers it, or undefined when it is not theirs. */
export async function markRead(conn: Conn, userId: number, id: number, at: Date): Promise<NotificationRow | undefined> {
  await conn
    .update(notifications)
    .set({ read_at: at })
    .where(and(eq(notifications.id, id), eq(notifications.recipient_user_id, userId), isNull(notifications.read_at)));
  const [row] = await conn
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.recipient_user_id, userId)));
  return row;
}

/** Every open notification, for the digest: by recipient, oldest first. */
export async function openNotifications(conn: Conn): Promise<NotificationRow[]> {
  return conn
    .select()
    .from(notifications)
    .where(isNull(notifications.resolved_at))
    .orderBy(notifications.recipient_user_id, notifications.created_at, notifications.id);
}

export async function mailSettingsOf(conn: Conn, userIds?: number[]): Promise<Array<{ user_id: number; kind: string; email: boolean }>> {
  const query = conn.select().from(notificationSettings);
  return userIds ? query.where(inArray(notificationSettings.user_id, userIds)) : query;
}

export async function saveMailSettings(conn: Conn, userId: number, rows: Array<{ kind: AlertKind; email: boolean }>): Promise<void> {
  if (rows.length === 0) return;
  await conn
    .insert(notificationSettings)
    .values(rows.map((row) => ({ user_id: userId, kind: row.kind, email: row.email })))
    .onConflictDoUpdate({
      target: [notificationSettings.user_id, notificationSettings.kind],
      set: { email: sql`excluded.email` },
    });
}

export async function storedThresholds(conn: Conn): Promise<Partial<AlertThresholds>> {
  const [row] = await conn.select({ thresholds: alertSettings.thresholds }).from(alertSettings).where(eq(alertSettings.id, 1));
  return row?.thresholds ?? {};
}

export async function saveThresholds(conn: Conn, thresholds: AlertThresholds, userId: number): Promise<void> {
  await conn
    .insert(alertSettings)
    .values({ id: 1, thresholds, updated_by: userId })
    .onConflictDoUpdate({ target: alertSettings.id, set: { thresholds, updated_by: userId, updated_at: sql`now()` } });
}

export type ReorderPointRow = typeof reorderPoints.$inferSelect;

export async function listReorderPoints(conn: Conn): Promise<ReorderPointRow[]> {
  return conn.select().from(reorderPoints).orderBy(reorderPoints.branch_id, reorderPoints.route_id);
}

/** Replaces every reorder point with the given ones. */
export async function replaceReorderPoints(conn: Conn, rows: ReorderPointRow[]): Promise<void> {
  await conn.delete(reorderPoints);
  if (rows.length > 0) await conn.insert(reorderPoints).values(rows);
}
