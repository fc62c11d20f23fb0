import { and, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { INVOICE_STATUS, ISSUANCE_STATUS, SERIES_ENTRY, USER_STATUS } from '../../../shared/lookups.ts';
import type { SeriesEntry } from '../../../shared/pad-status.ts';
import { fullName } from '../../../shared/format.ts';
import type { CustodyInvoice, HeldPad } from '../../../shared/schemas/custodies.ts';
import type { Conn } from '../../db/client.ts';
import {
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

export type InvoiceRow = typeof invoices.$inferSelect;
export type PadRow = typeof pads.$inferSelect;

const creator = alias(users, 'creator');
const creatorBranch = alias(branches, 'creator_branch');
const fromBranch = alias(branches, 'from_branch');
const toBranch = alias(branches, 'to_branch');
const courier = alias(users, 'courier');

const seriesText = sql<string>`(${pads.series_from}::text || '-' || ${pads.series_to}::text)`;

/** Who may see which invoices: DESIGN §5 "Who sees what", decided by the service and passed in as a filter. */
export type InvoiceScope =
  | { kind: 'all' }
  | { kind: 'carried'; userId: number }
  | { kind: 'involved'; userId: number; branchId: number | null };

function scopeCondition(scope: InvoiceScope): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  if (scope.kind === 'carried') return eq(invoices.assigned_user_id, scope.userId);
  const mine = [eq(invoices.user_id, scope.userId), eq(invoices.created_by, scope.userId), eq(invoices.assigned_user_id, scope.userId)];
  if (scope.branchId != null) mine.push(eq(invoices.branch_id, scope.branchId), eq(invoices.from_branch_id, scope.branchId));
  return or(...mine);
}

/** A pad by its number, its series text, or a receipt number inside its range. */
function padSearch(search: string): SQL {
  const text = sql`${seriesText} ILIKE ${likePattern(search)}`;
  if (!/^\d{1,15}$/.test(search)) return text;
  const n = Number(search);
  const byNumber = n <= 2_147_483_647 ? eq(pads.number, n) : undefined;
  return or(byNumber, text, and(sql`${pads.series_from} <= ${n}`, sql`${pads.series_to} >= ${n}`)) as SQL;
}

/** Branch names (creator's, origin, destination) or a pad of the invoice: its number exactly, or its series text. */
function inTransitSearch(search: string): SQL {
  const pattern = likePattern(search);
  const padMatch = padSearch(search);
  return or(
    sql`${creatorBranch.name} ILIKE ${pattern}`,
    sql`${fromBranch.name} ILIKE ${pattern}`,
    sql`${toBranch.name} ILIKE ${pattern}`,
    sql`exists (select 1 from ${invoicePads} inner join ${pads} on ${pads.id} = ${invoicePads.pad_id} where ${invoicePads.invoice_id} = ${invoices.id} and ${padMatch})`,
  ) as SQL;
}

const invoiceColumns = {
  invoice: invoices,
  type: { id: invoiceTypes.id, name: invoiceTypes.name },
  status: { id: invoiceStatuses.id, name: invoiceStatuses.name },
  creator: { id: creator.id, first_name: creator.first_name, middle_name: creator.middle_name, last_name: creator.last_name, branch_id: creator.branch_id },
  creatorBranch: { id: creatorBranch.id, name: creatorBranch.name },
  fromBranch: { id: fromBranch.id, name: fromBranch.name },
  toBranch: { id: toBranch.id, name: toBranch.name },
  route: { id: routes.id, name: routes.name, tin: routes.tin },
  company: { id: companies.id, name: companies.name },
  courier: { id: courier.id, first_name: courier.first_name, middle_name: courier.middle_name, last_name: courier.last_name },
};

function invoiceQuery(conn: Conn) {
  return conn
    .select(invoiceColumns)
    .from(invoices)
    .innerJoin(invoiceTypes, eq(invoiceTypes.id, invoices.invoice_type_id))
    .innerJoin(invoiceStatuses, eq(invoiceStatuses.id, invoices.invoice_status_id))
    .innerJoin(creator, eq(creator.id, invoices.user_id))
    .leftJoin(creatorBranch, eq(creatorBranch.id, creator.branch_id))
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .leftJoin(routes, eq(routes.id, invoices.route_id))
    .leftJoin(companies, eq(companies.id, routes.company_id))
    .leftJoin(courier, eq(courier.id, invoices.assigned_user_id));
}

type InvoiceJoinRow = Awaited<ReturnType<ReturnType<typeof invoiceQuery>['execute']>>[number];

function toCustodyInvoice(row: InvoiceJoinRow): CustodyInvoice {
  const i = row.invoice;
  const courierName = row.courier ? fullName(row.courier) : null;
  return {
    id: i.id,
    invoice_type_id: i.invoice_type_id,
    invoice_status_id: i.invoice_status_id,
    invoice_type: row.type,
    invoice_status: row.status,
    user_id: i.user_id,
    user: { id: row.creator.id, full_name: fullName(row.creator), branch_id: row.creator.branch_id, branch: row.creatorBranch },
    created_by: i.created_by,
    from_branch_id: i.from_branch_id,
    from_branch: row.fromBranch,
    branch_id: i.branch_id,
    branch: row.toBranch,
    route_id: i.route_id,
    route: row.route && row.company ? { ...row.route, company: row.company } : null,
    assigned_user_id: i.assigned_user_id,
    assigned_user: row.courier && courierName !== null ? { id: row.courier.id, full_name: courierName } : null,
    assigned_to: courierName,
    pads: i.pad_count,
    expected_return_date: i.expected_return_date,
    created_at: i.created_at.toISOString(),
  };
}

/** One page of In-Transit invoices inside the scope, newest first. */
export async function listInTransit(
  conn: Conn,
  options: { scope: InvoiceScope; search?: string; invoiceTypeId?: number; page: number; perPage: number },
): Promise<{ rows: CustodyInvoice[]; total: number }> {
  const where = and(
    eq(invoices.invoice_status_id, INVOICE_STATUS.IN_TRANSIT),
    scopeCondition(options.scope),
    options.invoiceTypeId ? eq(invoices.invoice_type_id, options.invoiceTypeId) : undefined,
    options.search ? inTransitSearch(options.search) : undefined,
  );
  const [{ count }] = await conn
    .select({ count: sql<number>`count(*)::int` })
    .from(invoices)
    .innerJoin(creator, eq(creator.id, invoices.user_id))
    .leftJoin(creatorBranch, eq(creatorBranch.id, creator.branch_id))
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .where(where);
  const rows = await invoiceQuery(conn)
    .where(where)
    .orderBy(desc(invoices.created_at), desc(invoices.id))
    .limit(options.perPage)
    .offset(offsetOf(options.page, options.perPage));
  return { rows: rows.map(toCustodyInvoice), total: count };
}

export async function findCustodyInvoice(conn: Conn, id: number): Promise<CustodyInvoice | undefined> {
  const [row] = await invoiceQuery(conn).where(eq(invoices.id, id)).limit(1);
  return row ? toCustodyInvoice(row) : undefined;
}

export async function findInvoice(conn: Conn, id: number): Promise<InvoiceRow | undefined> {
  const [row] = await conn.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return row;
}

function seriesEntries(from: number, status: string): SeriesEntry[] {
  return Array.from(status, (mark, i) => ({ number: from + i, status: mark === '2' ? SERIES_ENTRY.USED : SERIES_ENTRY.NOT_USED }));
}

const heldPadWhere = (userId: number) => and(eq(pads.holder_user_id, userId), isNull(pads.locked_by_invoice_id));


/** One page of the pads a user holds and may move (not locked by an invoice in transit). */
export async function listHeldPads(
  conn: Conn,
  options: { userId: number; search?: string; page: number; perPage: number },
): Promise<{ rows: HeldPad[]; total: number }> {
  const where = and(heldPadWhere(options.userId), options.search ? padSearch(options.search) : undefined);
  const [{ count }] = await conn.select({ count: sql<number>`count(*)::int` }).from(pads).where(where);
  const rows = await conn
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
      },
      route: { id: routes.id, name: routes.name, tin: routes.tin, company_id: routes.company_id },
      company: { id: companies.id, name: companies.name },
      padStatus: { id: padStatuses.id, name: padStatuses.name },
      issuanceStatus: { id: issuanceStatuses.id, name: issuanceStatuses.name },
    })
    .from(pads)
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, pads.issuance_status_id))
    .where(where)
    .orderBy(routes.name, pads.route_id, pads.number)
    .limit(options.perPage)
    .offset(offsetOf(options.page, options.perPage));
  return {
    rows: rows.map(({ pad: { series_status, ...pad }, ...r }) => ({
      ...pad,
      route: { ...r.route, company: r.company },
      series_number: `${pad.series_from}-${pad.series_to}`,
      series: seriesEntries(pad.series_from, series_status),
      pad_status: r.padStatus,
      issuance_status: r.issuanceStatus,
    })),
    total: count,
  };
}

export async function findPads(conn: Conn, ids: number[]): Promise<PadRow[]> {
  if (ids.length === 0) return [];
  return conn.select().from(pads).where(inArray(pads.id, ids));
}

export async function findActiveUser(conn: Conn, id: number) {
  const [row] = await conn
    .select({ id: users.id, first_name: users.first_name, middle_name: users.middle_name, last_name: users.last_name, branch_id: users.branch_id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.user_status_id, USER_STATUS.ACTIVE)))
    .limit(1);
  return row;
}

export async function findBranch(conn: Conn, id: number) {
  const [row] = await conn.select({ id: branches.id, name: branches.name }).from(branches).where(eq(branches.id, id)).limit(1);
  return row;
}

export async function insertInvoice(conn: Conn, values: typeof invoices.$inferInsert): Promise<InvoiceRow> {
  const [row] = await conn.insert(invoices).values(values).returning();
  return row;
}

export async function linkPads(conn: Conn, invoiceId: number, padIds: number[]): Promise<void> {
  await conn.insert(invoicePads).values(padIds.map((pad_id) => ({ invoice_id: invoiceId, pad_id })));
}

/** Locks the pads to an invoice only while the user still holds them unlocked; returns the ids it locked. */
export async function lockHeldPads(conn: Conn, padIds: number[], userId: number, invoiceId: number): Promise<number[]> {
  const rows = await conn
    .update(pads)
    .set({ locked_by_invoice_id: invoiceId, updated_at: new Date() })
    .where(and(inArray(pads.id, padIds), heldPadWhere(userId)))
    .returning({ id: pads.id });
  return rows.map((r) => r.id);
}

/** Reassigns the courier only if the invoice is still In-Transit with the courier the caller saw. */
export async function reassignCourier(conn: Conn, invoiceId: number, expectedCourierId: number | null, newCourierId: number): Promise<InvoiceRow | undefined> {
  const [row] = await conn
    .update(invoices)
    .set({ assigned_user_id: newCourierId, updated_at: new Date() })
    .where(
      and(
        eq(invoices.id, invoiceId),
        eq(invoices.invoice_status_id, INVOICE_STATUS.IN_TRANSIT),
        expectedCourierId === null ? isNull(invoices.assigned_user_id) : eq(invoices.assigned_user_id, expectedCourierId),
      ),
    )
    .returning();
  return row;
}

/** Completes an In-Transit invoice; undefined when someone else completed it first. */
export async function completeInTransit(conn: Conn, invoiceId: number, acceptedBy: number): Promise<InvoiceRow | undefined> {
  const now = new Date();
  const [row] = await conn
    .update(invoices)
    .set({ invoice_status_id: INVOICE_STATUS.COMPLETED, accepted_by: acceptedBy, accepted_at: now, updated_at: now })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.invoice_status_id, INVOICE_STATUS.IN_TRANSIT)))
    .returning();
  return row;
}

/** Unlocks an invoice's pads and gives them to their new holder; a Return also makes them Not Issued again. */
export async function releasePads(
  conn: Conn,
  invoiceId: number,
  to: { holderUserId: number | null; holderBranchId: number | null; notIssuedAgain: boolean },
): Promise<number> {
  const rows = await conn
    .update(pads)
    .set({
      locked_by_invoice_id: null,
      holder_user_id: to.holderUserId,
      holder_branch_id: to.holderBranchId,
      ...(to.notIssuedAgain ? { issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED } : {}),
      updated_at: new Date(),
    })
    .where(eq(pads.locked_by_invoice_id, invoiceId))
    .returning({ id: pads.id });
  return rows.length;
}
