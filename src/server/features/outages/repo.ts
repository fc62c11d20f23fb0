import { and, desc, eq, isNull, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { OutageCause, OutageState } from '../../../shared/schemas/outages.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { outageEvidence, outages, paperUses } from '../../db/schema/paper-use.ts';
import { offsetOf } from '../../lib/pagination.ts';
import { cappedCount, listTotal } from '../../db/list-total.ts';
import { userNameById } from '../users/read-model.ts';

export type OutageRecord = typeof outages.$inferSelect;

/** An outage with what its list row shows beside it: who declared and closed it, its evidence and linked uses. */
export interface OutageListRecord extends OutageRecord {
  declared_by_name: string | null;
  closed_by_name: string | null;
  evidence_count: number;
  linked_uses: number;
  linked_numbers: number;
}

export interface OutageFilter {
  /** Only this establishment's (a branch-scoped reader's own, or the filter asked). */
  branch_id?: number;
  state?: OutageState;
  /** Days (YYYY-MM-DD) in `timeZone`: outages whose window touches any instant of from..to. */
  from?: string;
  to?: string;
  timeZone: string;
}

/** The outer row's id, qualified: Drizzle writes a column inside a select's `sql` unqualified, which a subquery would read as its own. */
const outerId = sql.raw('"outages"."id"');
const linkedUses = sql<number>`(select count(*)::int from ${paperUses} pu where pu.outage_id = ${outerId} and pu.state = 'linked' and pu.undone_at is null)`;
const linkedNumbers = sql<number>`(select coalesce(sum(pu.number_to - pu.number_from + 1), 0)::int from ${paperUses} pu where pu.outage_id = ${outerId} and pu.state = 'linked' and pu.undone_at is null)`;
const evidenceCount = sql<number>`(select count(*)::int from ${outageEvidence} ev where ev.outage_id = ${outerId})`;

const listColumns = {
  outage: outages,
  declared_by_name: userNameById(outages.declared_by),
  closed_by_name: userNameById(outages.closed_by),
  evidence_count: evidenceCount,
  linked_uses: linkedUses,
  linked_numbers: linkedNumbers,
};

type ListSelected = {
  outage: OutageRecord;
  declared_by_name: string | null;
  closed_by_name: string | null;
  evidence_count: number;
  linked_uses: number;
  linked_numbers: number;
};

const toListRecord = ({ outage, ...rest }: ListSelected): OutageListRecord => ({
  ...outage,
  ...rest,
  evidence_count: Number(rest.evidence_count),
  linked_uses: Number(rest.linked_uses),
  linked_numbers: Number(rest.linked_numbers),
});

function filterWhere(f: OutageFilter): SQL | undefined {
  return and(
    f.branch_id !== undefined ? eq(outages.branch_id, f.branch_id) : undefined,
    f.state === 'open' ? isNull(outages.ends_at) : undefined,
    f.state === 'closed' ? isNotNull(outages.ends_at) : undefined,
    f.to ? sql`${outages.starts_at} < ((${f.to}::date + 1)::timestamp at time zone ${f.timeZone})` : undefined,
    f.from ? sql`(${outages.ends_at} is null or ${outages.ends_at} > (${f.from}::date::timestamp at time zone ${f.timeZone}))` : undefined,
  );
}

/** A page of outages, newest start first, and their total (db/list-total.ts). */
export async function page(conn: Conn, f: OutageFilter, p: { page: number; per_page: number }) {
  const where = filterWhere(f);
  const offset = offsetOf(p.page, p.per_page);
  const matching = () => sql`select 1 from ${outages} where ${where ?? sql`true`}`;
  const [rows, [{ count }]] = await Promise.all([
    conn.select(listColumns).from(outages).where(where).orderBy(desc(outages.starts_at), desc(outages.id)).limit(p.per_page).offset(offset),
    rowsOf<{ count: number }>(conn, cappedCount(matching())),
  ]);
  return { rows: rows.map(toListRecord), total: await listTotal(conn, Number(count), matching, offset + rows.length) };
}

export async function findListRecord(conn: Conn, id: number): Promise<OutageListRecord | undefined> {
  const [row] = await conn.select(listColumns).from(outages).where(eq(outages.id, id));
  return row ? toListRecord(row) : undefined;
}

export async function find(conn: Conn, id: number): Promise<OutageRecord | undefined> {
  const [row] = await conn.select().from(outages).where(eq(outages.id, id));
  return row;
}

/** The outage, locked until the transaction ends: edits and closes of one outage queue. */
export async function lock(conn: Conn, id: number): Promise<OutageRecord | undefined> {
  const [row] = await conn.select().from(outages).where(eq(outages.id, id)).for('update');
  return row;
}

export interface OutageValues {
  starts_at: Date;
  ends_at: Date | null;
  cause: OutageCause;
  details: string | null;
  notice_reference: string | null;
}

export async function insert(conn: Conn, values: OutageValues & { branch_id: number; declared_by: number }): Promise<OutageRecord> {
  const [row] = await conn
    .insert(outages)
    .values({ ...values, closed_by: values.ends_at === null ? null : values.declared_by })
    .returning();
  return row;
}

/** Writes the outage's window and words; `closed_by` is set when the end is first given. */
export async function update(conn: Conn, id: number, values: OutageValues & { closed_by: number | null }): Promise<OutageRecord> {
  const [row] = await conn
    .update(outages)
    .set({ ...values, updated_at: sql`now()` })
    .where(eq(outages.id, id))
    .returning();
  return row;
}

/** The establishment's outage whose window overlaps [starts, ends) other than `exceptId`: the one the exclusion constraint met. */
export async function overlapping(
  conn: Conn,
  branchId: number,
  starts: Date,
  ends: Date | null,
  exceptId: number | null,
): Promise<Pick<OutageRecord, 'id' | 'starts_at' | 'ends_at'> | undefined> {
  const [row] = await conn
    .select({ id: outages.id, starts_at: outages.starts_at, ends_at: outages.ends_at })
    .from(outages)
    .where(
      and(
        eq(outages.branch_id, branchId),
        exceptId === null ? undefined : ne(outages.id, exceptId),
        sql`tstzrange(${outages.starts_at}, ${outages.ends_at}, '[)') && tstzrange(${starts.toISOString()}::timestamptz, ${ends?.toISOString() ?? null}::timestamptz, '[)')`,
      ),
    )
    .orderBy(outages.starts_at)
    .limit(1);
  return row;
}

/** A paper use linked to the outage, as a certified RAAF may rely on it: whose it is, and when. */
export interface LinkedUse {
  branch_id: number;
  holder_user_id: number | null;
  business_date: string;
  used_at: Date;
}

export async function linkedUsesOf(conn: Conn, outageId: number): Promise<LinkedUse[]> {
  return conn
    .select({
      branch_id: paperUses.branch_id,
      holder_user_id: paperUses.holder_user_id,
      business_date: paperUses.business_date,
      used_at: paperUses.used_at,
    })
    .from(paperUses)
    .where(and(eq(paperUses.outage_id, outageId), eq(paperUses.state, 'linked'), isNull(paperUses.undone_at)));
}

export interface EvidenceMeta {
  id: number;
  file_name: string;
  content_type: string;
  size: number;
  uploaded_by: number;
  uploaded_by_name: string | null;
  created_at: Date;
}

export async function evidenceOf(conn: Conn, outageId: number): Promise<EvidenceMeta[]> {
  const rows = await conn
    .select({
      id: outageEvidence.id,
      file_name: outageEvidence.file_name,
      content_type: outageEvidence.content_type,
      size: sql<number>`octet_length(${outageEvidence.bytes})`,
      uploaded_by: outageEvidence.uploaded_by,
      uploaded_by_name: userNameById(outageEvidence.uploaded_by),
      created_at: outageEvidence.created_at,
    })
    .from(outageEvidence)
    .where(eq(outageEvidence.outage_id, outageId))
    .orderBy(outageEvidence.id);
  return rows.map((row) => ({ ...row, size: Number(row.size) }));
}

export async function evidenceCountOf(conn: Conn, outageId: number): Promise<number> {
  const [row] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(outageEvidence)
    .where(eq(outageEvidence.outage_id, outageId));
  return Number(row?.n ?? 0);
}

export async function insertEvidence(
  conn: Conn,
  files: Array<{ outage_id: number; file_name: string; content_type: string; bytes: Buffer; uploaded_by: number }>,
): Promise<void> {
  if (files.length === 0) return;
  await conn.insert(outageEvidence).values(files);
}

export async function evidenceContent(
  conn: Conn,
  outageId: number,
  evidenceId: number,
): Promise<{ file_name: string; content_type: string; content: Buffer } | undefined> {
  const [row] = await conn
    .select({ file_name: outageEvidence.file_name, content_type: outageEvidence.content_type, content: outageEvidence.bytes })
    .from(outageEvidence)
    .where(and(eq(outageEvidence.outage_id, outageId), eq(outageEvidence.id, evidenceId)));
  return row;
}
