import { dateInZone, fullName } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { can, mayCarry, type Actor } from '../../../shared/permissions.ts';
import { INVOICE_MSG, type InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { asksToAccept, CUSTODY_MSG, type PendingHandOvers } from '../../../shared/schemas/custodies.ts';
import type { AppContext } from '../../context.ts';
import { sqlState, violatedConstraint, type Conn, type Tx } from '../../db/client.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { assertCan } from '../../lib/policy.ts';
import { verifyBadge } from '../../lib/badge.ts';
import { withCodeTries, WrongCode } from '../../lib/code-tries.ts';
import { routeExists } from '../routes/read-model.ts';
import { seriesRolesOf } from '../registered-series/read-model.ts';
import { SERIES_MSG } from '../../../shared/schemas/registered-series.ts';
import { firstLostNumber } from '../../../shared/pad-status.ts';
import { USAGE_MSG } from '../../../shared/schemas/pads.ts';
import { complete, leaveLostPad, plural, type LostOnTheWay } from './completion.ts';
import { findInvoiceRow } from './list-repo.ts';
import { pendingHandOversOf } from './read-model.ts';
import * as repo from './repo.ts';

/** The invoice as the API answers it after a change; the caller has just acted on it, so no scope applies. */
async function answer(ctx: AppContext, id: number): Promise<InvoiceRow> {
  const row = await findInvoiceRow(ctx.db, id, ctx.config.timeZone);
  if (!row) throw notFound(INVOICE_MSG.notFound);
  return row;
}

/** An invoice the actor may see; one they may not is answered exactly like one that does not exist. */
async function visibleRecord(conn: Conn, actor: Actor, id: number): Promise<repo.InvoiceRecord> {
  const invoice = await repo.findInvoice(conn, id);
  if (!invoice || !can(actor, 'invoice.see', invoice)) throw notFound(INVOICE_MSG.notFound);
  return invoice;
}

/** The courier named at issue, transfer or hand-over: refused on `assigned_user_id` unless permissions.ts mayCarry() says yes. */
async function courier(conn: Conn, id: number): Promise<repo.UserFacts> {
  const user = await repo.findUser(conn, id);
  if (!user || !mayCarry(user)) throw invalid('assigned_user_id', INVOICE_MSG.assigneeInvalid);
  return user;
}

/** YYYY-MM-DD that is `days` after today in the app's time zone. */
function dueDate(timeZone: string, days: number): string {
  const today = Date.parse(`${dateInZone(new Date(), timeZone)}T00:00:00Z`);
  return new Date(today + days * 86_400_000).toISOString().slice(0, 10);
}

/** docs/spec.md §4 request: any role 1–9 asks the head office for N pads of a route; it waits as Pending. */
export async function createRequest(
  ctx: AppContext,
  actor: AuthUser,
  input: { branch_id?: number; route_id: number; pads: number },
): Promise<InvoiceRow> {
  assertCan(actor, 'invoice.request');
  const headOfficeId = ctx.config.headOfficeBranchId;
  if (input.branch_id !== undefined && input.branch_id !== headOfficeId) throw invalid('branch_id', INVOICE_MSG.headOfficeOnly);
  if (!(await repo.findBranch(ctx.db, headOfficeId))) throw conflict(INVOICE_MSG.headOfficeMissing);
  if (!(await routeExists(ctx.db, input.route_id))) throw invalid('route_id', INVOICE_MSG.routeMissing);
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
    await repo.insertActivity(tx, {
      invoiceId: invoice.id,
      statusId: INVOICE_STATUS.PENDING,
      description: `${fullName(actor)} requested ${plural(input.pads, 'pad')}.`,
      actorId: actor.id,
    });
    return invoice.id;
  });
  return answer(ctx, id);
}

type IssueInput = {
  invoice_id: number;
  route_id?: number;
  pads: number[];
  assigned_user_id: number;
  expected_return: number;
  user_id?: number;
};

/** The Pending request an issue fulfils, with the pads and courier checked before any write (docs/spec.md §4 issuing). */
async function issuable(conn: Conn, input: IssueInput) {
  const request = await repo.findInvoice(conn, input.invoice_id);
  if (!request) throw notFound(INVOICE_MSG.notFound);
  if (request.invoice_type_id !== INVOICE_TYPE.REQUEST) throw invalid('invoice_id', INVOICE_MSG.notARequest);
  if (request.invoice_status_id !== INVOICE_STATUS.PENDING || !request.route_id) throw conflict(INVOICE_MSG.alreadyIssued);
  if (input.user_id !== undefined && input.user_id !== request.user_id) throw invalid('user_id', INVOICE_MSG.requesterMismatch);
  if (input.route_id !== undefined && input.route_id !== request.route_id) throw invalid('route_id', INVOICE_MSG.routeMismatch);
  const padIds = [...new Set(input.pads)];
  if (padIds.length > request.pad_count) throw invalid('pads', INVOICE_MSG.tooManyPads(request.pad_count));
  const carrier = await courier(conn, input.assigned_user_id);
  const routeId = request.route_id;
  if ((await repo.countAvailable(conn, padIds, routeId)) !== padIds.length) {
    refuseLostNumbers(await repo.findPads(conn, padIds));
    throw invalid('pads', INVOICE_MSG.padsNotAvailable);
  }
  await refuseRetiredSeries(conn, padIds);
  return { request, routeId, padIds, carrier };
}

/** Issue 38: a pad of a retired series is to be surrendered, never issued (409 naming the role). */
async function refuseRetiredSeries(conn: Conn, padIds: number[]): Promise<void> {
  const found = await repo.findPads(conn, padIds);
  const roles = await seriesRolesOf(
    conn,
    found.flatMap((pad) => (pad.registered_series_id === null ? [] : [pad.registered_series_id])),
  );
  const retired = new Map(roles.filter((series) => series.role === 'retired').map((series) => [series.id, series]));
  for (const pad of found) {
    const series = pad.registered_series_id === null ? undefined : retired.get(pad.registered_series_id);
    if (series) throw conflict(SERIES_MSG.retiredNotIssuable(pad.number, series.atp_number));
  }
}

/**
 * docs/spec.md §4 issuing: the custodian fulfils a Pending request once. The request is claimed with a conditional
 * update and the pads with a locking update, so parallel attempts get a 409 instead of a second issue.
 */
export async function issue(ctx: AppContext, actor: AuthUser, input: IssueInput): Promise<InvoiceRow> {
  assertCan(actor, 'invoice.issue');
  const { request, routeId, padIds, carrier } = await issuable(ctx.db, input);
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
        assigned_user_id: carrier.id,
        pad_count: padIds.length,
        request_invoice_id: request.id,
        expected_return_date: dueDate(ctx.config.timeZone, input.expected_return),
      });
      const locked = await repo.lockPadsForIssue(tx, padIds, routeId, issued.id);
      if (locked !== padIds.length) throw conflict(INVOICE_MSG.padsTaken);
      await repo.linkPads(tx, issued.id, padIds);
      await repo.insertActivity(tx, {
        invoiceId: request.id,
        statusId: INVOICE_STATUS.ISSUED,
        description: `${fullName(actor)} issued ${plural(padIds.length, 'pad')} for this request (invoice #${issued.id}).`,
        actorId: actor.id,
      });
      await repo.insertActivity(tx, {
        invoiceId: issued.id,
        statusId: INVOICE_STATUS.IN_TRANSIT,
        description: `${plural(padIds.length, 'pad')} issued and on the way to the requester.`,
        actorId: actor.id,
        assignedUserId: carrier.id,
      });
      return issued.id;
    });
  } catch (error) {
    if (sqlState(error) === '23505' && violatedConstraint(error) === 'invoices_request_uq') throw conflict(INVOICE_MSG.alreadyIssued);
    if (sqlState(error) === '40001' || sqlState(error) === '40P01') throw conflict(INVOICE_MSG.padsTaken);
    throw error;
  }
  return answer(ctx, issuedId);
}

/** Refuses pads the caller does not hold (422) or that are already on an invoice in transit (409). */
async function heldPads(tx: Tx, actor: Actor, padIds: number[]): Promise<repo.PadRecord[]> {
  const found = await repo.findPads(tx, padIds);
  const byId = new Map(found.map((p) => [p.id, p]));
  const notHeld = padIds.filter((id) => byId.get(id)?.holder_user_id !== actor.id);
  if (notHeld.length > 0) {
    throw invalid('pads', INVOICE_MSG.notHeld(notHeld.map((id) => (byId.has(id) ? `pad ${byId.get(id)?.number}` : `pad #${id}`))));
  }
  const locked = found.filter((p) => p.locked_by_invoice_id !== null);
  if (locked.length > 0) throw conflict(INVOICE_MSG.alreadyInTransit(locked.map((p) => `pad ${p.number}`)));
  refuseLostNumbers(found.filter((p) => !p.series_status.includes('1')));
  return found;
}

/**
 * docs/design.md §9: a lost number is never issued or transferred. Issuing refuses a pad with any lost number; a
 * Return or Turnover refuses a booklet with nothing left but consumed and lost numbers (a partly lost pad
 * moves its unused numbers; its lost ones stay on the sender's write-off).
 */
function refuseLostNumbers(candidates: repo.PadRecord[]): void {
  for (const pad of candidates) {
    const lost = firstLostNumber(pad.series_from, pad.series_status);
    if (lost !== null) throw conflict(USAGE_MSG.lost(lost));
  }
}

export type TransferInput =
  | { kind: 'return'; pads: number[]; assigned_user_id: number }
  | { kind: 'turnover'; pads: number[]; branch_id: number; assigned_user_id: number };

/**
 * Opens a Return (to the head office) or a Turnover (to another branch) of the holder's own pads through a
 * courier, locking the pads all or nothing, even when two requests race for the same pads.
 */
export async function openTransfer(ctx: AppContext, actor: AuthUser, input: TransferInput): Promise<InvoiceRow> {
  assertCan(actor, 'invoice.transfer');
  const isReturn = input.kind === 'return';
  if (!isReturn && actor.branch_id != null && input.branch_id === actor.branch_id) throw invalid('branch_id', INVOICE_MSG.ownBranch);
  const padIds = [...new Set(input.pads)];
  const id = await ctx.db.transaction(async (tx) => {
    const destination = await repo.findBranch(tx, isReturn ? ctx.config.headOfficeBranchId : input.branch_id);
    if (!destination) {
      if (isReturn) throw conflict(INVOICE_MSG.headOfficeMissing);
      throw invalid('branch_id', INVOICE_MSG.branchMissing);
    }
    const carrier = await courier(tx, input.assigned_user_id);
    const found = await heldPads(tx, actor, padIds);
    const routeIds = new Set(found.map((p) => p.route_id));
    const invoice = await repo.insertInvoice(tx, {
      invoice_type_id: isReturn ? INVOICE_TYPE.RETURN : INVOICE_TYPE.TURNOVER,
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      user_id: actor.id,
      created_by: actor.id,
      from_branch_id: actor.branch_id,
      branch_id: destination.id,
      route_id: routeIds.size === 1 ? found[0].route_id : null,
      assigned_user_id: carrier.id,
      pad_count: padIds.length,
    });
    if ((await repo.lockHeldPads(tx, padIds, actor.id, invoice.id)) !== padIds.length) throw conflict(INVOICE_MSG.padsJustMoved);
    await repo.linkPads(tx, invoice.id, padIds);
    await repo.insertActivity(tx, {
      invoiceId: invoice.id,
      statusId: INVOICE_STATUS.IN_TRANSIT,
      description: `${isReturn ? 'Return' : 'Turnover'} of ${plural(padIds.length, 'pad')} to ${destination.name} handed to ${carrier.full_name}`,
      actorId: actor.id,
      assignedUserId: carrier.id,
    });
    return invoice.id;
  });
  return answer(ctx, id);
}

/** Why a scanned badge is refused: one of the receiver's earlier badges (a queued scan may meet it), or not his at all. */
function badgeRefusal(secret: string, code: string, receiver: { id: number; badge_version: number }): string {
  for (let version = receiver.badge_version - 1; version >= Math.max(1, receiver.badge_version - 20); version -= 1)
    if (verifyBadge(secret, code, receiver.id, version)) return CUSTODY_MSG.badgeNoLongerValid;
  return CUSTODY_MSG.badgeNotReceiver;
}

/** What a hand-over did: applied at once, or waiting for the receiver to accept on his phone (docs/design.md §5). */
export interface HandOverOutcome {
  invoice: InvoiceRow;
  pendingFor: string | null;
}

/**
 * docs/spec.md §2 Hand Over Custody, two-party (docs/design.md §5): with the receiver's badge scanned, or with the
 * setting off, the custody moves at once; picked from the list, it waits for the receiver to accept and the giver
 * still carries it. The device's scan time is kept beside the server's. A badge that is not the receiver's counts
 * against the giver's budget of badge and label codes (lib/code-tries.ts).
 */
export async function handOver(
  ctx: AppContext,
  actor: AuthUser,
  id: number,
  input: { assigned_user_id: number; badge?: string; scanned_at?: string },
  address: string,
): Promise<HandOverOutcome> {
  const deviceAt = input.scanned_at ? new Date(input.scanned_at) : null;
  const move = () =>
    ctx.db.transaction(async (tx) => {
      const invoice = await visibleRecord(tx, actor, id);
      if (invoice.invoice_status_id !== INVOICE_STATUS.IN_TRANSIT) throw conflict(INVOICE_MSG.handOverNotInTransit);
      assertCan(actor, 'custody.handOver', invoice, INVOICE_MSG.handOverForbidden);
      if (invoice.assigned_user_id === input.assigned_user_id) throw invalid('assigned_user_id', INVOICE_MSG.sameCourier);
      const next = await courier(tx, input.assigned_user_id);
      const badgeSeen = input.badge !== undefined;
      if (badgeSeen && !verifyBadge(ctx.badgeSecret, input.badge ?? '', next.id, next.badge_version))
        throw new WrongCode(invalid('badge', badgeRefusal(ctx.badgeSecret, input.badge ?? '', next)), { userId: next.id });
      if (ctx.config.twoPartyHandOver && !badgeSeen) {
        if (invoice.assigned_user_id === null) throw conflict(INVOICE_MSG.noCourier);
        await repo.upsertPendingHandOver(tx, {
          invoiceId: invoice.id,
          fromUserId: invoice.assigned_user_id,
          toUserId: next.id,
          requestedBy: actor.id,
          deviceAt,
        });
        return next.full_name;
      }
      if (!(await repo.reassignCourier(tx, invoice.id, invoice.assigned_user_id, next.id))) throw conflict(INVOICE_MSG.changedHands);
      await repo.dropPendingHandOver(tx, invoice.id);
      await repo.insertActivity(tx, {
        invoiceId: invoice.id,
        statusId: INVOICE_STATUS.IN_TRANSIT,
        description: `Custody handed over to ${next.full_name}`,
        actorId: actor.id,
        assignedUserId: next.id,
        confirmedBy: badgeSeen ? next.id : null,
        deviceAt,
      });
      return null;
    });
  const pendingFor = input.badge === undefined ? await move() : await withCodeTries(ctx, { userId: actor.id, address }, move);
  return { invoice: await answer(ctx, id), pendingFor };
}

/**
 * The receiver's answer to a waiting hand-over (docs/design.md §5): accepting moves the custody to him, recorded as
 * confirmed by him; declining leaves it with the giver. Either takes the wait off once; the invoice must still be
 * In-Transit with the same giver, or nothing changes (409).
 */
export async function answerHandOver(ctx: AppContext, actor: AuthUser, id: number, accept: boolean): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const pending = await repo.takePendingHandOver(tx, id, actor.id);
    if (!pending) throw conflict(CUSTODY_MSG.handOverGone);
    if (!accept) return;
    if (!(await repo.reassignCourier(tx, id, pending.from_user_id, actor.id))) throw conflict(CUSTODY_MSG.handOverGone);
    await repo.insertActivity(tx, {
      invoiceId: id,
      statusId: INVOICE_STATUS.IN_TRANSIT,
      description: `Custody handed over to ${fullName(actor)}`,
      actorId: pending.requested_by,
      assignedUserId: actor.id,
      confirmedBy: actor.id,
      deviceAt: pending.device_at,
    });
  });
}

/** The hand-overs waiting for the user to accept, and those the user made that wait for their receiver. */
export async function pendingHandOvers(ctx: AppContext, actor: AuthUser): Promise<PendingHandOvers> {
  const rows = await pendingHandOversOf(ctx.db, actor.id);
  const shaped = rows.map(({ total: _total, ...row }) => ({
    ...row,
    requested_at: row.requested_at.toISOString(),
    device_at: row.device_at?.toISOString() ?? null,
  }));
  return { incoming: shaped.filter((r) => asksToAccept(actor.id, r)), outgoing: shaped.filter((r) => !asksToAccept(actor.id, r)) };
}

/** docs/spec.md §4 accepting, per invoice type; only one of any number of parallel accepts succeeds. */
export async function accept(ctx: AppContext, actor: AuthUser, id: number): Promise<InvoiceRow> {
  const invoice = await visibleRecord(ctx.db, actor, id);
  if (invoice.invoice_status_id !== INVOICE_STATUS.IN_TRANSIT) throw conflict(INVOICE_MSG.notInTransit);
  const refusal =
    invoice.invoice_type_id === INVOICE_TYPE.RETURN
      ? INVOICE_MSG.acceptReturnForbidden
      : invoice.invoice_type_id === INVOICE_TYPE.TURNOVER
        ? INVOICE_MSG.acceptTurnoverForbidden
        : undefined;
  assertCan(actor, 'invoice.accept', invoice, refusal);
  await ctx.db.transaction((tx) => complete(tx, ctx, actor, invoice));
  return answer(ctx, id);
}

/**
 * docs/design.md §9, inside the confirming transaction of a loss: a pad with no unused number left stops being carried
 * by its in-transit invoice (true when it left it); the rest of the invoice can still be accepted, the lost pad cannot.
 */
export async function leaveIfLostOnTheWay(tx: Tx, lost: LostOnTheWay): Promise<boolean> {
  return leaveLostPad(tx, lost);
}

/** docs/design.md §5: only a Pending invoice may go, by its creator or roles 1–2; the history of anything else stays. */
export async function remove(ctx: AppContext, actor: AuthUser, id: number): Promise<void> {
  const invoice = await visibleRecord(ctx.db, actor, id);
  if (invoice.invoice_status_id !== INVOICE_STATUS.PENDING) throw conflict(INVOICE_MSG.onlyPendingDelete);
  assertCan(actor, 'invoice.delete', invoice);
  const deleted = await ctx.db.transaction((tx) => repo.deletePending(tx, id));
  if (!deleted) throw conflict(INVOICE_MSG.onlyPendingDelete);
}
