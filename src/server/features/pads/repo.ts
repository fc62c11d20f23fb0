import { and, asc, desc, eq, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { AVAILABLE_FOR_ISSUING } from '../../../shared/custody-rules.ts';
import { heldByText, seriesRange } from '../../../shared/format.ts';
import { ISSUANCE_STATUS, PAD_STATUS, SERIES_ENTRY, type FormType } from '../../../shared/lookups.ts';
import { seriesFromStatus, seriesSummary } from '../../../shared/pad-status.ts';
import type { PadListRow } from '../../../shared/list-columns.ts';
import { MAX_PAD_NUMBER, type Pad, type PadSort } from '../../../shared/schemas/pads.ts';
import { COUNT_CAP, type NamedRef, type SortOrder } from '../../../shared/schemas/common.ts';
import type { HeldPad } from '../../../shared/schemas/custodies.ts';
import type { Conn } from '../../db/client.ts';
import { streamRows } from '../../db/stream.ts';
import { Bindings, literal, preparedPerShape, type Bind } from '../../db/prepared.ts';
import { rowsOf, toNumbers } from '../../db/rows.ts';
import { branches, companies, invoicePads, issuanceStatuses, padStatuses, pads, registeredSeries, routes } from '../../db/schema.ts';
import type { RegisteredSeriesRef } from '../../../shared/schemas/registered-series.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

export type PadRow = typeof pads.$inferSelect;

/** Namespace of the advisory locks that serialise pad numbering per route ("PADS"). */
const NUMBERING_LOCK = 0x50414453;

/** The stored series text of the API's entries: one digit a number, the entry's status (1–4, docs/design.md §9). */
export const statusFromSeries = (series: ReadonlyArray<{ status: number }>) =>
  series.map((entry) => (entry.status >= SERIES_ENTRY.USED && entry.status <= SERIES_ENTRY.LOST ? String(entry.status) : '1')).join('');

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
    insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, issuance_status_id, holder_branch_id, created_by,
                      registered_series_id)
    select ${input.routeId}::int, ${input.firstNumber}::int + g.i::int, ${start}, ${end}, repeat('1', (${end} - ${start} + 1)::int),
           ${PAD_STATUS.UNUSED}::smallint, ${ISSUANCE_STATUS.NOT_ISSUED}::smallint, ${input.holderBranchId}::int, ${input.createdBy}::int,
           ${seriesContaining(sql`${input.routeId}::int`, start, end)}
    from generate_series(0::bigint, ${count - 1}::bigint) as g(i)`);
  return affectedRows(result) ?? count;
}

/** docs/design.md §10: the registered series of the route that contains from..to whole (the exclusion constraint's index finds it). */
const seriesContaining = (routeId: SQL, from: SQL, to: SQL) =>
  sql`(select rs.id from registered_series rs where rs.route_id = ${routeId}
        and int8range(rs.series_from, rs.series_to, '[]') @> int8range(${from}, ${to}, '[]'))`;

/** The numbers of from..to on the route that no registered series covers, as the first such run (null: all covered). */
export async function firstUnregisteredRun(conn: Conn, routeId: number, from: number, to: number): Promise<[number, number] | null> {
  const rows = await rowsOf<{ series_from: number; series_to: number }>(
    conn,
    sql`select series_from, series_to from registered_series
        where route_id = ${routeId}::int and int8range(series_from, series_to, '[]') && int8range(${from}::bigint, ${to}::bigint, '[]')
        order by series_from`,
  );
  let next = from;
  for (const row of rows) {
    const start = Number(row.series_from);
    if (start > next) return [next, Math.min(start - 1, to)];
    next = Math.max(next, Number(row.series_to) + 1);
    if (next > to) return null;
  }
  return next <= to ? [next, to] : null;
}

/** docs/design.md §10: after a series is registered or changed, the route's pads inside it carry it and those no longer inside drop it. */
export async function linkPadsToSeries(conn: Conn, series: { id: number; route_id: number; series_from: number; series_to: number }) {
  await conn.execute(sql`update pads set registered_series_id = null
    where registered_series_id = ${series.id}::int
      and not (route_id = ${series.route_id}::int and series_from >= ${series.series_from}::bigint and series_to <= ${series.series_to}::bigint)`);
  await conn.execute(sql`update pads set registered_series_id = ${series.id}::int
    where route_id = ${series.route_id}::int and registered_series_id is distinct from ${series.id}::int
      and int8range(series_from, series_to, '[]') <@ int8range(${series.series_from}::bigint, ${series.series_to}::bigint, '[]')`);
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

/** The holder's name and branch, read by id (docs/design.md §10 "Held by"). */
const holderUserName = sql<
  string | null
>`(select concat_ws(' ', nullif(trim(u.first_name), ''), nullif(trim(u.middle_name), ''), nullif(trim(u.last_name), '')) from users u where u.id = ${pads.holder_user_id})`;
const holderBranchName = sql<string | null>`(select b.name from branches b where b.id = ${pads.holder_branch_id})`;
const holderColumns = { user: holderUserName.as('holder_user_name'), branch: holderBranchName.as('holder_branch_name') };

const padColumns = {
  holder: holderColumns,
  pad: pads,
  route: { id: routes.id, name: routes.name, tin: routes.tin, company_id: routes.company_id },
  company: { id: companies.id, name: companies.name },
  pad_status: { id: padStatuses.id, name: padStatuses.name },
  issuance_status: { id: issuanceStatuses.id, name: issuanceStatuses.name },
  registered_series: seriesRefColumns(),
};

/** docs/design.md §10: what a pad shows of its registered series, left-joined (null outside every series). */
function seriesRefColumns() {
  return {
    id: registeredSeries.id,
    atp_number: registeredSeries.atp_number,
    atp_date: registeredSeries.atp_date,
    form_type: sql<FormType>`${registeredSeries.form_type}`,
  };
}

type JoinedRow = {
  holder: { user: string | null; branch: string | null };
  pad: PadRow;
  route: { id: number; name: string; tin: string; company_id: number };
  company: NamedRef;
  pad_status: NamedRef;
  issuance_status: NamedRef;
  registered_series: RegisteredSeriesRef | null;
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
    ...seriesSummary(p.series_from, p.series_status),
    holder_user_id: p.holder_user_id,
    holder_branch_id: p.holder_branch_id,
    held_by: heldByText(row.holder),
    locked_by_invoice_id: p.locked_by_invoice_id,
    registered_series: row.registered_series,
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
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, pads.issuance_status_id))
    .leftJoin(registeredSeries, eq(registeredSeries.id, pads.registered_series_id));
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
      arms.push(
        sql`select s.id from routes r cross join lateral (select p.id from pads p where p.route_id = r.id and p.number = ${n}::int offset 0) s`,
      );
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

/** The pads of the given ids, in id order; ids that match no pad are left out. */
export const padsWithIds = (conn: Conn, ids: number[]): Promise<Pad[]> => padsByIds(conn, ids, [asc(pads.id)]);

/**
 * docs/design.md §9 physical counts: the pads the books place with a user, or with a branch (its own stock and its
 * users'), that no invoice is carrying, in route and number order.
 */
export async function padsPlacedWith(conn: Conn, holder: { userId: number | null; branchId: number | null }): Promise<PadView[]> {
  const where =
    holder.userId !== null
      ? sql`${pads.holder_user_id} = ${holder.userId}::int`
      : sql`(${pads.holder_branch_id} = ${holder.branchId}::int or ${pads.holder_user_id} in (select id from users where branch_id = ${holder.branchId}::int))`;
  return conn
    .select(padViewColumns)
    .from(pads)
    .where(and(where, isNull(pads.locked_by_invoice_id)))
    .orderBy(asc(pads.route_id), asc(pads.number));
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
    conn.select({ total: sql<number>`count(*)::int` }).from(
      conn
        .select({ one: sql`1` })
        .from(pads)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('capped'),
    ),
  ]);
  return {
    data: await padsByIds(
      conn,
      idRows.map((r) => r.id),
      order,
    ),
    total,
  };
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

/** The Inventories columns a pad list sorts by; Route follows the (route, number) unique index. */
const sortColumns: Record<PadSort, AnyColumn | AnyColumn[]> = {
  route: [pads.route_id, pads.number],
  number: pads.number,
  series: pads.series_from,
  pad_status: pads.pad_status_id,
  issuance_status: pads.issuance_status_id,
};

/** The pads a holder filter lets through: held by this user, or by anyone at this branch (its stock and its staff). */
export type HolderCondition = { userId: number } | { branchId: number | null } | null;

const holderWhere = (holder: HolderCondition | undefined) =>
  !holder
    ? undefined
    : 'userId' in holder
      ? eq(pads.holder_user_id, holder.userId)
      : holder.branchId === null
        ? sql`false`
        : eq(pads.holder_branch_id, holder.branchId);

export async function listPads(
  conn: Conn,
  query: { page: number; per_page: number; search?: string; route?: number; sort?: PadSort; order?: SortOrder; holder?: HolderCondition },
) {
  if (!query.search && !query.sort && !query.holder) return newestPage(conn, query.route, query.page, query.per_page);
  const where = and(query.route ? eq(pads.route_id, query.route) : undefined, holderWhere(query.holder), searchCondition(query.search));
  return page(conn, where, sortedBy(sortColumns, query, pads.id, [desc(pads.id)]), query.page, query.per_page);
}

/** A row of the Inventories export as the cursor reads it: the pad's own fields and the names the list shows. */
interface PadExportRow {
  id: number;
  number: number;
  series_from: number | string;
  series_to: number | string;
  series_status: string;
  remarks: string | null;
  route_id: number;
  route_name: string;
  route_tin: string;
  company_id: number;
  company_name: string;
  pad_status_id: number;
  pad_status_name: string;
  issuance_status_id: number;
  issuance_status_name: string;
  holder_user_name: string | null;
  holder_branch_name: string | null;
}

/**
 * Every pad the Inventories list shows for this search and route, in its order, batch by batch (docs/design.md
 * §10 Export): one cursor reads the pads with their names joined on, as plain rows, so memory holds one batch
 * and each row costs one pass through the join.
 */
export async function streamPadList(
  conn: Conn,
  query: { search?: string; route?: number; sort?: PadSort; order?: SortOrder; holder?: HolderCondition },
  onBatch: (rows: PadListRow[]) => Promise<void>,
): Promise<void> {
  const where = and(query.route ? eq(pads.route_id, query.route) : undefined, holderWhere(query.holder), searchCondition(query.search));
  const order = query.sort ? sortedBy(sortColumns, query, pads.id, [desc(pads.id)]) : [desc(pads.id)];
  const rows = sql`select ${pads.id}, ${pads.number}, ${pads.series_from}, ${pads.series_to}, ${pads.series_status}, ${pads.remarks},
      ${pads.route_id}, ${routes.name} as route_name, ${routes.tin} as route_tin, ${routes.company_id}, ${companies.name} as company_name,
      ${pads.pad_status_id}, ${padStatuses.name} as pad_status_name, ${pads.issuance_status_id}, ${issuanceStatuses.name} as issuance_status_name,
      ${holderUserName} as holder_user_name, ${holderBranchName} as holder_branch_name
    from ${pads}
    join ${routes} on ${routes.id} = ${pads.route_id}
    join ${companies} on ${companies.id} = ${routes.company_id}
    join ${padStatuses} on ${padStatuses.id} = ${pads.pad_status_id}
    join ${issuanceStatuses} on ${issuanceStatuses.id} = ${pads.issuance_status_id}
    where ${where ?? sql`true`}
    order by ${sql.join(order, sql`, `)}`;
  await streamRows<PadExportRow>(
    conn,
    rows,
    (batch) =>
      onBatch(
        batch.map((row) => ({
          id: row.id,
          route: {
            id: row.route_id,
            name: row.route_name,
            tin: row.route_tin,
            company_id: row.company_id,
            company: { id: row.company_id, name: row.company_name },
          },
          number: row.number,
          series_number: seriesRange(row.series_from, row.series_to),
          next_number: seriesSummary(Number(row.series_from), row.series_status).next_number,
          pad_status: { id: row.pad_status_id, name: row.pad_status_name },
          issuance_status: { id: row.issuance_status_id, name: row.issuance_status_name },
          remarks: row.remarks,
          held_by: heldByText({ user: row.holder_user_name, branch: row.holder_branch_name }),
        })),
      ),
    1_000,
  );
}

/** docs/spec.md §4 "Pads available for issuing" (src/shared/custody-rules.ts), as a condition on `pads`. */
export const availableForIssuing = () =>
  and(
    eq(pads.issuance_status_id, AVAILABLE_FOR_ISSUING.issuance_status_id),
    inArray(pads.pad_status_id, [...AVAILABLE_FOR_ISSUING.pad_status_ids]),
    AVAILABLE_FOR_ISSUING.locked ? undefined : isNull(pads.locked_by_invoice_id),
    AVAILABLE_FOR_ISSUING.lostNumbers ? undefined : sql`position('4' in ${pads.series_status}) = 0`,
  ) as SQL;

/** The issue form's list: pads available for issuing, of one route or all. */
export async function listAvailablePads(conn: Conn, query: { page: number; per_page: number; search?: string; route_id?: number }) {
  const where = and(query.route_id ? eq(pads.route_id, query.route_id) : undefined, availableForIssuing(), searchCondition(query.search));
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
    .set({
      ...values,
      updated_at: sql`date_trunc('milliseconds', greatest(clock_timestamp(), ${pads.updated_at} + interval '1 millisecond'))`,
    })
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

const seriesText = sql<string>`(${pads.series_from}::text || '-' || ${pads.series_to}::text)`;

/** A pad by its number, its series text, or a receipt number inside its range. */
export function padMatches(search: string, bind: Bind = literal): SQL {
  const text = sql`${seriesText} ilike ${bind('padPattern', likePattern(search))}`;
  if (!/^\d{1,15}$/.test(search)) return text;
  const n = Number(search);
  const byNumber = n <= 2_147_483_647 ? eq(pads.number, bind('padNumber', n)) : undefined;
  const receipt = bind('receipt', n);
  return or(byNumber, text, and(sql`${pads.series_from} <= ${receipt}`, sql`${pads.series_to} >= ${receipt}`)) as SQL;
}

const heldWhere = (userId: number, search: string | undefined, { bind }: Bindings) =>
  and(eq(pads.holder_user_id, bind('userId', userId)), isNull(pads.locked_by_invoice_id), search ? padMatches(search, bind) : undefined);

const prepareCount = (conn: Conn, name: string, where: SQL | undefined) =>
  conn
    .select({ count: sql<number>`count(*)::int` })
    .from(
      conn
        .select({ one: sql`1` })
        .from(pads)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('capped'),
    )
    .prepare(name);

const heldOrder = [routes.name, pads.route_id, pads.number];

/**
 * The page's pad ids first, sorted with the route alone, so statuses, holders and series are joined for that page only;
 * the sort reads every held pad anyway, so the same statement counts them.
 */
const heldPage = (conn: Conn, where: SQL | undefined) =>
  conn
    .select({ id: pads.id, total: sql<number>`count(*) over ()::int`.as('total') })
    .from(pads)
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .where(where)
    .orderBy(...heldOrder)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('held_page');

const prepareRows = (conn: Conn, name: string, where: SQL | undefined) => {
  const page = heldPage(conn, where);
  return conn
    .select({
      pad: {
        id: pads.id,
        route_id: pads.route_id,
        number: pads.number,
        series_from: pads.series_from,
        series_to: pads.series_to,
        pad_status_id: pads.pad_status_id,
        issuance_status_id: pads.issuance_status_id,
        remarks: pads.remarks,
        series_status: pads.series_status,
        holder_user_id: pads.holder_user_id,
        holder_branch_id: pads.holder_branch_id,
        locked_by_invoice_id: pads.locked_by_invoice_id,
        updated_at: pads.updated_at,
      },
      route: { id: routes.id, name: routes.name, tin: routes.tin, company_id: routes.company_id },
      company: { id: companies.id, name: companies.name },
      padStatus: { id: padStatuses.id, name: padStatuses.name },
      issuanceStatus: { id: issuanceStatuses.id, name: issuanceStatuses.name },
      holder: holderColumns,
      registeredSeries: seriesRefColumns(),
      total: page.total,
    })
    .from(page)
    .innerJoin(pads, eq(pads.id, page.id))
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, pads.issuance_status_id))
    .leftJoin(registeredSeries, eq(registeredSeries.id, pads.registered_series_id))
    .orderBy(...heldOrder)
    .prepare(name);
};

const countOfShape = preparedPerShape<ReturnType<typeof prepareCount>>('held_pads_count');
const rowsOfShape = preparedPerShape<ReturnType<typeof prepareRows>>('held_pads_rows');

/**
 * One page of the pads a user holds and may move (not locked by an invoice in transit), with their count; statements are
 * prepared per search shape. Only a page past the end needs the count on its own.
 */
export async function listHeldPads(
  conn: Conn,
  options: { userId: number; search?: string; page: number; perPage: number },
): Promise<{ rows: HeldPad[]; total: number }> {
  const bindings = new Bindings();
  const where = heldWhere(options.userId, options.search, bindings);
  const { values } = bindings;
  const rows = await rowsOfShape(conn, bindings.shape, (name) => prepareRows(conn, name, where)).execute({
    ...values,
    limit: options.perPage,
    offset: offsetOf(options.page, options.perPage),
  });
  const total =
    rows[0]?.total ??
    (options.page === 1
      ? 0
      : (await countOfShape(conn, bindings.shape, (name) => prepareCount(conn, name, where)).execute(values))[0].count);
  return {
    rows: rows.map(({ pad: { series_status, updated_at, ...pad }, total: _total, ...r }) => ({
      ...pad,
      updated_at: updated_at.toISOString(),
      route: { ...r.route, company: r.company },
      series_number: seriesRange(pad.series_from, pad.series_to),
      series: seriesFromStatus(pad.series_from, series_status),
      ...seriesSummary(pad.series_from, series_status),
      pad_status: r.padStatus,
      issuance_status: r.issuanceStatus,
      held_by: heldByText(r.holder),
      registered_series: r.registeredSeries,
    })),
    total,
  };
}

/** The pad columns the ledger reads: the fast current view its events must fold to (docs/design.md §8). */
export interface PadView {
  id: number;
  route_id: number;
  number: number;
  series_from: number;
  series_to: number;
  series_status: string;
  pad_status_id: number;
  holder_user_id: number | null;
  holder_branch_id: number | null;
  locked_by_invoice_id: number | null;
  remarks: string | null;
  registered_series_id: number | null;
}

const padViewColumns = {
  id: pads.id,
  route_id: pads.route_id,
  number: pads.number,
  series_from: pads.series_from,
  series_to: pads.series_to,
  series_status: pads.series_status,
  pad_status_id: pads.pad_status_id,
  holder_user_id: pads.holder_user_id,
  holder_branch_id: pads.holder_branch_id,
  locked_by_invoice_id: pads.locked_by_invoice_id,
  remarks: pads.remarks,
  registered_series_id: pads.registered_series_id,
};

/** Row locks in id order, so two writers of one pad's chain take turns and never deadlock. */
export async function lockPadRows(conn: Conn, padIds: number[]): Promise<void> {
  if (padIds.length === 0) return;
  await conn.select({ id: pads.id }).from(pads).where(inArray(pads.id, padIds)).orderBy(asc(pads.id)).for('update');
}

export async function padViews(conn: Conn, padIds: number[]): Promise<PadView[]> {
  if (padIds.length === 0) return [];
  return conn.select(padViewColumns).from(pads).where(inArray(pads.id, padIds)).orderBy(asc(pads.id));
}

export async function invoicePadViews(conn: Conn, invoiceId: number): Promise<PadView[]> {
  return conn
    .select(padViewColumns)
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .where(eq(invoicePads.invoice_id, invoiceId))
    .orderBy(asc(pads.id));
}

/** A page of pads in id order after `afterId`, for the verifier. */
export async function padViewsAfter(conn: Conn, afterId: number, limit: number): Promise<PadView[]> {
  return conn
    .select(padViewColumns)
    .from(pads)
    .where(sql`${pads.id} > ${afterId}`)
    .orderBy(asc(pads.id))
    .limit(limit);
}

export async function padView(conn: Conn, id: number): Promise<PadView | undefined> {
  const [row] = await conn.select(padViewColumns).from(pads).where(eq(pads.id, id));
  return row;
}

/** Pads of any route (or one) whose series contains the number; the exclusion constraint's GiST index answers it. */
export async function padsContaining(conn: Conn, receipt: number, routeId?: number): Promise<PadView[]> {
  return conn
    .select(padViewColumns)
    .from(pads)
    .where(
      and(
        sql`int8range(${pads.series_from}, ${pads.series_to}, '[]') @> ${receipt}::bigint`,
        routeId ? eq(pads.route_id, routeId) : undefined,
      ),
    )
    .orderBy(asc(pads.route_id));
}

export interface CountRow {
  id: number;
  name: string;
  count: number;
}

/** Every pad status with its count, zero included, in the lookup's order. */
export async function padsByStatus(conn: Conn): Promise<CountRow[]> {
  const rows = await rowsOf<CountRow>(
    conn,
    sql`select s.id, s.name, coalesce(c.n, 0) as count
        from pad_statuses s left join (select pad_status_id, count(*) as n from pads group by pad_status_id) c on c.pad_status_id = s.id
        order by s.id`,
  );
  return toNumbers(rows, ['id', 'count']);
}

/** The branches holding the most pads; the rest summed, and the pads no branch holds. */
export async function padsByBranch(conn: Conn, limit: number): Promise<{ top: CountRow[]; rest: number; unheld: number }> {
  const rows = toNumbers(
    await rowsOf<CountRow & { rank: number }>(
      conn,
      sql`select coalesce(b.id, 0) as id, coalesce(b.name, '') as name, c.n as count, row_number() over (order by c.n desc, b.name) as rank
          from (select holder_branch_id, count(*) as n from pads group by holder_branch_id) c
          left join branches b on b.id = c.holder_branch_id`,
    ),
    ['id', 'count', 'rank'],
  );
  const held = rows.filter((row) => row.id !== 0);
  return {
    top: held.slice(0, limit).map(({ id, name, count }) => ({ id, name, count })),
    rest: held.slice(limit).reduce((sum, row) => sum + row.count, 0),
    unheld: rows.find((row) => row.id === 0)?.count ?? 0,
  };
}

export interface StockRow {
  id: number;
  route: string;
  company: string;
  tin: string | null;
  pads: number;
  numbers: number;
}

/** The head office's stock available for issuing, per route, the routes with most pads first. */
export async function stockByRoute(conn: Conn, headOfficeId: number, limit: number): Promise<StockRow[]> {
  const rows = await rowsOf<StockRow>(
    conn,
    sql`select r.id, r.name as route, c.name as company, r.tin, s.pads, s.numbers
        from (select route_id, count(*) as pads,
                     sum(length(series_status) - length(replace(series_status, '1', ''))) as numbers
              from pads
              where ${availableForIssuing()} and holder_user_id is null and holder_branch_id = ${headOfficeId}::int
              group by route_id) s
        join routes r on r.id = s.route_id
        join companies c on c.id = r.company_id
        order by s.pads desc, r.name
        limit ${limit}`,
  );
  return toNumbers(rows, ['id', 'pads', 'numbers']);
}

/** docs/design.md §9: a pad whose ledger holds anything but its receipt has a history that must stay. */
export async function hasEventsBeyondReceipt(conn: Conn, padId: number): Promise<boolean> {
  const result = (await conn.execute(
    sql`select exists(select 1 from pad_events where pad_id = ${padId}::int and kind <> 'received') as found`,
  )) as unknown as {
    rows: Array<{ found: boolean }>;
  };
  return Boolean(result.rows[0]?.found);
}

/** Another pad of the route, held by the same holder, partly used: the second open booklet (docs/design.md §9 sequence). */
export async function otherPartlyUsedPad(
  conn: Conn,
  pad: { id: number; route_id: number; holder_user_id: number | null; holder_branch_id: number | null },
): Promise<number | null> {
  const holder =
    pad.holder_user_id !== null
      ? eq(pads.holder_user_id, pad.holder_user_id)
      : and(isNull(pads.holder_user_id), eq(pads.holder_branch_id, pad.holder_branch_id ?? 0));
  const [row] = await conn
    .select({ number: pads.number })
    .from(pads)
    .where(and(eq(pads.route_id, pad.route_id), sql`${pads.id} <> ${pad.id}`, holder, eq(pads.pad_status_id, PAD_STATUS.PARTIALLY_USED)))
    .orderBy(asc(pads.number))
    .limit(1);
  return row?.number ?? null;
}

/** What the rules of docs/design.md §9 look at beyond the pad: the branch of a holding user and the courier carrying it. */
export async function padRuleFacts(
  conn: Conn,
  pad: PadRow,
): Promise<{ holder_user_branch_id: number | null; carrier_user_id: number | null }> {
  const result = (await conn.execute(sql`
    select (select u.branch_id from users u where u.id = ${pad.holder_user_id}::int) as holder_user_branch_id,
           (select i.assigned_user_id from invoices i where i.id = ${pad.locked_by_invoice_id}::int) as carrier_user_id`)) as unknown as {
    rows: Array<{ holder_user_branch_id: number | null; carrier_user_id: number | null }>;
  };
  const row = result.rows[0];
  return { holder_user_branch_id: row?.holder_user_branch_id ?? null, carrier_user_id: row?.carrier_user_id ?? null };
}

/** docs/design.md §10: the registered series a pad lies inside, as find-receipt shows it. */
export async function registeredSeriesRefOf(conn: Conn, seriesId: number | null): Promise<RegisteredSeriesRef | null> {
  if (seriesId === null) return null;
  const [row] = await conn.select(seriesRefColumns()).from(registeredSeries).where(eq(registeredSeries.id, seriesId));
  return row ?? null;
}

/** docs/design.md §10: each named pad's number and registered series, for the inventory of unused forms. */
export async function padSeriesOf(
  conn: Conn,
  padIds: number[],
): Promise<Map<number, { number: number; registered_series_id: number | null }>> {
  const result = new Map<number, { number: number; registered_series_id: number | null }>();
  for (let start = 0; start < padIds.length; start += 10_000) {
    const rows = await rowsOf<{ id: number; number: number; registered_series_id: number | null }>(
      conn,
      sql`select id, number, registered_series_id from pads
          where id in (select value::int from json_array_elements_text(${JSON.stringify(padIds.slice(start, start + 10_000))}::json))`,
    );
    for (const row of rows) result.set(Number(row.id), { number: Number(row.number), registered_series_id: row.registered_series_id });
  }
  return result;
}

const OPENING_CHUNK = 5000;

const asJson = (rows: Array<{ line: number; routeId: number; number: number; from: number; to: number }>) =>
  JSON.stringify(rows.map((row) => ({ line: row.line, route_id: row.routeId, number: row.number, from: row.from, to: row.to })));

/** The lines whose range overlaps a pad already stored on the route, with that pad; the exclusion constraint's index answers each. */
export async function overlappingPads(
  conn: Conn,
  rows: Array<{ line: number; routeId: number; number: number; from: number; to: number }>,
) {
  const found: Array<{ line: number; number: number; series_from: number; series_to: number }> = [];
  for (let start = 0; start < rows.length; start += OPENING_CHUNK) {
    const hits = await rowsOf<{ line: number; number: number; series_from: number; series_to: number }>(
      conn,
      sql`select x.line, p.number, p.series_from, p.series_to
          from json_to_recordset(${asJson(rows.slice(start, start + OPENING_CHUNK))}::json) as x(line int, route_id int, number int, "from" bigint, "to" bigint)
          cross join lateral (select p.number, p.series_from, p.series_to from pads p where p.route_id = x.route_id
            and int8range(p.series_from, p.series_to, '[]') && int8range(x."from", x."to", '[]') order by p.series_from limit 1) p
          order by x.line`,
    );
    found.push(...hits.map((hit) => ({ ...hit, series_from: Number(hit.series_from), series_to: Number(hit.series_to) })));
  }
  return found;
}

/** The lines whose pad number the route already uses. */
export async function takenPadNumbers(
  conn: Conn,
  rows: Array<{ line: number; routeId: number; number: number; from: number; to: number }>,
): Promise<number[]> {
  const lines: number[] = [];
  for (let start = 0; start < rows.length; start += OPENING_CHUNK) {
    const hits = await rowsOf<{ line: number }>(
      conn,
      sql`select x.line from json_to_recordset(${asJson(rows.slice(start, start + OPENING_CHUNK))}::json) as x(line int, route_id int, number int)
          where exists (select 1 from pads p where p.route_id = x.route_id and p.number = x.number) order by x.line`,
    );
    lines.push(...hits.map((hit) => hit.line));
  }
  return lines;
}

/** docs/design.md §10: inserts the pads of an opening balance given as JSON rows, with the series each lies inside. */
export async function insertPadsFromJson(tx: Conn, json: string, actorId: number | null) {
  return rowsOf<{ id: number; route_id: number; number: number }>(
    tx,
    sql`insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, issuance_status_id, remarks,
                            holder_user_id, holder_branch_id, created_by, registered_series_id)
          select x.route_id, x.number, x.series_from, x.series_to, x.series_status, x.pad_status_id, x.issuance_status_id, x.remarks,
                 x.holder_user_id, x.holder_branch_id, ${actorId}::int,
                 (select rs.id from registered_series rs where rs.route_id = x.route_id
                    and int8range(rs.series_from, rs.series_to, '[]') @> int8range(x.series_from, x.series_to, '[]'))
          from json_to_recordset(${json}::json) as x(route_id int, number int, series_from bigint, series_to bigint, series_status text,
            pad_status_id smallint, issuance_status_id smallint, remarks text, holder_user_id int, holder_branch_id int)
          returning id, route_id, number`,
  );
}
