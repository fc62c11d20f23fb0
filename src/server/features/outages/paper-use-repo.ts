import { and, eq, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { outages, paperUses } from '../../db/schema/paper-use.ts';
import { offsetOf } from '../../lib/pagination.ts';
import { userBranchIdOf, userNameById } from '../users/read-model.ts';

export type PaperUseRow = typeof paperUses.$inferSelect;
export type NewPaperUse = typeof paperUses.$inferInsert;

/** Namespace of the advisory locks that serialise paper uses and outage windows per establishment ("PUSE"). */
const ESTABLISHMENT_LOCK = 0x50555345;

/**
 * Held until the transaction ends: a usage and an outage declared at the same establishment at the same moment each
 * see the other once committed, so no use is left open inside an outage (or linked to one that no longer covers it).
 */
export async function lockEstablishment(conn: Conn, branchId: number): Promise<void> {
  await conn.execute(sql`select pg_advisory_xact_lock(${ESTABLISHMENT_LOCK}::int, ${branchId}::int)`);
}

/** The branch of a holding user (a pad held by a person is used where that person works). */
export async function branchOfUser(conn: Conn, userId: number): Promise<number | null> {
  const [row] = await rowsOf<{ branch_id: number | null }>(conn, sql`select ${userBranchIdOf(sql`${userId}::int`)} as branch_id`);
  return row?.branch_id ?? null;
}

/** The outage of the establishment whose window [starts_at, ends_at) holds the instant, if any (windows never overlap). */
export async function outageCovering(conn: Conn, branchId: number, at: Date): Promise<number | null> {
  const [row] = await conn
    .select({ id: outages.id })
    .from(outages)
    .where(and(eq(outages.branch_id, branchId), lte(outages.starts_at, at), or(isNull(outages.ends_at), sql`${outages.ends_at} > ${at}`)))
    .limit(1);
  return row?.id ?? null;
}

export async function insertPaperUse(conn: Conn, values: NewPaperUse): Promise<PaperUseRow> {
  const [row] = await conn.insert(paperUses).values(values).returning();
  return row;
}

/** The uses of the pad, not undone, that share a number with from..to, locked for the rest of the transaction. */
export async function lockUsesOverlapping(conn: Conn, padId: number, from: number, to: number): Promise<PaperUseRow[]> {
  return conn
    .select()
    .from(paperUses)
    .where(and(eq(paperUses.pad_id, padId), isNull(paperUses.undone_at), lte(paperUses.number_from, to), gte(paperUses.number_to, from)))
    .orderBy(paperUses.number_from)
    .for('update');
}

export async function markUndone(conn: Conn, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await conn.update(paperUses).set({ undone_at: at }).where(inArray(paperUses.id, ids));
}

export async function insertPaperUses(conn: Conn, rows: NewPaperUse[]): Promise<void> {
  if (rows.length === 0) return;
  await conn.insert(paperUses).values(rows);
}

/** The window an outage covers: [starts_at, ends_at), open-ended while it goes on. */
const inside = (window: { starts_at: Date; ends_at: Date | null }): SQL =>
  window.ends_at === null
    ? sql`${paperUses.used_at} >= ${window.starts_at}`
    : sql`(${paperUses.used_at} >= ${window.starts_at} and ${paperUses.used_at} < ${window.ends_at})`;

/** Open exceptions of the establishment inside the window become uses linked to the outage; answers how many. */
export async function linkOpenUses(
  conn: Conn,
  outage: { id: number; branch_id: number; starts_at: Date; ends_at: Date | null },
): Promise<number> {
  const rows = await conn
    .update(paperUses)
    .set({ state: 'linked', outage_id: outage.id })
    .where(and(eq(paperUses.branch_id, outage.branch_id), eq(paperUses.state, 'open'), isNull(paperUses.undone_at), inside(outage)))
    .returning({ id: paperUses.id });
  return rows.length;
}

/** Uses linked to the outage that its window no longer holds (or that lie at another establishment) are open again. */
export async function unlinkUsesOutside(
  conn: Conn,
  outage: { id: number; branch_id: number; starts_at: Date; ends_at: Date | null },
): Promise<number> {
  const rows = await conn
    .update(paperUses)
    .set({ state: 'open', outage_id: null })
    .where(
      and(
        eq(paperUses.outage_id, outage.id),
        eq(paperUses.state, 'linked'),
        sql`not (${paperUses.branch_id} = ${outage.branch_id}::int and ${inside(outage)})`,
      ),
    )
    .returning({ id: paperUses.id });
  return rows.length;
}

/** The exception, locked for its decision; undefined when there is none (or it was undone, or is linked to an outage). */
export async function lockException(conn: Conn, id: number): Promise<PaperUseRow | undefined> {
  const [row] = await conn
    .select()
    .from(paperUses)
    .where(and(eq(paperUses.id, id), isNull(paperUses.undone_at)))
    .for('update');
  return row;
}

export async function decide(
  conn: Conn,
  id: number,
  values: { state: 'justified' | 'rejected'; reason_code: string; reason_text: string; decided_by: number; decided_at: Date },
): Promise<void> {
  await conn.update(paperUses).set(values).where(eq(paperUses.id, id));
}

/** An exception as its list shows it: the use with its establishment, pad, route and the people's names. */
export interface ExceptionListRow {
  id: number;
  branch_id: number;
  branch_name: string;
  pad_id: number;
  pad_number: number;
  route_id: number;
  route_name: string;
  route_tin: string | null;
  company_name: string | null;
  number_from: number;
  number_to: number;
  series_role: string;
  used_at: Date | string;
  business_date: string;
  holder_user_id: number | null;
  holder_name: string | null;
  recorded_by: number;
  recorder_name: string | null;
  state: string;
  reason_code: string | null;
  reason_text: string | null;
  decided_by: number | null;
  decider_name: string | null;
  decided_at: Date | string | null;
  undone: boolean;
  total: number;
}

const LIST_COLUMNS = sql`pu.id, pu.branch_id, b.name as branch_name, pu.pad_id, p.number as pad_number, pu.route_id,
  r.name as route_name, r.tin as route_tin, c.name as company_name, pu.number_from, pu.number_to, pu.series_role, pu.used_at,
  pu.business_date::text as business_date, pu.holder_user_id, ${userNameById(sql`pu.holder_user_id`)} as holder_name,
  pu.recorded_by, ${userNameById(sql`pu.recorded_by`)} as recorder_name, pu.state, pu.reason_code, pu.reason_text,
  pu.decided_by, ${userNameById(sql`pu.decided_by`)} as decider_name, pu.decided_at, pu.undone_at is not null as undone, count(*) over () as total`;

const LIST_FROM = sql`from paper_uses pu join branches b on b.id = pu.branch_id join pads p on p.id = pu.pad_id
  join routes r on r.id = pu.route_id left join companies c on c.id = r.company_id`;

const numbers = (rows: ExceptionListRow[]) =>
  rows.map((row) => ({
    ...row,
    number_from: Number(row.number_from),
    number_to: Number(row.number_to),
    pad_number: Number(row.pad_number),
    total: Number(row.total),
  }));

/** Exceptions (never linked uses, never undone ones) by state and establishment: open first, then the newest use first. */
export async function exceptionPage(
  conn: Conn,
  q: { page: number; per_page: number; state?: string; branch_id?: number },
): Promise<{ rows: ExceptionListRow[]; total: number }> {
  const rows = numbers(
    await rowsOf<ExceptionListRow>(
      conn,
      sql`select ${LIST_COLUMNS} ${LIST_FROM}
          where pu.undone_at is null and pu.state <> 'linked'
            ${q.state ? sql`and pu.state = ${q.state}` : sql``}
            ${q.branch_id ? sql`and pu.branch_id = ${q.branch_id}::int` : sql``}
          order by (pu.state = 'open') desc, pu.used_at desc, pu.id desc
          limit ${q.per_page}::int offset ${offsetOf(q.page, q.per_page)}::int`,
    ),
  );
  if (rows.length > 0 || q.page === 1) return { rows, total: rows[0]?.total ?? 0 };
  const [{ total }] = await rowsOf<{ total: number }>(
    conn,
    sql`select count(*)::int as total from paper_uses pu where pu.undone_at is null and pu.state <> 'linked'
        ${q.state ? sql`and pu.state = ${q.state}` : sql``} ${q.branch_id ? sql`and pu.branch_id = ${q.branch_id}::int` : sql``}`,
  );
  return { rows, total: Number(total) };
}

export async function exceptionById(conn: Conn, id: number): Promise<ExceptionListRow | undefined> {
  const [row] = numbers(await rowsOf<ExceptionListRow>(conn, sql`select ${LIST_COLUMNS} ${LIST_FROM} where pu.id = ${id}::int`));
  return row;
}

/** The open exceptions, newest first, up to `limit`, each with the total count (Needs my action). */
export async function openExceptions(conn: Conn, limit: number): Promise<ExceptionListRow[]> {
  return numbers(
    await rowsOf<ExceptionListRow>(
      conn,
      sql`select ${LIST_COLUMNS} ${LIST_FROM} where pu.undone_at is null and pu.state = 'open'
          order by pu.used_at desc, pu.id desc limit ${limit}::int`,
    ),
  );
}

/** The open exceptions of a holder (a user, or a branch for the pads it holds itself) whose business date lies in the month. */
export async function openExceptionsInMonth(
  conn: Conn,
  holder: { type: 'user' | 'branch'; id: number },
  month: string,
): Promise<{ count: number; first: number | null }> {
  const who =
    holder.type === 'user' ? sql`holder_user_id = ${holder.id}::int` : sql`holder_user_id is null and branch_id = ${holder.id}::int`;
  const [row] = await rowsOf<{ count: number; first: number | null }>(
    conn,
    sql`select count(*)::int as count,
          (array_agg(number_from order by used_at, number_from))[1] as first
        from paper_uses
        where state = 'open' and undone_at is null and ${who}
          and business_date >= ${`${month}-01`}::date and business_date < (${`${month}-01`}::date + interval '1 month')`,
  );
  return { count: Number(row?.count ?? 0), first: row?.first === null || row?.first === undefined ? null : Number(row.first) };
}
