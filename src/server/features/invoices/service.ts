import { fullName, dateInZone } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../../../shared/lookups.ts';
import { MSG } from '../../../shared/messages.ts';
import { can, canOpenScreen } from '../../../shared/permissions.ts';
import type { NamedRef, Paginated } from '../../../shared/schemas/common.ts';
import {
  INVOICE_MSG,
  scannedCode,
  type AssignedUser,
  type InvoiceAssignedUserCheck,
  type InvoiceDetail,
  type InvoiceListQuery,
  type InvoicePage,
  type InvoicePad,
  type InvoicePadLink,
  type InvoiceRow,
} from '../../../shared/schemas/invoices.ts';
import type { AppContext } from '../../context.ts';
import { sqlState, violatedConstraint } from '../../db/client.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { claimedUserId, verifyBadge } from '../../lib/badge.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { acceptTransfer } from '../custodies/service.ts';
import { recordActivity } from './activities.ts';
import * as repo from './repo.ts';

const scopeFor = (actor: AuthUser) => (can(actor, 'invoice.seeAll') ? undefined : repo.visibleTo(actor));

/** Spec §2 Transactions list, limited to what the actor may see (DESIGN "Who sees what"). */
export async function list(ctx: AppContext, actor: AuthUser, query: InvoiceListQuery): Promise<InvoicePage> {
  if (!canOpenScreen(actor, 'invoices')) throw forbidden();
  const { rows, total } = await repo.listInvoices(ctx.db, query, scopeFor(actor), ctx.config.timeZone);
  return { ...paginated(rows, total, query.page, query.per_page), time_zone: ctx.config.timeZone };
}

async function visibleInvoice(ctx: AppContext, actor: AuthUser, id: number): Promise<InvoiceRow> {
  const row = await repo.findInvoiceRow(ctx.db, id, scopeFor(actor));
  if (!row) throw notFound(INVOICE_MSG.notFound);
  return row;
}

/** One invoice with its whole history; an invoice the actor may not see is answered as not found. */
export async function detail(ctx: AppContext, actor: AuthUser, id: number): Promise<InvoiceDetail> {
  const row = await visibleInvoice(ctx, actor, id);
  const chain = row.request_invoice_id ? [row.request_invoice_id, row.id] : [row.id];
  const issuedInvoiceId = row.invoice_type_id === INVOICE_TYPE.REQUEST ? await repo.findIssuedFor(ctx.db, row.id) : null;
  return {
    ...row,
    issued_invoice_id: issuedInvoiceId,
    activities: await repo.listActivities(ctx.db, chain),
    time_zone: ctx.config.timeZone,
  };
}

/** The pads an invoice carries (spec "pads-belong-to-invoice"), for whoever may see the invoice. */
export async function pads(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
  query: { page: number; per_page: number; search?: string },
): Promise<Paginated<InvoicePad>> {
  await visibleInvoice(ctx, actor, id);
  const { rows, total } = await repo.listInvoicePads(ctx.db, id, query);
  return paginated(rows, total, query.page, query.per_page);
}

/** The same pads as spec §3 "Invoice pad link" rows. */
export async function padLinks(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
  query: { page: number; per_page: number; search?: string },
): Promise<Paginated<InvoicePadLink>> {
  const page = await pads(ctx, actor, id, query);
  return { ...page, data: page.data.map((pad) => ({ invoice_id: id, pad_id: pad.id, pad })) };
}

/** The head office is where every request goes (spec: the fixed branch), so the form can show its name. */
export async function headOffice(ctx: AppContext): Promise<NamedRef> {
  const branch = await repo.findBranch(ctx.db, ctx.config.headOfficeBranchId);
  if (!branch) throw conflict(INVOICE_MSG.headOfficeMissing);
  return branch;
}

/** Spec §4 request: any role 1–9 asks the head office for N pads of a route; it waits as Pending. */
export async function createRequest(
  ctx: AppContext,
  actor: AuthUser,
  input: { branch_id?: number; route_id: number; pads: number },
): Promise<InvoiceRow> {
  if (!can(actor, 'invoice.request')) throw forbidden();
  const headOfficeId = ctx.config.headOfficeBranchId;
  if (input.branch_id !== undefined && input.branch_id !== headOfficeId) throw invalid('branch_id', INVOICE_MSG.headOfficeOnly);
  if (!(await repo.findBranch(ctx.db, headOfficeId))) throw conflict(INVOICE_MSG.headOfficeMissing);
  if (!(await repo.routeExists(ctx.db, input.route_id))) throw invalid('route_id', INVOICE_MSG.routeMissing);
  const id = await ctx.db.transaction(async (tx) => {
    const invoice = await repo.insertInvoice(tx, {
      invoice_type_id: INVOICE_TYPE.REQUEST,
      invoice_status_id: INVOICE_STATUS.PENDING,
      user_id: actor.id,
      created_by: actor.id,
      from_branch_id: actor.branch_id,
      branch_id: headOfficeId,
      route_id: input.route_id,
      pad_count: input.pads,
    });
    await recordActivity(tx, {
      invoiceId: invoice.id,
      statusId: INVOICE_STATUS.PENDING,
      description: `${fullName(actor)} requested ${plural(input.pads, 'pad')}.`,
      actorId: actor.id,
    });
    return invoice.id;
  });
  return (await repo.findInvoiceRow(ctx.db, id)) as InvoiceRow;
}

const plural = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

/** YYYY-MM-DD that is `days` after today in the app's time zone. */
function dueDate(timeZone: string, days: number): string {
  const today = Date.parse(`${dateInZone(new Date(), timeZone)}T00:00:00Z`);
  return new Date(today + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Spec §4 issuing: the custodian fulfils a Pending request once. The request is claimed with a conditional
 * update and the pads with a locking update, so parallel attempts get a 409 instead of a second issue.
 */
export async function issue(
  ctx: AppContext,
  actor: AuthUser,
  input: { invoice_id: number; route_id?: number; pads: number[]; assigned_user_id: number; expected_return: number; user_id?: number },
): Promise<InvoiceRow> {
  if (!can(actor, 'invoice.issue')) throw forbidden();
  const request = await repo.findInvoice(ctx.db, input.invoice_id);
  if (!request) throw notFound(INVOICE_MSG.notFound);
  if (request.invoice_type_id !== INVOICE_TYPE.REQUEST) throw invalid('invoice_id', INVOICE_MSG.notARequest);
  if (request.invoice_status_id !== INVOICE_STATUS.PENDING || !request.route_id) throw conflict(INVOICE_MSG.alreadyIssued);
  if (input.user_id !== undefined && input.user_id !== request.user_id) throw invalid('user_id', INVOICE_MSG.requesterMismatch);
  if (input.route_id !== undefined && input.route_id !== request.route_id) throw invalid('route_id', INVOICE_MSG.routeMismatch);
  const padIds = [...new Set(input.pads)];
  if (padIds.length > request.pad_count) throw invalid('pads', INVOICE_MSG.tooManyPads(request.pad_count));
  const courier = await repo.findUser(ctx.db, input.assigned_user_id);
  if (!courier || !repo.isActive(courier)) throw invalid('assigned_user_id', INVOICE_MSG.assigneeInvalid);
  const routeId = request.route_id;
  if ((await repo.countAvailable(ctx.db, padIds, routeId)) !== padIds.length) throw invalid('pads', INVOICE_MSG.padsNotAvailable);
  const requester = await repo.findUser(ctx.db, request.user_id);

  let issuedId: number;
  try {
    issuedId = await ctx.db.transaction(async (tx) => {
      const claimed = await repo.transition(tx, request.id, INVOICE_STATUS.PENDING, { invoice_status_id: INVOICE_STATUS.ISSUED });
      if (!claimed) throw conflict(INVOICE_MSG.alreadyIssued);
      const issued = await repo.insertInvoice(tx, {
        invoice_type_id: INVOICE_TYPE.ISSUED,
        invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
        user_id: request.user_id,
        created_by: actor.id,
        from_branch_id: ctx.config.headOfficeBranchId,
        branch_id: requester?.branch_id ?? request.from_branch_id,
        route_id: routeId,
        assigned_user_id: courier.id,
        pad_count: padIds.length,
        request_invoice_id: request.id,
        expected_return_date: dueDate(ctx.config.timeZone, input.expected_return),
      });
      const locked = await repo.lockPadsForIssue(tx, padIds, routeId, issued.id);
      if (locked !== padIds.length) throw conflict(INVOICE_MSG.padsTaken);
      await repo.linkPads(tx, issued.id, padIds);
      await recordActivity(tx, {
        invoiceId: request.id,
        statusId: INVOICE_STATUS.ISSUED,
        description: `${fullName(actor)} issued ${plural(padIds.length, 'pad')} for this request (invoice #${issued.id}).`,
        actorId: actor.id,
      });
      await recordActivity(tx, {
        invoiceId: issued.id,
        statusId: INVOICE_STATUS.IN_TRANSIT,
        description: `${plural(padIds.length, 'pad')} issued and on the way to the requester.`,
        actorId: actor.id,
        assignedUserId: courier.id,
      });
      return issued.id;
    });
  } catch (error) {
    if (sqlState(error) === '23505' && violatedConstraint(error) === 'invoices_request_uq') throw conflict(INVOICE_MSG.alreadyIssued);
    if (sqlState(error) === '40001' || sqlState(error) === '40P01') throw conflict(INVOICE_MSG.padsTaken);
    throw error;
  }
  return (await repo.findInvoiceRow(ctx.db, issuedId)) as InvoiceRow;
}

/** Spec §4 accepting, per invoice type; only one of any number of parallel accepts succeeds. */
export async function accept(ctx: AppContext, actor: AuthUser, id: number): Promise<InvoiceRow> {
  const invoice = await repo.findInvoice(ctx.db, id);
  if (!invoice) throw notFound(INVOICE_MSG.notFound);
  if (!can(actor, 'invoice.accept', invoice)) {
    await visibleInvoice(ctx, actor, id);
    if (invoice.invoice_status_id !== INVOICE_STATUS.IN_TRANSIT) throw conflict(INVOICE_MSG.notInTransit);
    throw forbidden();
  }
  await ctx.db.transaction(async (tx) => {
    if (invoice.invoice_type_id !== INVOICE_TYPE.ISSUED) {
      await acceptTransfer(tx, ctx, actor, invoice);
      return;
    }
    const done = await repo.transition(tx, id, INVOICE_STATUS.IN_TRANSIT, {
      invoice_status_id: INVOICE_STATUS.COMPLETED,
      accepted_by: actor.id,
      accepted_at: new Date(),
    });
    if (!done) throw conflict(INVOICE_MSG.notInTransit);
    await repo.releasePadsTo(tx, id, { userId: invoice.user_id, branchId: invoice.branch_id });
    await recordActivity(tx, {
      invoiceId: id,
      statusId: INVOICE_STATUS.COMPLETED,
      description: `${fullName(actor)} received ${plural(invoice.pad_count, 'pad')}.`,
      actorId: actor.id,
    });
  });
  return (await repo.findInvoiceRow(ctx.db, id)) as InvoiceRow;
}

/** DESIGN: only a Pending invoice may go, by its creator or an administrator; history of anything else stays. */
export async function remove(ctx: AppContext, actor: AuthUser, id: number): Promise<void> {
  const invoice = await repo.findInvoice(ctx.db, id);
  if (!invoice) throw notFound(INVOICE_MSG.notFound);
  const mayDelete = invoice.created_by === actor.id || actor.role_id === ROLE.ADMIN || actor.role_id === ROLE.IT_ADMIN;
  if (!mayDelete) {
    await visibleInvoice(ctx, actor, id);
    throw forbidden();
  }
  if (invoice.invoice_status_id !== INVOICE_STATUS.PENDING) throw conflict(INVOICE_MSG.onlyPendingDelete);
  const deleted = await ctx.db.transaction((tx) => repo.deletePending(tx, id));
  if (!deleted) throw conflict(INVOICE_MSG.onlyPendingDelete);
}

/** The Invoice Type filter's options (seeded lookup). */
export const types = (ctx: AppContext) => repo.lookup(ctx.db, 'types');
/** The Invoice Status filter's options (seeded lookup). */
export const statuses = (ctx: AppContext) => repo.lookup(ctx.db, 'statuses');

/** A scanned badge to the active user it belongs to; a bare, altered or outdated number is refused. */
export async function resolveBadge(ctx: AppContext, code: string | undefined): Promise<AssignedUser> {
  const parsed = scannedCode.safeParse(code ?? '');
  if (!parsed.success) throw invalid('code', parsed.error.issues[0]?.message ?? MSG.qrInvalidBadge);
  const userId = claimedUserId(parsed.data);
  if (userId === null) throw invalid('code', MSG.qrInvalidBadge);
  const user = await repo.findUser(ctx.db, userId);
  if (!user || !verifyBadge(ctx.badgeSecret, parsed.data, user.id, user.badge_version)) throw invalid('code', MSG.badgeNotRecognised);
  if (!repo.isActive(user)) throw invalid('code', INVOICE_MSG.userInactive);
  return repo.toAssignedUser(user);
}

/** Spec Confirm Invoice: the person handing the pads over must be the invoice's assigned courier. */
export async function checkCourier(
  ctx: AppContext,
  actor: AuthUser,
  invoiceId: number,
  code: string | undefined,
): Promise<{ ok: boolean; body: InvoiceAssignedUserCheck }> {
  const invoice = await visibleInvoice(ctx, actor, invoiceId);
  const user = await resolveBadge(ctx, code);
  if (invoice.assigned_user_id == null) {
    return { ok: false, body: { status: false, assigned_user_id: null, message: INVOICE_MSG.noCourier } };
  }
  if (user.id !== invoice.assigned_user_id) {
    return { ok: false, body: { status: false, assigned_user_id: invoice.assigned_user_id, message: INVOICE_MSG.courierMismatch } };
  }
  return { ok: true, body: { status: true, assigned_user_id: user.id, message: INVOICE_MSG.courierConfirmed, data: user } };
}
