import { TRANSFER_TYPES } from '../../../shared/custody-rules.ts';
import { INVOICE_TYPE, USER_STATUS } from '../../../shared/lookups.ts';
import { MSG } from '../../../shared/messages.ts';
import { can, canOpenScreen, invoiceScope } from '../../../shared/permissions.ts';
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
import type { AuthUser } from '../../lib/auth.ts';
import { claimedUserId, verifyBadge } from '../../lib/badge.ts';
import { withCodeTries, WrongCode, type CodeScanner } from '../../lib/code-tries.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import type { RowSource } from '../../lib/export.ts';
import { paginated } from '../../lib/pagination.ts';
import * as details from './details-repo.ts';
import * as invoiceList from './list-repo.ts';
import * as repo from './repo.ts';
import { slipPdf } from './slip.ts';

/** docs/spec.md §2 Transactions list, limited to what the actor may see (docs/design.md §5 "Who sees what"). */
export async function list(ctx: AppContext, actor: AuthUser, query: InvoiceListQuery): Promise<InvoicePage> {
  const { rows, total } = await invoiceList.listInvoices(
    ctx.db,
    listFilter(actor, query),
    { page: query.page, perPage: query.per_page, sort: query.sort, direction: query.order },
    ctx.config.timeZone,
  );
  return { ...paginated(rows, total, query.page, query.per_page), time_zone: ctx.config.timeZone };
}

function listFilter(actor: AuthUser, query: InvoiceListQuery): invoiceList.InvoiceFilter {
  if (!canOpenScreen(actor, 'invoices')) throw forbidden();
  return {
    scope: invoiceScope(actor),
    typeId: query.invoice_type,
    statusId: query.invoice_status,
    issuanceStatusId: query.issuance_status,
    createdFrom: query.start_date,
    createdTo: query.end_date,
    search: query.search ? { text: query.search, by: 'branchOrPad' } : undefined,
  };
}

/** docs/design.md §10 Export: every invoice of the Transactions list for these filters, in its order, in batches. */
export function listSource(ctx: AppContext, actor: AuthUser, query: InvoiceListQuery): RowSource<InvoiceRow> {
  const filter = listFilter(actor, query);
  return (write) => invoiceList.streamInvoices(ctx.db, filter, { sort: query.sort, direction: query.order }, ctx.config.timeZone, write);
}

async function visibleInvoice(ctx: AppContext, actor: AuthUser, id: number): Promise<InvoiceRow> {
  const row = await invoiceList.findInvoiceRow(ctx.db, id, ctx.config.timeZone);
  if (!row || !can(actor, 'invoice.see', row)) throw notFound(INVOICE_MSG.notFound);
  return row;
}

/** One invoice with its whole history; an invoice the actor may not see is answered as not found. */
export async function detail(ctx: AppContext, actor: AuthUser, id: number): Promise<InvoiceDetail> {
  const [row, activities] = await Promise.all([
    invoiceList.findInvoiceRow(ctx.db, id, ctx.config.timeZone),
    details.listChainActivities(ctx.db, id),
  ]);
  if (!row || !can(actor, 'invoice.see', row)) throw notFound(INVOICE_MSG.notFound);
  const issuedInvoiceId = row.invoice_type_id === INVOICE_TYPE.REQUEST ? await details.findIssuedFor(ctx.db, row.id) : null;
  /* The row is this request's own parse: added to in place, as toRow does (list-repo.ts), not copied by spread. */
  return Object.assign(row, { issued_invoice_id: issuedInvoiceId, activities, time_zone: ctx.config.timeZone });
}

/** The pads an invoice carries (spec "pads-belong-to-invoice"), for whoever may see the invoice. */
export async function pads(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
  query: { page: number; per_page: number; search?: string },
): Promise<Paginated<InvoicePad>> {
  await visibleInvoice(ctx, actor, id);
  const { rows, total } = await details.listInvoicePads(ctx.db, id, query);
  return paginated(rows, total, query.page, query.per_page);
}

/** The same pads as docs/spec.md §3 "Invoice pad link" rows. */
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

/**
 * The transmittal slip of a transfer invoice (Issued, Return, Turnover), for whoever may see it: the invoice's QR
 * opens it in PadTrack.
 */
export async function transmittalSlip(ctx: AppContext, actor: AuthUser, id: number): Promise<Buffer> {
  const row = await visibleInvoice(ctx, actor, id);
  if (!TRANSFER_TYPES.includes(row.invoice_type_id)) throw conflict(INVOICE_MSG.slipOnlyTransfers);
  return slipPdf(ctx, row);
}

/** The Invoice Type filter's options (seeded lookup). */
export const types = (ctx: AppContext) => invoiceList.lookup(ctx.db, 'types');
/** The Invoice Status filter's options (seeded lookup). */
export const statuses = (ctx: AppContext) => invoiceList.lookup(ctx.db, 'statuses');

/**
 * A scanned badge to the active user it belongs to; a bare, altered or outdated number is refused, and a wrong one
 * counts against the scanner's budget of badge and label codes (lib/code-tries.ts).
 */
export async function resolveBadge(ctx: AppContext, scanner: CodeScanner, code: string | undefined): Promise<AssignedUser> {
  const parsed = scannedCode.safeParse(code ?? '');
  if (!parsed.success) throw invalid('code', parsed.error.issues[0]?.message ?? MSG.qrInvalidBadge);
  const userId = claimedUserId(parsed.data);
  if (userId === null) throw invalid('code', MSG.qrInvalidBadge);
  const user = await withCodeTries(ctx, scanner, async () => {
    const found = await repo.findUser(ctx.db, userId);
    if (!found || !verifyBadge(ctx.badgeSecret, parsed.data, found.id, found.badge_version))
      throw new WrongCode(invalid('code', MSG.badgeNotRecognised), { userId });
    return found;
  });
  if (user.user_status_id !== USER_STATUS.ACTIVE) throw invalid('code', INVOICE_MSG.userInactive);
  return repo.toAssignedUser(user);
}

/** Spec Confirm Invoice: the person handing the pads over must be the invoice's assigned courier. */
export async function checkCourier(
  ctx: AppContext,
  actor: AuthUser,
  invoiceId: number,
  code: string,
  address: string,
): Promise<{ ok: boolean; body: InvoiceAssignedUserCheck }> {
  const invoice = await visibleInvoice(ctx, actor, invoiceId);
  const user = await resolveBadge(ctx, { userId: actor.id, address }, code);
  if (invoice.assigned_user_id == null) {
    return { ok: false, body: { status: false, assigned_user_id: null, message: INVOICE_MSG.noCourier } };
  }
  if (user.id !== invoice.assigned_user_id) {
    return { ok: false, body: { status: false, assigned_user_id: invoice.assigned_user_id, message: INVOICE_MSG.courierMismatch } };
  }
  return { ok: true, body: { status: true, assigned_user_id: user.id, message: INVOICE_MSG.courierConfirmed, data: user } };
}
