import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { seriesRange } from '../../../shared/format.ts';
import type { ActivityRow, InvoicePad } from '../../../shared/schemas/invoices.ts';
import type { Conn } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { activities, invoicePads, invoiceStatuses, invoices } from '../../db/schema/invoices.ts';
import { issuanceStatuses, padCustody, padStatuses, pads } from '../../db/schema/pads.ts';
import { companies, routes } from '../../db/schema/reference.ts';
import { users } from '../../db/schema/users.ts';
import { offsetOf } from '../../lib/pagination.ts';
import { padMatches } from '../pads/read-model.ts';
import { fullNameOf } from '../users/read-model.ts';
import { iso, ref } from './list-repo.ts';

/** What one invoice's details page reads beside the invoice row: its timeline, its pads, the slip's pads, the issue that answered a request. */
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

/** The pads an invoice carries (not those a loss on the way took off it), searchable and paged. */
export async function listInvoicePads(
  conn: Conn,
  invoiceId: number,
  query: { page: number; per_page: number; search?: string },
): Promise<{ rows: InvoicePad[]; total: number }> {
  const search = query.search?.trim();
  const where = and(eq(invoicePads.invoice_id, invoiceId), isNull(invoicePads.left_at), search ? padMatches(search) : undefined);
  const rows = await conn
    .select(padColumns)
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .innerJoin(padCustody, eq(padCustody.pad_id, invoicePads.pad_id))
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, padCustody.issuance_status_id))
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
      issuance_status_id: r.issuanceStatus.id,
      issuance_status: r.issuanceStatus,
      remarks: r.pad.remarks,
    })),
  };
}

/** The pads of one invoice with their routes, as the transmittal slip prints them; `left_at` when a loss took one off it. */
export async function slipPads(conn: Conn, invoiceId: number) {
  return conn
    .select({
      number: pads.number,
      series_from: pads.series_from,
      series_to: pads.series_to,
      route: routes.name,
      left_at: invoicePads.left_at,
    })
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .where(eq(invoicePads.invoice_id, invoiceId))
    .orderBy(routes.name, pads.series_from);
}
