import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../../../shared/lookups.ts';
import { fullName } from '../../../shared/format.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import type { CustodyInvoice, HeldPad, InTransitQuery } from '../../../shared/schemas/custodies.ts';
import type { Paginated, ListQuery } from '../../../shared/schemas/common.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { recordActivity } from '../invoices/activities.ts';
import * as repo from './repo.ts';

const COURIER_ROLES: readonly number[] = [ROLE.DRIVER, ROLE.MESSENGER];
const padWord = (n: number) => (n === 1 ? '1 pad' : `${n} pads`);

/** DESIGN §5 "Who sees what": roles 1, 2, 3, 8, 9 everything; couriers what they carry; others their own and their branch's. */
function custodyScope(actor: Actor): repo.InvoiceScope {
  if (can(actor, 'invoice.seeAll')) return { kind: 'all' };
  if (actor.role_id != null && COURIER_ROLES.includes(actor.role_id)) return { kind: 'carried', userId: actor.id };
  return { kind: 'involved', userId: actor.id, branchId: actor.branch_id };
}

/** The custodies list: In-Transit invoices the caller may see. */
export async function listInTransit(ctx: AppContext, actor: Actor, query: InTransitQuery): Promise<Paginated<CustodyInvoice>> {
  const { rows, total } = await repo.listInTransit(ctx.db, {
    scope: custodyScope(actor),
    search: query.search || undefined,
    invoiceTypeId: query.invoice_type,
    page: query.page,
    perPage: query.per_page,
  });
  return paginated(rows, total, query.page, query.per_page);
}

/** The pads the caller can put on a Return or Turnover: held by them and not already in transit. */
export async function listUserPads(ctx: AppContext, actor: Actor, query: ListQuery): Promise<Paginated<HeldPad>> {
  const { rows, total } = await repo.listHeldPads(ctx.db, { userId: actor.id, search: query.search || undefined, page: query.page, perPage: query.per_page });
  return paginated(rows, total, query.page, query.per_page);
}

async function activeCourier(tx: Tx, id: number, field: string) {
  const user = await repo.findActiveUser(tx, id);
  if (!user) throw invalid(field, 'The selected user is not an active user.');
  return user;
}

/** Refuses pads the caller does not hold (422) or that are already on an invoice in transit (409). */
async function checkHeldPads(tx: Tx, actor: Actor, padIds: number[]) {
  const found = await repo.findPads(tx, padIds);
  const byId = new Map(found.map((p) => [p.id, p]));
  const notHeld = padIds.filter((id) => byId.get(id)?.holder_user_id !== actor.id);
  if (notHeld.length > 0) {
    const names = notHeld.map((id) => (byId.has(id) ? `pad ${byId.get(id)?.number}` : `pad #${id}`));
    throw invalid('pads', `Only pads in your custody can be moved; not in your custody: ${names.join(', ')}.`);
  }
  const locked = found.filter((p) => p.locked_by_invoice_id !== null);
  if (locked.length > 0) throw conflict(`Already in transit: ${locked.map((p) => `pad ${p.number}`).join(', ')}. Reload and choose again.`);
  return found;
}

/** Opens a Return or Turnover and locks its pads, all or nothing, even when two requests race for the same pads. */
async function createTransfer(
  ctx: AppContext,
  actor: Actor,
  input: { typeId: number; padIds: number[]; destinationBranchId: number; assignedUserId: number; describe: (branchName: string, courierName: string) => string },
): Promise<CustodyInvoice> {
  const id = await ctx.db.transaction(async (tx) => {
    const destination = await repo.findBranch(tx, input.destinationBranchId);
    if (!destination) {
      if (input.typeId === INVOICE_TYPE.RETURN) throw conflict('The head office branch does not exist. Ask an administrator to set it up.');
      throw invalid('branch_id', 'The selected branch does not exist.');
    }
    const courier = await activeCourier(tx, input.assignedUserId, 'assigned_user_id');
    const found = await checkHeldPads(tx, actor, input.padIds);
    const routeIds = new Set(found.map((p) => p.route_id));
    const invoice = await repo.insertInvoice(tx, {
      invoice_type_id: input.typeId,
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      user_id: actor.id,
      created_by: actor.id,
      from_branch_id: actor.branch_id,
      branch_id: destination.id,
      route_id: routeIds.size === 1 ? found[0].route_id : null,
      assigned_user_id: courier.id,
      pad_count: input.padIds.length,
    });
    const locked = await repo.lockHeldPads(tx, input.padIds, actor.id, invoice.id);
    if (locked.length !== input.padIds.length) throw conflict('Some of these pads were just moved by another request. Reload and choose again.');
    await repo.linkPads(tx, invoice.id, input.padIds);
    await recordActivity(tx, {
      invoiceId: invoice.id,
      statusId: INVOICE_STATUS.IN_TRANSIT,
      description: input.describe(destination.name, fullName(courier)),
      actorId: actor.id,
      assignedUserId: courier.id,
    });
    return invoice.id;
  });
  const created = await repo.findCustodyInvoice(ctx.db, id);
  if (!created) throw notFound('Invoice not found.');
  return created;
}

/** A holder sends their own pads back to the head office through a courier. */
export function createReturn(ctx: AppContext, actor: Actor, input: { pads: number[]; assigned_user_id: number }): Promise<CustodyInvoice> {
  return createTransfer(ctx, actor, {
    typeId: INVOICE_TYPE.RETURN,
    padIds: input.pads,
    destinationBranchId: ctx.config.headOfficeBranchId,
    assignedUserId: input.assigned_user_id,
    describe: (branch, courier) => `Return of ${padWord(input.pads.length)} to ${branch} handed to ${courier}`,
  });
}

/** A holder sends their own pads to another branch through a courier. */
export async function createTurnover(
  ctx: AppContext,
  actor: Actor,
  input: { pads: number[]; branch_id: number; assigned_user_id: number },
): Promise<CustodyInvoice> {
  if (actor.branch_id != null && input.branch_id === actor.branch_id) {
    throw invalid('branch_id', 'Choose a branch other than your own.');
  }
  return createTransfer(ctx, actor, {
    typeId: INVOICE_TYPE.TURNOVER,
    padIds: input.pads,
    destinationBranchId: input.branch_id,
    assignedUserId: input.assigned_user_id,
    describe: (branch, courier) => `Turnover of ${padWord(input.pads.length)} to ${branch} handed to ${courier}`,
  });
}

/** Spec §6 hand over: the courier (or roles 1–3) passes an In-Transit invoice to the next courier; exactly once under races. */
export async function handOver(ctx: AppContext, actor: Actor, invoiceId: number, input: { assigned_user_id: number }): Promise<CustodyInvoice> {
  await ctx.db.transaction(async (tx) => {
    const invoice = await repo.findInvoice(tx, invoiceId);
    if (!invoice) throw notFound('Invoice not found.');
    if (invoice.invoice_status_id !== INVOICE_STATUS.IN_TRANSIT) throw conflict('Only custody in transit can be handed over.');
    if (!can(actor, 'custody.handOver', invoice)) throw forbidden('Only the assigned courier or a custodian can hand over this custody.');
    if (invoice.assigned_user_id === input.assigned_user_id) {
      throw invalid('assigned_user_id', 'This user already has the custody. Choose the person taking it over.');
    }
    const next = await activeCourier(tx, input.assigned_user_id, 'assigned_user_id');
    const updated = await repo.reassignCourier(tx, invoice.id, invoice.assigned_user_id, next.id);
    if (!updated) throw conflict('This custody changed hands meanwhile. Reload and try again.');
    await recordActivity(tx, {
      invoiceId: invoice.id,
      statusId: INVOICE_STATUS.IN_TRANSIT,
      description: `Custody handed over to ${fullName(next)}`,
      actorId: actor.id,
      assignedUserId: next.id,
    });
  });
  const result = await repo.findCustodyInvoice(ctx.db, invoiceId);
  if (!result) throw notFound('Invoice not found.');
  return result;
}

/**
 * Accepts a Return (role 8: pads back to the head office, Not Issued again, usage kept) or a Turnover
 * (roles 4–7 of the destination branch: pads to the accepting user there) inside the caller's
 * transaction. accept-invoice calls it after loading the invoice; it checks the spec §4 rule itself,
 * completes the invoice only if it is still In-Transit (409 when another accept won), moves the pads
 * and writes the Completed activity. Returns the completed invoice row.
 */
export async function acceptTransfer(tx: Tx, ctx: AppContext, actor: Actor, invoice: repo.InvoiceRow): Promise<repo.InvoiceRow> {
  if (invoice.invoice_type_id !== INVOICE_TYPE.RETURN && invoice.invoice_type_id !== INVOICE_TYPE.TURNOVER) {
    throw conflict('Only Return and Turnover invoices are accepted here.');
  }
  if (invoice.invoice_status_id !== INVOICE_STATUS.IN_TRANSIT) throw conflict('This invoice is no longer in transit.');
  if (!can(actor, 'invoice.accept', invoice)) {
    throw forbidden(
      invoice.invoice_type_id === INVOICE_TYPE.RETURN
        ? 'Only Accounting can accept a return.'
        : 'Only the custodian, head, supervisor or ticketing officer of the destination branch can accept a turnover.',
    );
  }
  const completed = await repo.completeInTransit(tx, invoice.id, actor.id);
  if (!completed) throw conflict('This invoice was already accepted.');
  const isReturn = invoice.invoice_type_id === INVOICE_TYPE.RETURN;
  const destinationId = isReturn ? ctx.config.headOfficeBranchId : invoice.branch_id;
  await repo.releasePads(tx, invoice.id, {
    holderUserId: isReturn ? null : actor.id,
    holderBranchId: destinationId,
    notIssuedAgain: isReturn,
  });
  const destination = destinationId != null ? await repo.findBranch(tx, destinationId) : undefined;
  const acceptor = await repo.findActiveUser(tx, actor.id);
  const who = acceptor ? fullName(acceptor) : `user #${actor.id}`;
  await recordActivity(tx, {
    invoiceId: invoice.id,
    statusId: INVOICE_STATUS.COMPLETED,
    description: `${isReturn ? 'Return' : 'Turnover'} accepted by ${who}${destination ? ` at ${destination.name}` : ''}`,
    actorId: actor.id,
  });
  return completed;
}
