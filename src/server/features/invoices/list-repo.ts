import { and, asc, desc, eq, exists, ilike, notExists, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { dateInZone, expectedReturnTextOn, routeLabel } from '../../../shared/format.ts';
import type { InvoiceScope } from '../../../shared/permissions.ts';
import { EXACT_COUNT, type NamedRef, type SortOrder } from '../../../shared/schemas/common.ts';
import { MIXED_ROUTES, type InvoiceSort, type InvoiceRow } from '../../../shared/schemas/invoices.ts';
import type { Conn } from '../../db/client.ts';
import { Bindings, literal, preparedOnce, preparedPerShape, type Bind } from '../../db/prepared.ts';
import { streamRows } from '../../db/stream.ts';
import { invoicePads, invoiceStatuses, invoiceTypes, invoices } from '../../db/schema/invoices.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { branches, companies, routes } from '../../db/schema/reference.ts';
import { reportInvoices } from '../../db/schema/reports.ts';
import { users } from '../../db/schema/users.ts';
import { likePattern, offsetOf, type ListTotal } from '../../lib/pagination.ts';
import { prepareEstimate, preparedTotal, type Estimate } from '../../db/list-total.ts';
import { sortedBy } from '../../lib/sorting.ts';
import { padMatches } from '../pads/read-model.ts';
import { fullNameOf } from '../users/read-model.ts';

/**
 * The invoice list of Transactions, Custodies and Reports: the one invoice SELECT and its mapper, the filters, sort
 * columns and paging, the export's stream and the Invoice Type and Status filter options. Other features reach the
 * list through read-model.ts.
 */
const requester = alias(users, 'requester');
const requesterBranch = alias(branches, 'requester_branch');
const creator = alias(users, 'creator');
const assignee = alias(users, 'assignee');
const fromBranch = alias(branches, 'from_branch');
const toBranch = alias(branches, 'to_branch');

export const ref = <I extends AnyPgColumn, N extends AnyPgColumn>(id: I, name: N) => ({ id, name });

/** A timestamp as JavaScript's toISOString writes it ("2026-11-29T01:30:00.000Z"), so the row needs no Date. */
const isoText = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const refOrNull = (id: AnyPgColumn, name: AnyPgColumn) =>
  sql`case when ${id} is null then null else json_build_object('id', ${id}, 'name', ${name}) end`;

/** The columns of InvoiceRow that the database can say; toRow adds the screens' texts. */
type StoredInvoice = Omit<InvoiceRow, 'by' | 'to' | 'route_label' | 'expected_return_text' | 'assigned_to'>;

/**
 * The one invoice SELECT: every list and details view of Transactions, Custodies and Reports reads through it. Each
 * row comes back as one JSON object already in InvoiceRow's shape (issue 39: no per-column mapping, no Date objects
 * on the hot path), parsed by the driver.
 */
function selectInvoices(conn: Conn) {
  return conn
    .select({
      row: sql<StoredInvoice>`json_build_object(
        'id', ${invoices.id},
        'invoice_type_id', ${invoices.invoice_type_id},
        'invoice_type', json_build_object('id', ${invoiceTypes.id}, 'name', ${invoiceTypes.name}),
        'invoice_status_id', ${invoices.invoice_status_id},
        'invoice_status', json_build_object('id', ${invoiceStatuses.id}, 'name', ${invoiceStatuses.name}),
        'user_id', ${invoices.user_id},
        'user', json_build_object('id', ${invoices.user_id}, 'full_name', ${fullNameOf(requester)},
                                  'branch_id', ${requester.branch_id}, 'branch', ${refOrNull(requesterBranch.id, requesterBranch.name)}),
        'created_by', ${invoices.created_by},
        'creator', json_build_object('id', ${invoices.created_by}, 'full_name', ${fullNameOf(creator)}),
        'from_branch_id', ${invoices.from_branch_id},
        'from_branch', ${refOrNull(fromBranch.id, fromBranch.name)},
        'branch_id', ${invoices.branch_id},
        'branch', ${refOrNull(toBranch.id, toBranch.name)},
        'route_id', ${invoices.route_id},
        'route', case when ${routes.id} is null or ${companies.id} is null then null
                 else json_build_object('id', ${routes.id}, 'name', ${routes.name}, 'tin', ${routes.tin},
                                        'company', json_build_object('id', ${companies.id}, 'name', ${companies.name})) end,
        'assigned_user_id', ${invoices.assigned_user_id},
        'assigned_user', case when ${assignee.id} is null then null
                         else json_build_object('id', ${assignee.id}, 'full_name', ${fullNameOf(assignee)}) end,
        'pads', ${invoices.pad_count},
        'request_invoice_id', ${invoices.request_invoice_id},
        'expected_return_date', ${invoices.expected_return_date},
        'accepted_by', ${invoices.accepted_by},
        'accepted_at', ${isoText(invoices.accepted_at)},
        'created_at', ${isoText(invoices.created_at)})`,
    })
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

/** Built once per database handle or transaction: drizzle's SQL building for the 10-join SELECT costs more than running it. */
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
  const byId = new Map<number, StoredInvoice>();
  for (const { row } of rows) byId.set(row.id, row);
  /* One day for every row: the zone's date is worded once per list, not once per row. */
  const today = dateInZone(new Date(), timeZone);
  const found: InvoiceRow[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) found.push(toRow(row, today));
  }
  return found;
}

export const iso = (value: Date | string | null) => (value == null ? null : new Date(value).toISOString());

/**
 * The one mapper to InvoiceRow; By, To, Route and Expected Return are worded here and nowhere else. The texts are added
 * to the driver's fresh parse of the row's JSON, which nothing else holds: V8 copies a parsed object by spread on its slow
 * path, 7 µs a row against 0.5 (issue 39 point 5).
 */
function toRow(row: StoredInvoice, today: string): InvoiceRow {
  return Object.assign(row, {
    assigned_to: row.assigned_user?.full_name ?? null,
    by: row.from_branch?.name ?? '-',
    to: row.branch?.name ?? '-',
    route_label: row.route ? routeLabel(row.route) : MIXED_ROUTES,
    expected_return_text: expectedReturnTextOn(today, row.expected_return_date),
  });
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
  // Cast: or() is typed as possibly undefined for an all-undefined list; here at least the branch matches are given.
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
          sql`(select 1 from ${invoicePads} inner join ${padCustody} on ${padCustody.pad_id} = ${invoicePads.pad_id} where ${invoicePads.invoice_id} = ${invoices.id} and ${padCustody.issuance_status_id} = ${bind('issuanceStatusId', filter.issuanceStatusId)})`,
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

/** The invoices a filter lets through, as one row each: what the list counts and the planner estimates. */
const matching = (conn: Conn, where: SQL | undefined) =>
  conn
    .select({ one: sql`1` })
    .from(invoices)
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .where(where);

/** Counts up to one past EXACT_COUNT (db/list-total.ts estimates past it) instead of scanning every invoice. */
const prepareCount = (conn: Conn, name: string, where: SQL | undefined) =>
  conn
    .select({ count: sql<number>`count(*)::int` })
    .from(
      matching(conn, where)
        .limit(EXACT_COUNT + 1)
        .as('capped'),
    )
    .prepare(name);

const idsOfShape = preparedPerShape<ReturnType<typeof prepareIds>>('invoice_ids');
const countOfShape = preparedPerShape<ReturnType<typeof prepareCount>>('invoice_count');
const estimateOfShape = preparedPerShape<Estimate>('invoice_estimate');

/**
 * One page of the invoices the filter lets through: newest first, (Reports) the last accepted first, or by a
 * chosen column. The page's ids, the count and the estimate past EXACT_COUNT are named prepared statements per
 * filter shape and the rows come from the one prepared 10-join SELECT, so no statement is planned or built twice on a
 * connection (the branch joins that only a branch search or sort uses are removed by the planner, once).
 */
export async function listInvoices(
  conn: Conn,
  filter: InvoiceFilter,
  page: { page: number; perPage: number; order?: 'newest' | 'lastAccepted'; sort?: InvoiceSort; direction?: SortOrder },
  timeZone: string,
): Promise<{ rows: InvoiceRow[]; total: ListTotal }> {
  const bindings = new Bindings();
  const where = filterCondition(filter, timeZone, bindings);
  const countShape = bindings.shape;
  bindings.mark(`order:${page.order ?? 'newest'}:${page.sort ?? ''}:${page.direction ?? ''}`);
  const defaultOrder =
    page.order === 'lastAccepted' ? [desc(invoices.accepted_at), desc(invoices.id)] : [desc(invoices.created_at), desc(invoices.id)];
  const order = sortedBy(sortColumns, { sort: page.sort, order: page.direction }, invoices.id, defaultOrder);
  const { values } = bindings;
  const offset = offsetOf(page.page, page.perPage);
  const [idRows, [{ count }]] = await Promise.all([
    idsOfShape(conn, bindings.shape, (name) => prepareIds(conn, name, where, order)).execute({ ...values, limit: page.perPage, offset }),
    countOfShape(conn, countShape, (name) => prepareCount(conn, name, where)).execute(values),
  ]);
  const [rows, total] = await Promise.all([
    rowsByIds(
      conn,
      idRows.map((r) => r.id),
      timeZone,
    ),
    preparedTotal(
      count,
      () => estimateOfShape(conn, countShape, (name) => prepareEstimate(conn, name, matching(conn, where))),
      values,
      offset + idRows.length,
    ),
  ]);
  return { rows, total };
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

/** The Invoice Type and Invoice Status filters' options (seeded lookups). */
export async function lookup(conn: Conn, which: 'types' | 'statuses'): Promise<NamedRef[]> {
  const table = which === 'types' ? invoiceTypes : invoiceStatuses;
  return conn.select({ id: table.id, name: table.name }).from(table).orderBy(asc(table.id));
}
