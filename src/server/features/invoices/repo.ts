import { and, asc, desc, eq, exists, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { INVOICE_STATUS, ISSUANCE_STATUS, PAD_STATUS, USER_STATUS } from '../../../shared/lookups.ts';
import type { Actor } from '../../../shared/permissions.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type {
  ActivityRow,
  AssignedUser,
  InvoiceListQuery,
  InvoicePad,
  InvoiceRow,
} from '../../../shared/schemas/invoices.ts';
import type { Conn } from '../../db/client.ts';
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
  routes,
  users,
} from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';

export type InvoiceRecord = typeof invoices.$inferSelect;

const requester = alias(users, 'requester');
const requesterBranch = alias(branches, 'requester_branch');
const creator = alias(users, 'creator');
const assignee = alias(users, 'assignee');
const fromBranch = alias(branches, 'from_branch');
const toBranch = alias(branches, 'to_branch');

/** First, middle and last name joined as format.ts fullName() does it. */
const fullNameOf = (t: { first_name: PgColumn; middle_name: PgColumn; last_name: PgColumn }) =>
  sql<string>`concat_ws(' ', nullif(trim(${t.first_name}), ''), nullif(trim(${t.middle_name}), ''), nullif(trim(${t.last_name}), ''))`;

const ref = <I extends PgColumn, N extends PgColumn>(id: I, name: N) => ({ id, name });

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

type InvoiceSelection = {
  invoice: InvoiceRecord;
  type: NamedRef | null;
  status: NamedRef | null;
  requesterName: string;
  requesterBranchId: number | null;
  requesterBranch: NamedRef | null;
  creatorName: string;
  assigneeName: string | null;
  fromBranch: NamedRef | null;
  toBranch: NamedRef | null;
  route: { id: number; name: string; tin: string } | null;
  company: NamedRef | null;
};

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

const iso = (value: Date | string | null) => (value == null ? null : new Date(value).toISOString());

function toRow(r: InvoiceSelection): InvoiceRow {
  const i = r.invoice;
  const assigned = i.assigned_user_id != null && r.assigneeName != null ? { id: i.assigned_user_id, full_name: r.assigneeName } : null;
  return {
    id: i.id,
    invoice_type_id: i.invoice_type_id,
    invoice_type: r.type ?? { id: i.invoice_type_id, name: '' },
    invoice_status_id: i.invoice_status_id,
    invoice_status: r.status ?? { id: i.invoice_status_id, name: '' },
    user_id: i.user_id,
    user: { id: i.user_id, full_name: r.requesterName, branch_id: r.requesterBranchId, branch: r.requesterBranch },
    created_by: i.created_by,
    creator: { id: i.created_by, full_name: r.creatorName },
    from_branch_id: i.from_branch_id,
    from_branch: r.fromBranch,
    branch_id: i.branch_id,
    branch: r.toBranch,
    route_id: i.route_id,
    route: r.route && r.company ? { ...r.route, company: r.company } : null,
    assigned_user_id: i.assigned_user_id,
    assigned_user: assigned,
    assigned_to: assigned?.full_name ?? null,
    pads: i.pad_count,
    request_invoice_id: i.request_invoice_id,
    expected_return_date: i.expected_return_date,
    accepted_by: i.accepted_by,
    accepted_at: iso(i.accepted_at),
    created_at: iso(i.created_at) ?? '',
  };
}

/**
 * DESIGN "Who sees what" for everyone without invoice.seeAll: invoices they created, asked for, carry or
 * carried, accepted, or that leave from or go to their branch.
 */
export function visibleTo(actor: Actor): SQL {
  const mine = or(
    eq(invoices.user_id, actor.id),
    eq(invoices.created_by, actor.id),
    eq(invoices.assigned_user_id, actor.id),
    eq(invoices.accepted_by, actor.id),
    sql`exists (select 1 from ${activities} where ${activities.invoice_id} = ${invoices.id} and (${activities.user_id} = ${actor.id} or ${activities.assigned_user_id} = ${actor.id}))`,
  ) as SQL;
  if (actor.branch_id == null) return mine;
  return or(mine, eq(invoices.branch_id, actor.branch_id), eq(invoices.from_branch_id, actor.branch_id)) as SQL;
}

const seriesText = sql`(${pads.series_from}::text || '-' || ${pads.series_to}::text)`;

/** A pad matches a search by its pad number, its series range text, or a receipt number inside the range. */
function padMatches(search: string): SQL {
  const pattern = likePattern(search);
  const conditions: SQL[] = [sql`${pads.number}::text = ${search}`, sql`${seriesText} ilike ${pattern}`];
  if (/^\d{1,15}$/.test(search)) conditions.push(sql`${Number(search)} between ${pads.series_from} and ${pads.series_to}`);
  return or(...conditions) as SQL;
}

export async function listInvoices(
  conn: Conn,
  query: InvoiceListQuery,
  scope: SQL | undefined,
  timeZone: string,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  const filters: SQL[] = [];
  if (scope) filters.push(scope);
  if (query.invoice_type) filters.push(eq(invoices.invoice_type_id, query.invoice_type));
  if (query.invoice_status) filters.push(eq(invoices.invoice_status_id, query.invoice_status));
  if (query.issuance_status) {
    filters.push(
      exists(
        conn
          .select({ one: sql`1` })
          .from(invoicePads)
          .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
          .where(and(eq(invoicePads.invoice_id, invoices.id), eq(pads.issuance_status_id, query.issuance_status))),
      ),
    );
  }
  if (query.start_date) filters.push(sql`${invoices.created_at} >= (${query.start_date}::date::timestamp at time zone ${timeZone})`);
  if (query.end_date) {
    filters.push(sql`${invoices.created_at} < ((${query.end_date}::date + 1)::timestamp at time zone ${timeZone})`);
  }
  const search = query.search?.trim();
  if (search) {
    const pattern = likePattern(search);
    filters.push(
      or(
        ilike(fromBranch.name, pattern),
        ilike(toBranch.name, pattern),
        exists(
          conn
            .select({ one: sql`1` })
            .from(invoicePads)
            .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
            .where(and(eq(invoicePads.invoice_id, invoices.id), padMatches(search))),
        ),
      ) as SQL,
    );
  }
  const where = filters.length ? and(...filters) : undefined;
  const rows = await selectInvoices(conn)
    .where(where)
    .orderBy(desc(invoices.created_at), desc(invoices.id))
    .limit(query.per_page)
    .offset(offsetOf(query.page, query.per_page));
  const [{ count }] = await conn
    .select({ count: sql<number>`count(*)::int` })
    .from(invoices)
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .where(where);
  return { rows: rows.map(toRow), total: count };
}

export async function findInvoiceRow(conn: Conn, id: number, scope?: SQL): Promise<InvoiceRow | undefined> {
  const [row] = await selectInvoices(conn)
    .where(scope ? and(eq(invoices.id, id), scope) : eq(invoices.id, id))
    .limit(1);
  return row ? toRow(row) : undefined;
}

export async function findInvoice(conn: Conn, id: number): Promise<InvoiceRecord | undefined> {
  const [row] = await conn.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return row;
}

export async function findIssuedFor(conn: Conn, requestId: number): Promise<number | null> {
  const [row] = await conn.select({ id: invoices.id }).from(invoices).where(eq(invoices.request_invoice_id, requestId)).limit(1);
  return row?.id ?? null;
}

const actor = alias(users, 'actor');
const activityAssignee = alias(users, 'activity_assignee');

/** The history of the given invoices, oldest first. */
export async function listActivities(conn: Conn, invoiceIds: number[]): Promise<ActivityRow[]> {
  const rows = await conn
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
    .where(inArray(activities.invoice_id, invoiceIds))
    .orderBy(asc(activities.id));
  return rows.map((r) => {
    const a = r.activity;
    return {
      id: a.id,
      invoice_id: a.invoice_id,
      invoice_status_id: a.invoice_status_id,
      invoice_status: r.status as NamedRef,
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
      series_number: `${r.pad.series_from}-${r.pad.series_to}`,
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

export async function routeExists(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn.select({ id: routes.id }).from(routes).where(eq(routes.id, id)).limit(1);
  return Boolean(row);
}

export async function findBranch(conn: Conn, id: number): Promise<NamedRef | undefined> {
  const [row] = await conn.select({ id: branches.id, name: branches.name }).from(branches).where(eq(branches.id, id)).limit(1);
  return row;
}

export interface UserFacts {
  id: number;
  branch_id: number | null;
  role_id: number | null;
  user_status_id: number;
  badge_version: number;
  first_name: string;
  last_name: string;
  full_name: string;
}

export async function findUser(conn: Conn, id: number): Promise<UserFacts | undefined> {
  const [row] = await conn
    .select({
      id: users.id,
      branch_id: users.branch_id,
      role_id: users.role_id,
      user_status_id: users.user_status_id,
      badge_version: users.badge_version,
      first_name: users.first_name,
      last_name: users.last_name,
      full_name: fullNameOf(users),
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

export const toAssignedUser = (u: UserFacts): AssignedUser => ({
  id: u.id,
  full_name: u.full_name,
  first_name: u.first_name,
  last_name: u.last_name,
  role_id: u.role_id,
  branch_id: u.branch_id,
});

export const isActive = (u: UserFacts) => u.user_status_id === USER_STATUS.ACTIVE;

export async function insertInvoice(conn: Conn, values: typeof invoices.$inferInsert): Promise<InvoiceRecord> {
  const [row] = await conn.insert(invoices).values(values).returning();
  return row;
}

/** Moves an invoice from one status to another only if it is still in the first; null when it no longer was. */
export async function transition(
  conn: Conn,
  id: number,
  from: number,
  values: Partial<typeof invoices.$inferInsert> & { invoice_status_id: number },
): Promise<InvoiceRecord | null> {
  const [row] = await conn
    .update(invoices)
    .set({ ...values, updated_at: new Date() })
    .where(and(eq(invoices.id, id), eq(invoices.invoice_status_id, from)))
    .returning();
  return row ?? null;
}

/** Pads among the ids that could be issued on the route now (spec §4 "Pads available for issuing"). */
const availableOnRoute = (routeId: number) =>
  and(
    eq(pads.route_id, routeId),
    isNull(pads.locked_by_invoice_id),
    eq(pads.issuance_status_id, ISSUANCE_STATUS.NOT_ISSUED),
    inArray(pads.pad_status_id, [PAD_STATUS.UNUSED, PAD_STATUS.PARTIALLY_USED]),
  );

export async function countAvailable(conn: Conn, padIds: number[], routeId: number): Promise<number> {
  const [{ count }] = await conn
    .select({ count: sql<number>`count(*)::int` })
    .from(pads)
    .where(and(inArray(pads.id, padIds), availableOnRoute(routeId)));
  return count;
}

/** Marks the pads Issued and locks them to the invoice, each only if still available; returns how many it got. */
export async function lockPadsForIssue(conn: Conn, padIds: number[], routeId: number, invoiceId: number): Promise<number> {
  const rows = await conn
    .update(pads)
    .set({ issuance_status_id: ISSUANCE_STATUS.ISSUED, locked_by_invoice_id: invoiceId, updated_at: new Date() })
    .where(and(inArray(pads.id, padIds), availableOnRoute(routeId)))
    .returning({ id: pads.id });
  return rows.length;
}

export async function linkPads(conn: Conn, invoiceId: number, padIds: number[]): Promise<void> {
  await conn.insert(invoicePads).values(padIds.map((pad_id) => ({ invoice_id: invoiceId, pad_id })));
}

/** Unlocks the invoice's pads and hands them to their new holder. */
export async function releasePadsTo(conn: Conn, invoiceId: number, holder: { userId: number; branchId: number | null }): Promise<number> {
  const rows = await conn
    .update(pads)
    .set({ locked_by_invoice_id: null, holder_user_id: holder.userId, holder_branch_id: holder.branchId, updated_at: new Date() })
    .where(eq(pads.locked_by_invoice_id, invoiceId))
    .returning({ id: pads.id });
  return rows.length;
}

/** Deletes a Pending invoice and its history in one go; false when it was no longer Pending. */
export async function deletePending(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.invoice_status_id, INVOICE_STATUS.PENDING)))
    .for('update');
  if (!row) return false;
  await conn.delete(invoicePads).where(eq(invoicePads.invoice_id, id));
  await conn.delete(activities).where(eq(activities.invoice_id, id));
  await conn.delete(invoices).where(eq(invoices.id, id));
  return true;
}

export async function lookup(conn: Conn, which: 'types' | 'statuses'): Promise<NamedRef[]> {
  const table = which === 'types' ? invoiceTypes : invoiceStatuses;
  return conn.select({ id: table.id, name: table.name }).from(table).orderBy(asc(table.id));
}
