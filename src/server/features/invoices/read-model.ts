import { and, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { IN_TRANSIT } from '../../../shared/custody-rules.ts';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import type { AcceptCondition } from '../../../shared/permissions.ts';
import { HAND_OVER_ASKS } from '../../../shared/schemas/custodies.ts';
import { MY_ACTION_ITEM_LIMIT, type MyActionKind } from '../../../shared/schemas/my-actions.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf, toNumbers } from '../../db/rows.ts';
import { invoicePads, invoiceTypes, invoices, pendingHandOvers } from '../../db/schema/invoices.ts';
import { padStatuses, pads } from '../../db/schema/pads.ts';
import { users } from '../../db/schema/users.ts';
import { fullNameOf } from '../users/read-model.ts';

/** The invoice list, built in list-repo.ts: Custodies and Reports list and export invoices as Transactions does. */
export { findInvoiceRows, listInvoices, streamInvoices, type InvoiceFilter } from './list-repo.ts';

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
  and exists (select 1 from invoice_pads ip join pad_custody pc on pc.pad_id = ip.pad_id where ip.invoice_id = i.id and pc.holder_user_id = i.user_id)`;

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
               ${fullNameOf('u')} as requester, b.name as branch
        from invoices i
        join users u on u.id = i.user_id
        left join branches b on b.id = i.branch_id
        where ${overdueSql(today)}
        order by i.expected_return_date, i.id
        limit ${limit}`,
  );
  return toNumbers(rows, ['id', 'total', 'pad_count']);
}

/** The courier assigned to the invoice whose id the expression gives, as a scalar subquery: who carries a locked pad. */
export const courierOfInvoice = (id: SQLWrapper) => sql<number | null>`(select i.assigned_user_id from invoices i where i.id = ${id})`;

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
        and (ip.left_at is null or ip.left_at >= (${end}::timestamp at time zone ${timeZone}))
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
    where ${inTransitSql} and ip.left_at is null and ip.pad_id = any(${`{${padIds.join(',')}}`}::int[])`,
  );
  for (const row of rows) {
    const list = result.get(Number(row.pad_id)) ?? [];
    list.push(Number(row.invoice_id));
    result.set(Number(row.pad_id), list);
  }
  return result;
}

const giver = alias(users, 'giver');
const receiver = alias(users, 'receiver');

const stillWaiting = and(
  eq(invoices.invoice_status_id, HAND_OVER_ASKS.invoice_status_id),
  eq(invoices.assigned_user_id, pendingHandOvers[HAND_OVER_ASKS.carrier]),
);

/** A waiting hand-over's pads by route name and number, as its receiver is asked about them. */
const handOverPadList = sql<Array<{ route: string; number: number }>>`(select coalesce(json_agg(json_build_object('route', r.name,
  'number', p.number) order by r.name, p.number), '[]'::json) from invoice_pads ip join pads p on p.id = ip.pad_id
  join routes r on r.id = p.route_id where ip.invoice_id = ${pendingHandOvers.invoice_id})`;

function pendingHandOverRows(conn: Conn) {
  return conn
    .select({
      invoice_id: pendingHandOvers.invoice_id,
      invoice_type: invoiceTypes.name,
      pads: invoices.pad_count,
      pad_list: handOverPadList,
      from_user_id: pendingHandOvers.from_user_id,
      from_name: fullNameOf(giver),
      to_user_id: pendingHandOvers.to_user_id,
      to_name: fullNameOf(receiver),
      requested_at: pendingHandOvers.created_at,
      device_at: pendingHandOvers.device_at,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(pendingHandOvers)
    .innerJoin(invoices, eq(invoices.id, pendingHandOvers.invoice_id))
    .innerJoin(invoiceTypes, eq(invoiceTypes.id, invoices.invoice_type_id))
    .innerJoin(giver, eq(giver.id, pendingHandOvers.from_user_id))
    .innerJoin(receiver, eq(receiver.id, pendingHandOvers.to_user_id));
}

/** The hand-overs of In-Transit invoices waiting for the user, or waiting on someone the user hands to. */
export function pendingHandOversOf(conn: Conn, userId: number) {
  return pendingHandOverRows(conn)
    .where(
      and(stillWaiting, or(eq(pendingHandOvers[HAND_OVER_ASKS.receiver], userId), eq(pendingHandOvers[HAND_OVER_ASKS.carrier], userId))),
    )
    .orderBy(pendingHandOvers.created_at);
}

/** The first `limit` hand-overs that ask the user to accept the custody, oldest first, each with the total. */
export function handOversToAccept(conn: Conn, userId: number, limit: number) {
  return pendingHandOverRows(conn)
    .where(and(stillWaiting, eq(pendingHandOvers[HAND_OVER_ASKS.receiver], userId)))
    .orderBy(pendingHandOvers.created_at)
    .limit(limit);
}

export interface AlertInvoiceRow {
  kind: 'in_transit' | 'overdue';
  id: number;
  invoice_type_id: number;
  invoice_type: string;
  /** The requester: the holder of an issue, the receiver of an issue in transit. */
  user_id: number;
  branch_id: number | null;
  from_branch_id: number | null;
  assigned_user_id: number | null;
  pad_count: number;
  created_at: Date;
  expected_return_date: string | null;
}

/**
 * Issue 37: every invoice in transit and every overdue issue (its requester still holds a pad of it, due before `today`),
 * with the columns the alert evaluators decide recipients and lateness from; the same conditions as Needs my action.
 */
export async function alertInvoices(conn: Conn, today: string): Promise<AlertInvoiceRow[]> {
  const rows = await rowsOf<AlertInvoiceRow>(
    conn,
    sql`select m.kind, i.id, i.invoice_type_id, t.name as invoice_type, i.user_id, i.branch_id, i.from_branch_id, i.assigned_user_id,
               i.pad_count, i.created_at, i.expected_return_date::text as expected_return_date
        from (select 'in_transit'::text as kind, i.id from invoices i where ${inTransitSql}
              union all
              select 'overdue'::text, i.id from invoices i where ${overdueSql(today)}) m
        join invoices i on i.id = m.id
        join invoice_types t on t.id = i.invoice_type_id
        order by i.id`,
  );
  const orNull = (value: number | null) => (value === null ? null : Number(value));
  return toNumbers(rows, ['id', 'invoice_type_id', 'user_id', 'pad_count']).map((row) => ({
    ...row,
    branch_id: orNull(row.branch_id),
    from_branch_id: orNull(row.from_branch_id),
    assigned_user_id: orNull(row.assigned_user_id),
    created_at: new Date(row.created_at),
  }));
}

/** Issue 37 low stock: the unused numbers of the pads in transit to each branch, per route. */
export async function unusedInTransitPerBranchRoute(conn: Conn): Promise<Array<{ branch_id: number; route_id: number; unused: number }>> {
  const rows = await rowsOf<{ branch_id: number; route_id: number; unused: number }>(
    conn,
    sql`select i.branch_id, p.route_id, sum(length(p.series_status) - length(replace(p.series_status, '1', '')))::bigint as unused
      from invoices i join invoice_pads ip on ip.invoice_id = i.id and ip.left_at is null
        join pad_custody pc on pc.pad_id = ip.pad_id and pc.locked_by_invoice_id = i.id
        join pads p on p.id = ip.pad_id
      where ${inTransitSql} and i.branch_id is not null
      group by i.branch_id, p.route_id`,
  );
  return toNumbers(rows, ['branch_id', 'route_id', 'unused']);
}
