import { and, asc, desc, eq, exists, ilike, inArray, notExists, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { expectedReturnText, routeLabel, seriesRange } from '../../../shared/format.ts';
import { IN_TRANSIT } from '../../../shared/custody-rules.ts';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import type { AcceptCondition, InvoiceScope } from '../../../shared/permissions.ts';
import { COUNT_CAP, type NamedRef, type SortOrder } from '../../../shared/schemas/common.ts';
import { MY_ACTION_ITEM_LIMIT, type MyActionKind } from '../../../shared/schemas/my-actions.ts';
import { MIXED_ROUTES, type ActivityRow, type InvoiceSort, type InvoicePad, type InvoiceRow } from '../../../shared/schemas/invoices.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf, toNumbers } from '../../db/rows.ts';
import { Bindings, literal, preparedOnce, preparedPerShape, type Bind } from '../../db/prepared.ts';
import { streamRows } from '../../db/stream.ts';
import {
  activities,
  branches,
  companies,
  invoicePads,
  invoiceStatuses,
  invoiceTypes,
  invoices,
  issuanceStatuses,
  padStatuses,
  pads,
  reportInvoices,
  routes,
  users,
} from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { padMatches } from '../pads/repo.ts';
import { sortedBy } from '../../lib/sorting.ts';

/** First, middle and last name joined as format.ts fullName() does it: the one full-name expression of the server. */
export const fullNameOf = (t: { first_name: AnyPgColumn; middle_name: AnyPgColumn; last_name: AnyPgColumn }) =>
  sql<string>`concat_ws(' ', nullif(trim(${t.first_name}), ''), nullif(trim(${t.middle_name}), ''), nullif(trim(${t.last_name}), ''))`;

const requester = alias(users, 'requester');
const requesterBranch = alias(branches, 'requester_branch');
const creator = alias(users, 'creator');
const assignee = alias(users, 'assignee');
const fromBranch = alias(branches, 'from_branch');
const toBranch = alias(branches, 'to_branch');

const ref = <I extends AnyPgColumn, N extends AnyPgColumn>(id: I, name: N) => ({ id, name });

const invoiceColumns = {
  invoice: invoices,
  type: ref(invoiceTypes.id, invoiceTypes.name),
  status: ref(invoiceStatuses.id, invoiceStatuses.name),
  requesterName: fullNameOf(requester),
  requesterBranchId: requester.branch_id,
  requesterBranch: ref(requesterBranch.id, requesterBranch.name),
  creatorName: fullNameOf(creator),
  assigneeName: fullNameOf(assignee),
  fromBranch: ref(fromBranch.id, fromBranch.name),
  toBranch: ref(toBranch.id, toBranch.name),
  route: { id: routes.id, name: routes.name, tin: routes.tin },
  company: ref(companies.id, companies.name),
};

/** The one invoice SELECT: every list and details view of Transactions, Custodies and Reports reads through it. */
function selectInvoices(conn: Conn) {
  return conn
    .select(invoiceColumns)
    .from(invoices)
    .innerJoin(invoiceTypes, eq(invoiceTypes.id, invoices.invoice_type_id))
    .innerJoin(invoiceStatuses, eq(invoiceStatuses.id, invoices.invoice_status_id))
    .innerJoin(requester, eq(requester.id, invoices.user_id))
    .leftJoin(requesterBranch, eq(requesterBranch.id, requester.branch_id))
    .innerJoin(creator, eq(creator.id, invoices.created_by))
    .leftJoin(assignee, eq(assignee.id, invoices.assigned_user_id))
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .leftJoin(routes, eq(routes.id, invoices.route_id))
    .leftJoin(companies, eq(companies.id, routes.company_id));
}

type InvoiceSelection = Awaited<ReturnType<ReturnType<typeof selectInvoices>['execute']>>[number];

/** Built once per database handle or transaction: drizzle's SQL building for 40 columns costs more than running it. */
const rowsByIdsStatement = preparedOnce((conn) =>
  selectInvoices(conn)
    .where(sql`${invoices.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('invoice_rows_by_ids'),
);

const idArray = (ids: number[]) => `{${ids.join(',')}}`;

/**
 * The invoices with these ids, in the order given. The 10-join SELECT always has this one shape, run as a
 * named prepared statement: PostgreSQL plans it once per connection instead of 12-25 ms on every request,
 * and the filters, order and paging run beforehand on the invoices table alone, which plans in well under 1 ms.
 */
async function rowsByIds(conn: Conn, ids: number[], timeZone: string): Promise<InvoiceRow[]> {
  if (ids.length === 0) return [];
  const rows = await rowsByIdsStatement(conn).execute({ ids: idArray(ids) });
  const byId = new Map(rows.map((r) => [r.invoice.id, r]));
  const now = new Date();
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toRow(row, timeZone, now)] : [];
  });
}

const iso = (value: Date | string | null) => (value == null ? null : new Date(value).toISOString());

/** The one mapper to InvoiceRow; By, To, Route and Expected Return are worded here and nowhere else. */
function toRow(r: InvoiceSelection, timeZone: string, now: Date): InvoiceRow {
  const i = r.invoice;
  const assigned = i.assigned_user_id != null && r.assigneeName != null ? { id: i.assigned_user_id, full_name: r.assigneeName } : null;
  const route = r.route && r.company ? { ...r.route, company: r.company } : null;
  return {
    id: i.id,
    invoice_type_id: i.invoice_type_id,
    invoice_type: r.type,
    invoice_status_id: i.invoice_status_id,
    invoice_status: r.status,
    user_id: i.user_id,
    user: { id: i.user_id, full_name: r.requesterName, branch_id: r.requesterBranchId, branch: r.requesterBranch },
    created_by: i.created_by,
    creator: { id: i.created_by, full_name: r.creatorName },
    from_branch_id: i.from_branch_id,
    from_branch: r.fromBranch,
    branch_id: i.branch_id,
    branch: r.toBranch,
    route_id: i.route_id,
    route,
    assigned_user_id: i.assigned_user_id,
    assigned_user: assigned,
    assigned_to: assigned?.full_name ?? null,
    pads: i.pad_count,
    request_invoice_id: i.request_invoice_id,
    expected_return_date: i.expected_return_date,
    accepted_by: i.accepted_by,
    accepted_at: iso(i.accepted_at),
    created_at: iso(i.created_at) ?? '',
    by: r.fromBranch?.name ?? '-',
    to: r.toBranch?.name ?? '-',
    route_label: route ? routeLabel(route) : MIXED_ROUTES,
    expected_return_text: expectedReturnText(i.expected_return_date, now, timeZone),
  };
}

/** docs/design.md §5 "Who sees what" (permissions.ts invoiceScope) as a condition on the invoices table. */
function scopeCondition(scope: InvoiceScope, bind: Bind): SQL | undefined {
  if (scope.all) return undefined;
  const userId = bind('scopeUser', scope.userId);
  const conditions: SQL[] = [
    eq(invoices.user_id, userId),
    eq(invoices.created_by, userId),
    eq(invoices.assigned_user_id, userId),
    eq(invoices.accepted_by, userId),
  ];
  if (scope.branchId !== null) {
    const branchId = bind('scopeBranch', scope.branchId);
    conditions.push(eq(invoices.branch_id, branchId), eq(invoices.from_branch_id, branchId));
  }
  return or(...conditions);
}

/**
 * "Search by branch name or pad number", and by invoice number (docs/design.md §10: "17" or "#17"; "#17" finds
 * that invoice alone): the origin or destination branch, one of the invoice's pads,
 * and the route's name or the courier's (Assigned To) name.
 */
function branchOrPadMatches(search: string, bind: Bind): SQL {
  const numbered = /^#(\d{1,9})$/.exec(search);
  if (numbered) return eq(invoices.id, bind('invoiceId', Number(numbered[1])));
  const pattern = bind('branchPattern', likePattern(search));
  return or(
    /^\d{1,9}$/.test(search) ? eq(invoices.id, bind('invoiceId', Number(search))) : undefined,
    ilike(fromBranch.name, pattern),
    ilike(toBranch.name, pattern),
    exists(sql`(select 1 from ${routes} where ${routes.id} = ${invoices.route_id} and ${routes.name} ilike ${pattern})`),
    exists(sql`(select 1 from ${users} where ${users.id} = ${invoices.assigned_user_id} and ${fullNameOf(users)} ilike ${pattern})`),
    exists(
      sql`(select 1 from ${invoicePads} inner join ${pads} on ${pads.id} = ${invoicePads.pad_id} where ${invoicePads.invoice_id} = ${invoices.id} and ${padMatches(search, bind)})`,
    ),
  ) as SQL;
}

/** "Search by invoice number": invoice ids containing the digits typed; text without digits matches none. */
function invoiceNumberMatches(search: string, bindings: Bindings): SQL {
  const digits = search.replace(/\D/g, '');
  if (!digits) {
    bindings.mark('noDigits');
    return sql`false`;
  }
  return sql`${invoices.id}::text like ${bindings.bind('idDigits', `%${digits.slice(0, 10)}%`)}`;
}

export interface InvoiceFilter {
  scope: InvoiceScope;
  typeId?: number;
  statusId?: number;
  /** Invoices carrying at least one pad of this issuance status. */
  issuanceStatusId?: number;
  /** Created on or after / on or before these days (YYYY-MM-DD) in APP_TIMEZONE. */
  createdFrom?: string;
  createdTo?: string;
  search?: { text: string; by: 'branchOrPad' | 'invoiceNumber' };
  /** Only invoices no report holds yet. */
  unreported?: boolean;
}

/** The filter as a condition whose values are placeholders, bound in `bindings`. */
function filterCondition(filter: InvoiceFilter, timeZone: string, bindings: Bindings): SQL | undefined {
  const { bind } = bindings;
  const text = filter.search?.text.trim();
  const where = and(
    scopeCondition(filter.scope, bind),
    filter.typeId ? eq(invoices.invoice_type_id, bind('typeId', filter.typeId)) : undefined,
    filter.statusId ? eq(invoices.invoice_status_id, bind('statusId', filter.statusId)) : undefined,
    filter.issuanceStatusId
      ? exists(
          sql`(select 1 from ${invoicePads} inner join ${pads} on ${pads.id} = ${invoicePads.pad_id} where ${invoicePads.invoice_id} = ${invoices.id} and ${pads.issuance_status_id} = ${bind('issuanceStatusId', filter.issuanceStatusId)})`,
        )
      : undefined,
    filter.createdFrom
      ? sql`${invoices.created_at} >= (${bind('createdFrom', filter.createdFrom)}::date::timestamp at time zone ${bind('timeZone', timeZone)})`
      : undefined,
    filter.createdTo
      ? sql`${invoices.created_at} < ((${bind('createdTo', filter.createdTo)}::date + 1)::timestamp at time zone ${bind('timeZone', timeZone)})`
      : undefined,
    text ? (filter.search?.by === 'invoiceNumber' ? invoiceNumberMatches(text, bindings) : branchOrPadMatches(text, bind)) : undefined,
    filter.unreported ? notExists(sql`(select 1 from ${reportInvoices} where ${reportInvoices.invoice_id} = ${invoices.id})`) : undefined,
  );
  if (filter.unreported) bindings.mark('unreported');
  return where;
}

/** The list columns an invoice page sorts by, on the invoices table and the two branches the id query joins. */
const sortColumns: Record<InvoiceSort, SQLWrapper | AnyPgColumn> = {
  type: invoices.invoice_type_id,
  pads: invoices.pad_count,
  route: sql`(select ${routes.name} from ${routes} where ${routes.id} = ${invoices.route_id})`,
  by: fromBranch.name,
  to: toBranch.name,
  status: invoices.invoice_status_id,
  date: invoices.created_at,
  expected: invoices.expected_return_date,
  assigned: sql`(select ${fullNameOf(users)} from ${users} where ${users.id} = ${invoices.assigned_user_id})`,
};

const prepareIds = (conn: Conn, name: string, where: SQL | undefined, order: SQL[]) =>
  conn
    .select({ id: invoices.id })
    .from(invoices)
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .where(where)
    .orderBy(...order)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);

/** Counts up to one past COUNT_CAP: the list says "10,000+" instead of scanning every invoice. */
const prepareCount = (conn: Conn, name: string, where: SQL | undefined) =>
  conn
    .select({ count: sql<number>`count(*)::int` })
    .from(
      conn
        .select({ one: sql`1` })
        .from(invoices)
        .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
        .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('capped'),
    )
    .prepare(name);

const idsOfShape = preparedPerShape<ReturnType<typeof prepareIds>>('invoice_ids');
const countOfShape = preparedPerShape<ReturnType<typeof prepareCount>>('invoice_count');

/**
 * One page of the invoices the filter lets through: newest first, (Reports) the last accepted first, or by a
 * chosen column. The page's ids and the count are named prepared statements per filter shape and the rows come
 * from the one prepared 10-join SELECT, so no statement is planned twice on a connection (the branch joins
 * that only a branch search or sort uses are removed by the planner, once).
 */
export async function listInvoices(
  conn: Conn,
  filter: InvoiceFilter,
  page: { page: number; perPage: number; order?: 'newest' | 'lastAccepted'; sort?: InvoiceSort; direction?: SortOrder },
  timeZone: string,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  const bindings = new Bindings();
  const where = filterCondition(filter, timeZone, bindings);
  const countShape = bindings.shape;
  bindings.mark(`order:${page.order ?? 'newest'}:${page.sort ?? ''}:${page.direction ?? ''}`);
  const defaultOrder =
    page.order === 'lastAccepted' ? [desc(invoices.accepted_at), desc(invoices.id)] : [desc(invoices.created_at), desc(invoices.id)];
  const order = sortedBy(sortColumns, { sort: page.sort, order: page.direction }, invoices.id, defaultOrder);
  const { values } = bindings;
  const [idRows, [{ count }]] = await Promise.all([
    idsOfShape(conn, bindings.shape, (name) => prepareIds(conn, name, where, order)).execute({
      ...values,
      limit: page.perPage,
      offset: offsetOf(page.page, page.perPage),
    }),
    countOfShape(conn, countShape, (name) => prepareCount(conn, name, where)).execute(values),
  ]);
  return {
    rows: await rowsByIds(
      conn,
      idRows.map((r) => r.id),
      timeZone,
    ),
    total: count,
  };
}

/** Statements built for one run, with the values written in (the export's cursor is declared once). */
class LiteralBindings extends Bindings {
  override readonly bind: Bind = literal;
}

/**
 * Every invoice the filter lets through, in the list's order, batch by batch (docs/design.md §10 Export): the ids
 * come through a cursor and each batch is read as the list reads its page, so memory holds one batch.
 */
export async function streamInvoices(
  conn: Conn,
  filter: InvoiceFilter,
  page: { order?: 'newest' | 'lastAccepted'; sort?: InvoiceSort; direction?: SortOrder },
  timeZone: string,
  onBatch: (rows: InvoiceRow[]) => Promise<void>,
): Promise<void> {
  const where = filterCondition(filter, timeZone, new LiteralBindings());
  const defaultOrder =
    page.order === 'lastAccepted' ? [desc(invoices.accepted_at), desc(invoices.id)] : [desc(invoices.created_at), desc(invoices.id)];
  const order = sortedBy(sortColumns, { sort: page.sort, order: page.direction }, invoices.id, defaultOrder);
  const ids = conn
    .select({ id: invoices.id })
    .from(invoices)
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .where(where)
    .orderBy(...order);
  await streamRows<{ id: number }>(
    conn,
    ids.getSQL(),
    async (batch, tx) =>
      onBatch(
        await rowsByIds(
          tx,
          batch.map((row) => Number(row.id)),
          timeZone,
        ),
      ),
    2_000,
  );
}

/** One invoice, whoever may see it: the caller checks the scope on the row (permissions.ts `invoice.see`). */
export async function findInvoiceRow(conn: Conn, id: number, timeZone: string): Promise<InvoiceRow | undefined> {
  const [row] = await rowsByIds(conn, [id], timeZone);
  return row;
}

/** The given invoices in id order, for documents that print several (the report PDF). */
export async function findInvoiceRows(conn: Conn, ids: number[], timeZone: string): Promise<InvoiceRow[]> {
  return rowsByIds(
    conn,
    [...ids].sort((a, b) => a - b),
    timeZone,
  );
}

const issuedForStatement = preparedOnce((conn) =>
  conn
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.request_invoice_id, sql.placeholder('requestId')))
    .limit(1)
    .prepare('invoice_issued_for'),
);

export async function findIssuedFor(conn: Conn, requestId: number): Promise<number | null> {
  const [row] = await issuedForStatement(conn).execute({ requestId });
  return row?.id ?? null;
}

const actor = alias(users, 'actor');
const activityAssignee = alias(users, 'activity_assignee');

const activitiesStatement = preparedOnce((conn) =>
  conn
    .select({
      activity: activities,
      status: ref(invoiceStatuses.id, invoiceStatuses.name),
      actorName: fullNameOf(actor),
      assigneeName: fullNameOf(activityAssignee),
    })
    .from(activities)
    .innerJoin(invoiceStatuses, eq(invoiceStatuses.id, activities.invoice_status_id))
    .leftJoin(actor, eq(actor.id, activities.user_id))
    .leftJoin(activityAssignee, eq(activityAssignee.id, activities.assigned_user_id))
    .where(
      sql`${activities.invoice_id} = any(array[${sql.placeholder('id')}::int, (select r.request_invoice_id from invoices r where r.id = ${sql.placeholder('id')}::int)])`,
    )
    .orderBy(asc(activities.id))
    .prepare('invoice_chain_activities'),
);

/** The history of the given invoices, oldest first. */
/** The timeline of an invoice and of the request it answers, in one statement, so it can be read beside the invoice itself. */
export async function listChainActivities(conn: Conn, invoiceId: number): Promise<ActivityRow[]> {
  const rows = await activitiesStatement(conn).execute({ id: invoiceId });
  return rows.map((r) => {
    const a = r.activity;
    return {
      id: a.id,
      invoice_id: a.invoice_id,
      invoice_status_id: a.invoice_status_id,
      invoice_status: r.status,
      description: a.description,
      location: a.location,
      user: a.user_id != null ? { id: a.user_id, full_name: r.actorName } : null,
      assigned_user: a.assigned_user_id != null ? { id: a.assigned_user_id, full_name: r.assigneeName } : null,
      created_at: iso(a.created_at) ?? '',
    };
  });
}

const padColumns = {
  pad: pads,
  route: { id: routes.id, name: routes.name, tin: routes.tin },
  company: ref(companies.id, companies.name),
  padStatus: ref(padStatuses.id, padStatuses.name),
  issuanceStatus: ref(issuanceStatuses.id, issuanceStatuses.name),
};

/** The pads linked to an invoice, searchable and paged. */
export async function listInvoicePads(
  conn: Conn,
  invoiceId: number,
  query: { page: number; per_page: number; search?: string },
): Promise<{ rows: InvoicePad[]; total: number }> {
  const search = query.search?.trim();
  const where = and(eq(invoicePads.invoice_id, invoiceId), search ? padMatches(search) : undefined);
  const rows = await conn
    .select(padColumns)
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, pads.issuance_status_id))
    .where(where)
    .orderBy(asc(pads.route_id), asc(pads.number))
    .limit(query.per_page)
    .offset(offsetOf(query.page, query.per_page));
  const [{ count }] = await conn
    .select({ count: sql<number>`count(*)::int` })
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .where(where);
  return {
    total: count,
    rows: rows.map((r) => ({
      id: r.pad.id,
      route_id: r.pad.route_id,
      route: { ...r.route, company: r.company },
      number: r.pad.number,
      series_number: seriesRange(r.pad.series_from, r.pad.series_to),
      series_from: r.pad.series_from,
      series_to: r.pad.series_to,
      pad_status_id: r.pad.pad_status_id,
      pad_status: r.padStatus,
      issuance_status_id: r.pad.issuance_status_id,
      issuance_status: r.issuanceStatus,
      remarks: r.pad.remarks,
    })),
  };
}

export interface PrintedPad {
  invoice_id: number;
  number: number;
  series_from: number;
  series_to: number;
  pad_status: string;
}

/** Every pad of the given invoices, by invoice and series, as documents print them. */
export async function listPadsOfInvoices(conn: Conn, invoiceIds: number[]): Promise<PrintedPad[]> {
  if (invoiceIds.length === 0) return [];
  return conn
    .select({
      invoice_id: invoicePads.invoice_id,
      number: pads.number,
      series_from: pads.series_from,
      series_to: pads.series_to,
      pad_status: padStatuses.name,
    })
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .where(inArray(invoicePads.invoice_id, invoiceIds))
    .orderBy(invoicePads.invoice_id, pads.series_from);
}

/** The pads of one invoice with their routes, as the transmittal slip prints them. */
export async function slipPads(conn: Conn, invoiceId: number) {
  return conn
    .select({ number: pads.number, series_from: pads.series_from, series_to: pads.series_to, route: routes.name })
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .where(eq(invoicePads.invoice_id, invoiceId))
    .orderBy(routes.name, pads.series_from);
}

/** The Invoice Type and Invoice Status filters' options (seeded lookups). */
export async function lookup(conn: Conn, which: 'types' | 'statuses'): Promise<NamedRef[]> {
  const table = which === 'types' ? invoiceTypes : invoiceStatuses;
  return conn.select({ id: table.id, name: table.name }).from(table).orderBy(asc(table.id));
}

/** docs/design.md §5 "in transit", on `invoices i`: a transfer invoice written and not accepted yet. */
const inTransitSql = sql`i.invoice_status_id = ${IN_TRANSIT.invoice_status_id} and i.invoice_type_id in (${sql.join(
  IN_TRANSIT.invoice_type_ids.map((id) => sql`${id}`),
  sql`, `,
)})`;

/** An accepted issue past its expected return whose requester still holds a pad of it, on `invoices i`. */
const overdueSql = (
  today: string,
  requesterId?: number,
) => sql`i.invoice_type_id = ${INVOICE_TYPE.ISSUED} and i.invoice_status_id = ${INVOICE_STATUS.COMPLETED}
  ${requesterId === undefined ? sql`` : sql`and i.user_id = ${requesterId}::int`}
  and i.expected_return_date < ${today}::date
  and exists (select 1 from invoice_pads ip join pads p on p.id = ip.pad_id where ip.invoice_id = i.id and p.holder_user_id = i.user_id)`;

/** The accept rules of src/shared/custody-rules.ts applied to one actor, as SQL on `invoices i`. */
function acceptableSql(conditions: AcceptCondition[]): SQL {
  if (conditions.length === 0) return sql`false`;
  const parts = conditions.map(
    (c) =>
      sql`(i.invoice_type_id = ${c.invoice_type_id}::int${c.user_id === undefined ? sql`` : sql` and i.user_id = ${c.user_id}::int`}${
        c.branch_id === undefined ? sql`` : sql` and i.branch_id = ${c.branch_id}::int`
      })`,
  );
  return sql`${inTransitSql} and (${sql.join(parts, sql` or `)})`;
}

export interface WorkQueueRow {
  kind: MyActionKind;
  id: number;
  invoice_type: string;
  pad_count: number;
  expected_return_date: string | null;
  route_name: string | null;
  company_name: string | null;
  from_branch: string | null;
  to_branch: string | null;
  total: number;
}

export interface WorkQueueFilter {
  userId: number;
  /** The invoices this user may accept (permissions.ts acceptConditions). */
  accept: AcceptCondition[];
  /** YYYY-MM-DD in the app's time zone: a due date before it is overdue. */
  today: string;
  kinds: MyActionKind[];
}

function workCondition(kind: MyActionKind, f: WorkQueueFilter): SQL {
  switch (kind) {
    case 'issue':
      return sql`i.invoice_type_id = ${INVOICE_TYPE.REQUEST} and i.invoice_status_id = ${INVOICE_STATUS.PENDING}`;
    case 'accept':
      return acceptableSql(f.accept);
    case 'carry':
      return sql`${inTransitSql} and i.assigned_user_id = ${f.userId}::int`;
    case 'overdue':
      return overdueSql(f.today, f.userId);
    default:
      return sql`false`;
  }
}

/**
 * Needs my action in one statement: each kind's matches with their count, and the newest few of each with
 * the names a label needs, so polling it every minute stays one round trip on indexed columns.
 */
export async function workQueue(conn: Conn, filter: WorkQueueFilter): Promise<WorkQueueRow[]> {
  if (filter.kinds.length === 0) return [];
  const parts = filter.kinds.map(
    (kind) => sql`select ${kind}::text as kind, i.id, i.created_at from invoices i where ${workCondition(kind, filter)}`,
  );
  const rows = await rowsOf<WorkQueueRow>(
    conn,
    sql`
    with matches as (${sql.join(parts, sql` union all `)}),
    ranked as (
      select kind, id, count(*) over (partition by kind)::int as total,
             row_number() over (partition by kind order by created_at desc, id desc) as rn
      from matches
    )
    select r.kind, r.id, r.total, t.name as invoice_type, i.pad_count, i.expected_return_date::text as expected_return_date,
           ro.name as route_name, c.name as company_name, fb.name as from_branch, tb.name as to_branch
    from ranked r
    join invoices i on i.id = r.id
    join invoice_types t on t.id = i.invoice_type_id
    left join routes ro on ro.id = i.route_id
    left join companies c on c.id = ro.company_id
    left join branches fb on fb.id = i.from_branch_id
    left join branches tb on tb.id = i.branch_id
    where r.rn <= ${MY_ACTION_ITEM_LIMIT}
    order by r.kind, r.rn`,
  );
  return toNumbers(rows, ['id', 'total', 'pad_count']);
}

/** In-transit invoices by transfer type, every type listed (the dashboard). */
export async function inTransitByType(conn: Conn): Promise<Array<{ id: number; name: string; count: number }>> {
  const rows = await rowsOf<{ id: number; name: string; count: number }>(
    conn,
    sql`select t.id, t.name, coalesce(c.n, 0) as count
        from invoice_types t left join (select i.invoice_type_id, count(*) as n from invoices i where ${inTransitSql} group by i.invoice_type_id) c
          on c.invoice_type_id = t.id
        where t.id in (${sql.join(
          IN_TRANSIT.invoice_type_ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        order by t.id`,
  );
  return toNumbers(rows, ['id', 'count']);
}

export interface OverdueRow {
  id: number;
  total: number;
  pad_count: number;
  expected_return_date: string;
  requester: string;
  branch: string | null;
}

/** Overdue issues of everyone, the oldest due first (the dashboard). */
export async function overdueIssues(conn: Conn, today: string, limit: number): Promise<OverdueRow[]> {
  const rows = await rowsOf<OverdueRow>(
    conn,
    sql`select i.id, count(*) over () as total, i.pad_count, i.expected_return_date::text as expected_return_date,
               concat_ws(' ', nullif(trim(u.first_name), ''), nullif(trim(u.last_name), '')) as requester, b.name as branch
        from invoices i
        join users u on u.id = i.user_id
        left join branches b on b.id = i.branch_id
        where ${overdueSql(today)}
        order by i.expected_return_date, i.id
        limit ${limit}`,
  );
  return toNumbers(rows, ['id', 'total', 'pad_count']);
}

/** An invoice's type and courier, for a pad's "in transit on" line. */
export async function invoiceTypeAndCourier(conn: Conn, id: number) {
  const [row] = await conn
    .select({ id: invoices.id, type_id: invoiceTypes.id, type_name: invoiceTypes.name, assigned_user_id: invoices.assigned_user_id })
    .from(invoices)
    .innerJoin(invoiceTypes, eq(invoiceTypes.id, invoices.invoice_type_id))
    .where(eq(invoices.id, id));
  return row;
}

/**
 * Transfer invoices on the road at the instant `end` (a business date's start in `timeZone`): written before it, not
 * accepted before it. The condition is written as the expression of invoices_in_transit_span_idx (literal ids, as in
 * its predicate), so a month end 30 months back finds its few invoices without reading the 200,000 since.
 */
export async function invoicesInTransitAt(conn: Conn, end: string, timeZone: string) {
  return rowsOf<{
    invoice_id: number;
    pad_id: number;
    pad_number: number;
    route_id: number;
    series_from: number;
    series_to: number;
    assigned_user_id: number | null;
  }>(
    conn,
    sql`select i.id as invoice_id, p.id as pad_id, p.number as pad_number, p.route_id, p.series_from, p.series_to, i.assigned_user_id
      from invoices i join invoice_pads ip on ip.invoice_id = i.id join pads p on p.id = ip.pad_id
      where i.invoice_type_id <> ${sql.raw(String(INVOICE_TYPE.REQUEST))}
        and i.invoice_status_id in (${sql.raw(`${INVOICE_STATUS.IN_TRANSIT}, ${INVOICE_STATUS.COMPLETED}`)})
        and tstzrange(i.created_at, greatest(i.created_at, coalesce(i.accepted_at, 'infinity'::timestamptz)), '(]')
          @> (${end}::timestamp at time zone ${timeZone})
      order by i.id, p.id`,
  );
}

/** The in-transit invoices that lock each pad; a pad on two is a broken custody chain. */
export async function inTransitInvoicesByPad(conn: Conn, padIds: number[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>();
  if (padIds.length === 0) return result;
  const rows = await rowsOf<{ pad_id: number; invoice_id: number }>(
    conn,
    sql`select ip.pad_id, ip.invoice_id from invoice_pads ip join invoices i on i.id = ip.invoice_id
    where ${inTransitSql} and ip.pad_id = any(${`{${padIds.join(',')}}`}::int[])`,
  );
  for (const row of rows) {
    const list = result.get(Number(row.pad_id)) ?? [];
    list.push(Number(row.invoice_id));
    result.set(Number(row.pad_id), list);
  }
  return result;
}
