import { and, asc, desc, eq, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { seriesRange } from '../../../shared/format.ts';
import { ISSUANCE_STATUS, PAD_STATUS, SERIES_ENTRY } from '../../../shared/lookups.ts';
import { seriesFromStatus } from '../../../shared/pad-status.ts';
import { MAX_PAD_NUMBER, type Pad, type PadSort } from '../../../shared/schemas/pads.ts';
import type { NamedRef, SortOrder } from '../../../shared/schemas/common.ts';
import type { Conn } from '../../db/client.ts';
import { branches, companies, invoicePads, issuanceStatuses, padStatuses, pads, routes } from '../../db/schema.ts';
import { offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

export type PadRow = typeof pads.$inferSelect;

/** Namespace of the advisory locks that serialise pad numbering per route ("PADS"). */
const NUMBERING_LOCK = 0x50414453;

export const statusFromSeries = (series: ReadonlyArray<{ status: number }>) =>
  series.map((entry) => (entry.status === SERIES_ENTRY.USED ? '2' : '1')).join('');

export async function routeExists(conn: Conn, routeId: number): Promise<boolean> {
  const [row] = await conn.select({ id: routes.id }).from(routes).where(eq(routes.id, routeId)).limit(1);
  return Boolean(row);
}

export async function branchExists(conn: Conn, branchId: number): Promise<boolean> {
  const [row] = await conn.select({ id: branches.id }).from(branches).where(eq(branches.id, branchId)).limit(1);
  return Boolean(row);
}

/** Held until the transaction ends, so two generations on one route never pick the same pad numbers. */
export async function lockRouteNumbering(conn: Conn, routeId: number): Promise<void> {
  await conn.execute(sql`select pg_advisory_xact_lock(${NUMBERING_LOCK}::int, ${routeId}::int)`);
}

export async function maxPadNumber(conn: Conn, routeId: number): Promise<number> {
  const [row] = await conn
    .select({ max: sql<number>`coalesce(max(${pads.number}), 0)::int` })
    .from(pads)
    .where(eq(pads.route_id, routeId));
  return row.max;
}

/** All pads of one request in a single statement: pad i covers from + i*size .. min(from + (i+1)*size - 1, to). */
export async function insertGeneratedPads(
  conn: Conn,
  input: { routeId: number; from: number; to: number; size: number; firstNumber: number; holderBranchId: number | null; createdBy: number },
): Promise<number> {
  const count = Math.ceil((input.to - input.from + 1) / input.size);
  const start = sql`(${input.from}::bigint + g.i * ${input.size}::bigint)`;
  const end = sql`least(${input.from}::bigint + (g.i + 1) * ${input.size}::bigint - 1, ${input.to}::bigint)`;
  const result = await conn.execute(sql`
    insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, issuance_status_id, holder_branch_id, created_by)
    select ${input.routeId}::int, ${input.firstNumber}::int + g.i::int, ${start}, ${end}, repeat('1', (${end} - ${start} + 1)::int),
           ${PAD_STATUS.UNUSED}::smallint, ${ISSUANCE_STATUS.NOT_ISSUED}::smallint, ${input.holderBranchId}::int, ${input.createdBy}::int
    from generate_series(0::bigint, ${count - 1}::bigint) as g(i)`);
  return affectedRows(result) ?? count;
}

function affectedRows(result: unknown): number | null {
  const r = result as { rowCount?: number | null; affectedRows?: number | null };
  return r.rowCount ?? r.affectedRows ?? null;
}

export async function findOverlappingPad(conn: Conn, routeId: number, from: number, to: number) {
  const [row] = await conn
    .select({ id: pads.id, number: pads.number, series_from: pads.series_from, series_to: pads.series_to })
    .from(pads)
    .where(
      and(
        eq(pads.route_id, routeId),
        sql`int8range(${pads.series_from}, ${pads.series_to}, '[]') && int8range(${from}::bigint, ${to}::bigint, '[]')`,
      ),
    )
    .orderBy(asc(pads.series_from))
    .limit(1);
  return row;
}

const padColumns = {
  pad: pads,
  route: { id: routes.id, name: routes.name, tin: routes.tin, company_id: routes.company_id },
  company: { id: companies.id, name: companies.name },
  pad_status: { id: padStatuses.id, name: padStatuses.name },
  issuance_status: { id: issuanceStatuses.id, name: issuanceStatuses.name },
};

type JoinedRow = {
  pad: PadRow;
  route: { id: number; name: string; tin: string; company_id: number };
  company: NamedRef;
  pad_status: NamedRef;
  issuance_status: NamedRef;
};

function toPad(row: JoinedRow): Pad {
  const p = row.pad;
  return {
    id: p.id,
    route_id: p.route_id,
    route: { ...row.route, company: row.company },
    number: p.number,
    series_number: seriesRange(p.series_from, p.series_to),
    series_from: p.series_from,
    series_to: p.series_to,
    pad_status_id: p.pad_status_id,
    pad_status: row.pad_status,
    issuance_status_id: p.issuance_status_id,
    issuance_status: row.issuance_status,
    remarks: p.remarks,
    series: seriesFromStatus(p.series_from, p.series_status),
    holder_user_id: p.holder_user_id,
    holder_branch_id: p.holder_branch_id,
    locked_by_invoice_id: p.locked_by_invoice_id,
    updated_at: p.updated_at.toISOString(),
  };
}

function selectPads(conn: Conn) {
  return conn
    .select(padColumns)
    .from(pads)
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, pads.issuance_status_id));
}

/**
 * The series text contains the term, or (for a number) the pad has that pad number or holds that
 * receipt. Each arm runs on its own index, so a search costs what it finds, not the table's size: the
 * series text ("from-to", digits and one hyphen) contains the term exactly when one of its suffixes
 * starts with it (pad_series_suffixes, a GIN prefix lookup; other text matches nothing), the exclusion
 * constraint's GiST finds the range, and the route/number index is probed once per route. The ids
 * come back as one array, so the pads themselves are read by primary key whatever the estimates say.
 */
function searchCondition(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const arms: SQL[] = [];
  if (/^[0-9-]+$/.test(search)) {
    arms.push(sql`select s.id from pads s where pad_series_suffixes(s.series_from, s.series_to) @@ ${`'${search}':*`}::tsquery`);
  }
  if (/^\d{1,15}$/.test(search)) {
    const n = Number(search);
    if (n <= MAX_PAD_NUMBER) {
      arms.push(sql`select s.id from routes r cross join lateral (select p.id from pads p where p.route_id = r.id and p.number = ${n}::int offset 0) s`);
    }
    arms.push(sql`select s.id from pads s where int8range(s.series_from, s.series_to, '[]') @> ${n}::bigint`);
  }
  if (arms.length === 0) return sql`false`;
  return sql`${pads.id} = any(array(${sql.join(arms, sql` union `)}))`;
}

/** The named pads with their names joined on, in the given order; `= any(array)` keeps it on the primary key whatever the statistics say. */
async function padsByIds(conn: Conn, ids: number[], order: SQL[]): Promise<Pad[]> {
  if (ids.length === 0) return [];
  const rows = await selectPads(conn)
    .where(sql`${pads.id} = any(${`{${ids.join(',')}}`}::int[])`)
    .orderBy(...order);
  return (rows as JoinedRow[]).map(toPad);
}

/** Pages over pad ids first and joins the names onto those ten rows only, so late pages stay cheap. */
async function page(conn: Conn, where: SQL | undefined, order: SQL[], pageNo: number, perPage: number) {
  const [idRows, [{ total }]] = await Promise.all([
    conn
      .select({ id: pads.id })
      .from(pads)
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset(offsetOf(pageNo, perPage)),
    conn.select({ total: sql<number>`count(*)::int` }).from(pads).where(where),
  ]);
  return { data: await padsByIds(conn, idRows.map((r) => r.id), order), total };
}

/**
 * Newest pads first, without counting or offsetting the table: pad_id_blocks (kept exact by triggers)
 * gives the total and the block of 1,024 ids the page starts in, and the page is read from there, at
 * most 1,023 index entries in. One statement, so the total and the page come from one snapshot.
 */
async function newestPage(conn: Conn, routeId: number | undefined, pageNo: number, perPage: number) {
  const offset = offsetOf(pageNo, perPage);
  const routeBlocks = routeId === undefined ? sql`` : sql`where route_id = ${routeId}::int`;
  const routePads = routeId === undefined ? sql`` : sql`and p.route_id = ${routeId}::int`;
  const result = await conn.execute(sql`
    with b as (select block, sum(pads)::bigint as n from pad_id_blocks ${routeBlocks} group by block),
    c as (select block, n, sum(n) over (order by block desc) as upto from b),
    k as (select block, ${offset}::bigint - (upto - n) as skip from c where upto > ${offset}::bigint order by block desc limit 1)
    select (select coalesce(sum(n), 0)::int from b) as total,
           (select array_agg(s.id order by s.id desc) from k cross join lateral (
              select p.id from pads p where p.id < (k.block + 1) << 10 ${routePads}
              order by p.id desc offset k.skip limit ${perPage}::int) s) as ids`);
  const [row] = (result as unknown as { rows: Array<{ total: number; ids: number[] | null }> }).rows;
  return { data: await padsByIds(conn, row.ids ?? [], [desc(pads.id)]), total: Number(row.total) };
}

/** The Inventories columns a pad list sorts by (issue 14); Route follows the (route, number) unique index. */
const sortColumns: Record<PadSort, AnyColumn | AnyColumn[]> = {
  route: [pads.route_id, pads.number],
  number: pads.number,
  series: pads.series_from,
  pad_status: pads.pad_status_id,
  issuance_status: pads.issuance_status_id,
};

export async function listPads(conn: Conn, query: { page: number; per_page: number; search?: string; route?: number; sort?: PadSort; order?: SortOrder }) {
  if (!query.search && !query.sort) return newestPage(conn, query.route, query.page, query.per_page);
  const where = and(query.route ? eq(pads.route_id, query.route) : undefined, searchCondition(query.search));
  return page(conn, where, sortedBy(sortColumns, query, pads.id, [desc(pads.id)]), query.page, query.per_page);
}

/** Spec §4 "Pads available for issuing", minus pads an in-transit invoice carries. */
export async function listAvailablePads(conn: Conn, query: { page: number; per_page: number; search?: string; route_id?: number }) {
  const where = and(
    query.route_id ? eq(pads.route_id, query.route_id) : undefined,
    eq(pads.issuance_status_id, ISSUANCE_STATUS.NOT_ISSUED),
    inArray(pads.pad_status_id, [PAD_STATUS.UNUSED, PAD_STATUS.PARTIALLY_USED]),
    isNull(pads.locked_by_invoice_id),
    searchCondition(query.search),
  );
  return page(conn, where, [asc(pads.route_id), asc(pads.number)], query.page, query.per_page);
}

export async function findPad(conn: Conn, id: number): Promise<Pad | undefined> {
  const [row] = await selectPads(conn).where(eq(pads.id, id)).limit(1);
  return row ? toPad(row as JoinedRow) : undefined;
}

export async function lockPad(conn: Conn, id: number): Promise<PadRow | undefined> {
  const [row] = await conn.select().from(pads).where(eq(pads.id, id)).for('update');
  return row;
}

export async function updatePad(conn: Conn, id: number, values: Partial<typeof pads.$inferInsert>): Promise<void> {
  await conn
    .update(pads)
    .set({ ...values, updated_at: sql`date_trunc('milliseconds', greatest(clock_timestamp(), ${pads.updated_at} + interval '1 millisecond'))` })
    .where(eq(pads.id, id));
}

export async function padOnAnyInvoice(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn.select({ id: invoicePads.pad_id }).from(invoicePads).where(eq(invoicePads.pad_id, id)).limit(1);
  return Boolean(row);
}

export async function deletePad(conn: Conn, id: number): Promise<void> {
  await conn.delete(pads).where(eq(pads.id, id));
}

export async function padStatusList(conn: Conn): Promise<NamedRef[]> {
  return conn.select({ id: padStatuses.id, name: padStatuses.name }).from(padStatuses).orderBy(asc(padStatuses.id));
}

export async function issuanceStatusList(conn: Conn): Promise<NamedRef[]> {
  return conn.select({ id: issuanceStatuses.id, name: issuanceStatuses.name }).from(issuanceStatuses).orderBy(asc(issuanceStatuses.id));
}

/** Fresh statistics after a bulk insert, so searches and issuing keep their index plans (autovacuum would get there later). */
export async function analyzePads(conn: Conn): Promise<void> {
  await conn.execute(sql`analyze pads`);
}
