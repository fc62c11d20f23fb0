import { and, asc, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { heldByText, seriesRange } from '../../../shared/format.ts';
import type { FormType } from '../../../shared/lookups.ts';
import { seriesFromStatus, seriesSummary } from '../../../shared/pad-status.ts';
import { COUNT_CAP } from '../../../shared/schemas/common.ts';
import type { HeldPad } from '../../../shared/schemas/custodies.ts';
import type { RegisteredSeriesRef } from '../../../shared/schemas/registered-series.ts';
import type { Conn } from '../../db/client.ts';
import { Bindings, literal, preparedOnce, preparedPerShape, type Bind } from '../../db/prepared.ts';
import { rowsOf } from '../../db/rows.ts';
import { invoicePads } from '../../db/schema/invoices.ts';
import { issuanceStatuses, padCustody, padStatuses, pads } from '../../db/schema/pads.ts';
import { branches, companies, routes } from '../../db/schema/reference.ts';
import { registeredSeries } from '../../db/schema/registered-series.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { pendingOutcomesOf } from '../outcomes/read-model.ts';
import { userIdsOfBranch, userNameById } from '../users/read-model.ts';
import { custodyOfPad, padUpdatedAt } from './custody-repo.ts';

export { availableForIssuing, custodyOfPad, padRecordColumns, padUpdatedAt, type PadRecord } from './custody-repo.ts';

/** The holder's name and branch, read by id (docs/design.md §10 "Held by"), on a query that joins pad_custody. */
export const holderUserName = userNameById(padCustody.holder_user_id);
export const holderBranchName = sql<string | null>`(select b.name from branches b where b.id = ${padCustody.holder_branch_id})`;
export const holderColumns = { user: holderUserName.as('holder_user_name'), branch: holderBranchName.as('holder_branch_name') };

/** docs/design.md §10: what a pad shows of its registered series, left-joined (null outside every series). */
export function seriesRefColumns() {
  return {
    id: registeredSeries.id,
    atp_number: registeredSeries.atp_number,
    atp_date: registeredSeries.atp_date,
    form_type: sql<FormType>`${registeredSeries.form_type}`,
  };
}

/**
 * docs/design.md §9 physical counts: the pads the books place with a user, or with a branch (its own stock and its
 * users'), that no invoice is carrying, in route and number order.
 */
export async function padsPlacedWith(conn: Conn, holder: { userId: number | null; branchId: number | null }): Promise<PadView[]> {
  const where =
    holder.userId !== null
      ? sql`${padCustody.holder_user_id} = ${holder.userId}::int`
      : sql`(${padCustody.holder_branch_id} = ${holder.branchId}::int or ${padCustody.holder_user_id} in ${userIdsOfBranch(sql`${holder.branchId}::int`)})`;
  return conn
    .select(padViewColumns)
    .from(pads)
    .innerJoin(padCustody, custodyOfPad)
    .where(and(where, isNull(padCustody.locked_by_invoice_id)))
    .orderBy(asc(pads.route_id), asc(pads.number));
}

const seriesText = sql<string>`(${pads.series_from}::text || '-' || ${pads.series_to}::text)`;

/** A pad by its number, its series text, or a receipt number inside its range. */
export function padMatches(search: string, bind: Bind = literal): SQL {
  const text = sql`${seriesText} ilike ${bind('padPattern', likePattern(search))}`;
  if (!/^\d{1,15}$/.test(search)) return text;
  const n = Number(search);
  const byNumber = n <= 2_147_483_647 ? eq(pads.number, bind('padNumber', n)) : undefined;
  const receipt = bind('receipt', n);
  // -- or() answers undefined only when every condition is; `text` never is.
  return or(byNumber, text, and(sql`${pads.series_from} <= ${receipt}`, sql`${pads.series_to} >= ${receipt}`)) as SQL;
}

const heldWhere = (userId: number, search: string | undefined, { bind }: Bindings) =>
  and(
    eq(padCustody.holder_user_id, bind('userId', userId)),
    isNull(padCustody.locked_by_invoice_id),
    search ? padMatches(search, bind) : undefined,
  );

const prepareCount = (conn: Conn, name: string, where: SQL | undefined) =>
  conn
    .select({ count: sql<number>`count(*)::int` })
    .from(
      conn
        .select({ one: sql`1` })
        .from(pads)
        .innerJoin(padCustody, custodyOfPad)
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
    .innerJoin(padCustody, custodyOfPad)
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
        ...padViewColumns,
        issuance_status_id: padCustody.issuance_status_id,
        updated_at: padUpdatedAt,
        pending_outcomes: pendingOutcomesOf(pads.id),
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
    .innerJoin(padCustody, custodyOfPad)
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, padCustody.issuance_status_id))
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
    rows: rows.map(({ pad: { series_status, updated_at, registered_series_id: _series, ...pad }, total: _total, ...r }) => ({
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

export const padViewColumns = {
  id: pads.id,
  route_id: pads.route_id,
  number: pads.number,
  series_from: pads.series_from,
  series_to: pads.series_to,
  series_status: pads.series_status,
  pad_status_id: pads.pad_status_id,
  holder_user_id: padCustody.holder_user_id,
  holder_branch_id: padCustody.holder_branch_id,
  locked_by_invoice_id: padCustody.locked_by_invoice_id,
  remarks: pads.remarks,
  registered_series_id: pads.registered_series_id,
};

/**
 * Row locks in id order, so two writers of one pad's chain take turns and never deadlock. The custody rows are the
 * ones locked: a custody move has locked them already (and pays nothing more), and every writer of a pad row locks
 * its custody row too (lockPad).
 */
export async function lockPadRows(conn: Conn, padIds: number[]): Promise<void> {
  if (padIds.length === 0) return;
  await conn
    .select({ id: padCustody.pad_id })
    .from(padCustody)
    .where(inArray(padCustody.pad_id, padIds))
    .orderBy(asc(padCustody.pad_id))
    .for('update');
}

export async function padViews(conn: Conn, padIds: number[]): Promise<PadView[]> {
  if (padIds.length === 0) return [];
  return conn.select(padViewColumns).from(pads).innerJoin(padCustody, custodyOfPad).where(inArray(pads.id, padIds)).orderBy(asc(pads.id));
}

export async function invoicePadViews(conn: Conn, invoiceId: number): Promise<PadView[]> {
  return conn
    .select(padViewColumns)
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .innerJoin(padCustody, custodyOfPad)
    .where(eq(invoicePads.invoice_id, invoiceId))
    .orderBy(asc(pads.id));
}

/** The pads with ids in (afterId, lastId] (every one after afterId when lastId is null) in id order, for the verifier's slice. */
export async function padViewsBetween(conn: Conn, afterId: number, lastId: number | null): Promise<PadView[]> {
  return conn
    .select(padViewColumns)
    .from(pads)
    .innerJoin(padCustody, custodyOfPad)
    .where(
      and(
        sql`${pads.id} > ${afterId} and ${padCustody.pad_id} > ${afterId}`,
        lastId === null ? undefined : sql`${pads.id} <= ${lastId} and ${padCustody.pad_id} <= ${lastId}`,
      ),
    )
    .orderBy(asc(pads.id));
}

/** How many pads there are, for the verifier's progress. */
export async function padCount(conn: Conn): Promise<number> {
  const [row] = await conn.select({ count: sql<number>`count(*)::int` }).from(pads);
  return row.count;
}

export async function padView(conn: Conn, id: number): Promise<PadView | undefined> {
  const [row] = await conn.select(padViewColumns).from(pads).innerJoin(padCustody, custodyOfPad).where(eq(pads.id, id));
  return row;
}

/**
 * Pads of any route (or one) whose series contains the number; the exclusion constraint's GiST index answers it. One
 * named prepared statement per shape (with a route, without): find-receipt runs it on every scan at the counter.
 */
const padsContainingStatement = (byRoute: boolean) =>
  preparedOnce((conn) =>
    conn
      .select(padViewColumns)
      .from(pads)
      .innerJoin(padCustody, custodyOfPad)
      .where(
        and(
          sql`int8range(${pads.series_from}, ${pads.series_to}, '[]') @> ${sql.placeholder('receipt')}::bigint`,
          byRoute ? eq(pads.route_id, sql.placeholder('routeId')) : undefined,
        ),
      )
      .orderBy(asc(pads.route_id))
      .prepare(byRoute ? 'pads_containing_on_route' : 'pads_containing'),
  );
const padsContainingOnRoute = padsContainingStatement(true);
const padsContainingAnywhere = padsContainingStatement(false);

export async function padsContaining(conn: Conn, receipt: number, routeId?: number): Promise<PadView[]> {
  return routeId ? padsContainingOnRoute(conn).execute({ receipt, routeId }) : padsContainingAnywhere(conn).execute({ receipt });
}

export async function branchExists(conn: Conn, branchId: number): Promise<boolean> {
  const [row] = await conn.select({ id: branches.id }).from(branches).where(eq(branches.id, branchId)).limit(1);
  return Boolean(row);
}

/** docs/design.md §10: how many pads lie inside the series whose id the expression gives (a series in use is not deleted). */
export const padCountInSeries = (seriesId: SQLWrapper) =>
  sql<number>`(select count(*)::int from pads p where p.registered_series_id = ${seriesId})`;

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

export {
  numbersInSeries,
  padsByBranch,
  padsByStatus,
  stockByRoute,
  unusedPerBranchRoute,
  type CountRow,
  type StockRow,
} from './stock-repo.ts';
