import { and, asc, desc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { AVAILABLE_FOR_ISSUING } from '../../../shared/custody-rules.ts';
import { PAD_STATUS, SERIES_ENTRY } from '../../../shared/lookups.ts';
import type { PadListRow } from '../../../shared/list-columns.ts';
import { MAX_PAD_NUMBER, type Pad, type PadSort } from '../../../shared/schemas/pads.ts';
import type { NamedRef, SortOrder } from '../../../shared/schemas/common.ts';
import type { Conn } from '../../db/client.ts';
import { streamRows } from '../../db/stream.ts';
import { rowsOf } from '../../db/rows.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { invoicePads } from '../../db/schema/invoices.ts';
import { issuanceStatuses, padCustody, padStatuses, pads } from '../../db/schema/pads.ts';
import { companies, routes } from '../../db/schema/reference.ts';
import { registeredSeries } from '../../db/schema/registered-series.ts';
import { offsetOf } from '../../lib/pagination.ts';
import { cappedCount, listTotal } from '../../db/list-total.ts';
import { sortedBy } from '../../lib/sorting.ts';
import { courierOfInvoice } from '../invoices/read-model.ts';
import { pendingOutcomesOf } from '../outcomes/read-model.ts';
import { userBranchIdOf } from '../users/read-model.ts';
import { newestPage } from './newest-page-repo.ts';
import { toListRow, toPad, type PadExportRow } from './pad-rows.ts';
import {
  availableForIssuing,
  custodyOfPad,
  holderBranchName,
  holderColumns,
  holderUserName,
  padRecordColumns,
  seriesRefColumns,
  type PadRecord,
} from './read-model.ts';

export type PadRow = PadRecord;

/** Namespace of the advisory locks that serialise pad numbering per route ("PADS"). */
const NUMBERING_LOCK = 0x50414453;

/** The stored series text of the API's entries: one digit a number, the entry's status (1–4, docs/design.md §9). */
export const statusFromSeries = (series: ReadonlyArray<{ status: number }>) =>
  series.map((entry) => (entry.status >= SERIES_ENTRY.USED && entry.status <= SERIES_ENTRY.LOST ? String(entry.status) : '1')).join('');

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
  holder: holderColumns,
  pad: padRecordColumns,
  route: { id: routes.id, name: routes.name, tin: routes.tin, company_id: routes.company_id },
  company: { id: companies.id, name: companies.name },
  pad_status: { id: padStatuses.id, name: padStatuses.name },
  issuance_status: { id: issuanceStatuses.id, name: issuanceStatuses.name },
  registered_series: seriesRefColumns(),
  pending_outcomes: pendingOutcomesOf(pads.id),
};

function selectPads(conn: Conn) {
  return conn
    .select(padColumns)
    .from(pads)
    .innerJoin(padCustody, custodyOfPad)
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, padCustody.issuance_status_id))
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

/**
 * Built once per database handle or transaction and run as a named prepared statement: drizzle's building of the
 * seven-join SELECT and PostgreSQL's planning of it cost more than running it for a page (issue 39 point 5).
 */
const padsByIdsStatement = preparedOnce((conn) =>
  selectPads(conn)
    .where(sql`${pads.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('pads_by_ids'),
);

/** The named pads with their names joined on, in the order of `ids`; `= any(array)` keeps it on the primary key whatever the statistics say. */
async function padsByIds(conn: Conn, ids: number[]): Promise<Pad[]> {
  if (ids.length === 0) return [];
  const rows = await padsByIdsStatement(conn).execute({ ids: `{${ids.join(',')}}` });
  const byId = new Map(rows.map((row) => [row.pad.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toPad(row)] : [];
  });
}

/** The pads of the given ids, in id order; ids that match no pad are left out. */
export const padsWithIds = (conn: Conn, ids: number[]): Promise<Pad[]> =>
  padsByIds(
    conn,
    [...new Set(ids)].sort((a, b) => a - b),
  );

/** Pages over pad ids first and joins the names onto those ten rows only, so late pages stay cheap. */
async function page(conn: Conn, where: SQL | undefined, order: SQL[], pageNo: number, perPage: number) {
  const offset = offsetOf(pageNo, perPage);
  const matching = () =>
    conn
      .select({ one: sql`1` })
      .from(pads)
      .leftJoin(padCustody, custodyOfPad)
      .where(where)
      .getSQL();
  const [idRows, [{ count }]] = await Promise.all([
    conn
      .select({ id: pads.id })
      .from(pads)
      .leftJoin(padCustody, custodyOfPad)
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset(offset),
    rowsOf<{ count: number }>(conn, cappedCount(matching())),
  ]);
  const [data, total] = await Promise.all([
    padsByIds(
      conn,
      idRows.map((r) => r.id),
    ),
    listTotal(conn, Number(count), matching, offset + idRows.length),
  ]);
  return { data, total };
}

/** The Inventories columns a pad list sorts by; Route follows the (route, number) unique index. */
const sortColumns: Record<PadSort, AnyColumn | AnyColumn[]> = {
  route: [pads.route_id, pads.number],
  number: pads.number,
  series: pads.series_from,
  pad_status: pads.pad_status_id,
  issuance_status: padCustody.issuance_status_id,
};

/** The pads a holder filter lets through: held by this user, or by anyone at this branch (its stock and its staff). */
export type HolderCondition = { userId: number } | { branchId: number | null } | null;

const holderWhere = (holder: HolderCondition | undefined) =>
  !holder
    ? undefined
    : 'userId' in holder
      ? eq(padCustody.holder_user_id, holder.userId)
      : holder.branchId === null
        ? sql`false`
        : eq(padCustody.holder_branch_id, holder.branchId);

export async function listPads(
  conn: Conn,
  query: { page: number; per_page: number; search?: string; route?: number; sort?: PadSort; order?: SortOrder; holder?: HolderCondition },
) {
  if (!query.search && !query.sort && !query.holder) {
    const { ids, total } = await newestPage(conn, query.route, query.page, query.per_page);
    return { data: await padsByIds(conn, ids), total };
  }
  const where = and(query.route ? eq(pads.route_id, query.route) : undefined, holderWhere(query.holder), searchCondition(query.search));
  return page(conn, where, sortedBy(sortColumns, query, pads.id, [desc(pads.id)]), query.page, query.per_page);
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
      ${pads.pad_status_id}, ${padStatuses.name} as pad_status_name, ${padCustody.issuance_status_id}, ${issuanceStatuses.name} as issuance_status_name,
      ${holderUserName} as holder_user_name, ${holderBranchName} as holder_branch_name
    from ${pads}
    join ${padCustody} on ${custodyOfPad}
    join ${routes} on ${routes.id} = ${pads.route_id}
    join ${companies} on ${companies.id} = ${routes.company_id}
    join ${padStatuses} on ${padStatuses.id} = ${pads.pad_status_id}
    join ${issuanceStatuses} on ${issuanceStatuses.id} = ${padCustody.issuance_status_id}
    where ${where ?? sql`true`}
    order by ${sql.join(order, sql`, `)}`;
  await streamRows<PadExportRow>(conn, rows, (batch) => onBatch(batch.map(toListRow)), 1_000);
}

/**
 * The pads whose custody allows issuing, as one array of ids from pad_custody_available_idx (its predicate written into
 * the text, so the partial index matches): the issue form then reads the few stock pads by primary key, never a
 * route's whole history.
 */
const availableCustody = sql`${pads.id} = any(array(select c.pad_id from pad_custody c
  where c.issuance_status_id = ${sql.raw(String(AVAILABLE_FOR_ISSUING.issuance_status_id))} and c.locked_by_invoice_id is null))`;

/** The issue form's list: pads available for issuing, of one route or all. */
export async function listAvailablePads(conn: Conn, query: { page: number; per_page: number; search?: string; route_id?: number }) {
  const where = and(
    query.route_id ? eq(pads.route_id, query.route_id) : undefined,
    availableCustody,
    availableForIssuing(),
    searchCondition(query.search),
  );
  return page(conn, where, [asc(pads.route_id), asc(pads.number)], query.page, query.per_page);
}

export async function findPad(conn: Conn, id: number): Promise<Pad | undefined> {
  const [row] = await selectPads(conn).where(eq(pads.id, id)).limit(1);
  return row ? toPad(row) : undefined;
}

/** The pad and its custody, both rows locked: custody moves and pad edits of one pad take turns. */
export async function lockPad(conn: Conn, id: number): Promise<PadRow | undefined> {
  const [row] = await conn.select(padRecordColumns).from(pads).innerJoin(padCustody, custodyOfPad).where(eq(pads.id, id)).for('update');
  return row;
}

/**
 * Writes a pad's own columns and, when the edit sets it, its issuance status; its updated_at moves past the later of
 * the two rows' (padUpdatedAt), so an edit sent with the value it read before is refused after any change.
 */
export async function updatePad(
  conn: Conn,
  id: number,
  values: Partial<typeof pads.$inferInsert> & { issuance_status_id?: number },
): Promise<void> {
  const { issuance_status_id, ...own } = values;
  if (issuance_status_id !== undefined) {
    await conn.update(padCustody).set({ issuance_status_id }).where(eq(padCustody.pad_id, id));
  }
  await conn
    .update(pads)
    .set({
      ...own,
      updated_at: sql`date_trunc('milliseconds', greatest(clock_timestamp(), ${pads.updated_at} + interval '1 millisecond',
        (select c.updated_at from pad_custody c where c.pad_id = ${id}::int) + interval '1 millisecond'))`,
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

/**
 * Another pad of the route, held by the same holder, partly used: the second open booklet (docs/design.md §9 sequence).
 * It walks pads_open_booklet_idx (migration 0028: the route's partly used pads, about one per holder, in number order)
 * and each one's custody row until the holder's, whatever the holder's stock, so the usage warning costs the same at 10
 * held pads as at 50,000. The status is written into the text so that even a generic plan matches the partial index's
 * predicate.
 */
export async function otherPartlyUsedPad(
  conn: Conn,
  pad: { id: number; route_id: number; holder_user_id: number | null; holder_branch_id: number | null },
): Promise<number | null> {
  const holder =
    pad.holder_user_id !== null
      ? sql`c.holder_user_id = ${pad.holder_user_id}::int`
      : sql`c.holder_branch_id = ${pad.holder_branch_id ?? 0}::int and c.holder_user_id is null`;
  const [row] = await rowsOf<{ number: number }>(
    conn,
    sql`select p.number from pads p join pad_custody c on c.pad_id = p.id
        where ${holder} and p.route_id = ${pad.route_id}::int and p.pad_status_id = ${sql.raw(String(PAD_STATUS.PARTIALLY_USED))}
          and p.id <> ${pad.id}::int
        order by p.number limit 1`,
  );
  return row?.number ?? null;
}

/** What the rules of docs/design.md §9 look at beyond the pad: the branch of a holding user and the courier carrying it. */
export async function padRuleFacts(
  conn: Conn,
  pad: PadRow,
): Promise<{ holder_user_branch_id: number | null; carrier_user_id: number | null }> {
  const [row] = await rowsOf<{ holder_user_branch_id: number | null; carrier_user_id: number | null }>(
    conn,
    sql`
    select ${userBranchIdOf(sql`${pad.holder_user_id}::int`)} as holder_user_branch_id,
           ${courierOfInvoice(sql`${pad.locked_by_invoice_id}::int`)} as carrier_user_id`,
  );
  return { holder_user_branch_id: row?.holder_user_branch_id ?? null, carrier_user_id: row?.carrier_user_id ?? null };
}
