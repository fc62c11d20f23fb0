import { fullName } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { INVOICE_MSG } from '../../../shared/schemas/invoices.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { conflict } from '../../lib/errors.ts';
import { recordAcceptance } from '../ledger/lifecycle.ts';
import * as repo from './repo.ts';

export const plural = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

/** docs/design.md §9: a booklet lost on the way stays with the sender, who wrote it off; the rest of the invoice is accepted. */
async function leaveLostBooklets(tx: Tx, padIds: number[]): Promise<void> {
  if (padIds.length > 0) await repo.unlockPads(tx, padIds);
}

/** A pad lost on the way, as the invoice that carried it records the loss. */
export interface LostOnTheWay {
  invoiceId: number;
  padId: number;
  padNumber: number;
  incident: { id: number; number: string };
  actorId: number;
}

/**
 * docs/design.md §9: a pad whose numbers are all consumed or lost on the way (a confirmed loss wrote them off against
 * the sender) leaves its in-transit invoice at once: the invoice no longer carries it, the rest can still be accepted,
 * and the pad stays, unlocked, with the sender who wrote it off. No ledger event: the loss is already the sender's.
 */
export async function leaveLostPad(tx: Tx, lost: LostOnTheWay): Promise<boolean> {
  const [pad] = await repo.findPads(tx, [lost.padId]);
  if (pad?.locked_by_invoice_id !== lost.invoiceId || pad.series_status.includes('1')) return false;
  if (!(await repo.leaveInvoice(tx, lost.invoiceId, lost.padId, lost.incident.id))) return false;
  await repo.insertActivity(tx, {
    invoiceId: lost.invoiceId,
    statusId: INVOICE_STATUS.IN_TRANSIT,
    description: `Pad ${lost.padNumber} lost on the way (${lost.incident.number}): this invoice no longer carries it; the rest can still be accepted.`,
    actorId: lost.actorId,
  });
  return true;
}

/**
 * The one completion path of an In-Transit invoice (docs/spec.md §4 accepting), inside the caller's transaction:
 * completes it only if still In-Transit (409 when another accept won), hands the pads to their receiver
 * (Issued: the requester; Return: the head office, Not Issued again, usage kept; Turnover: the accepting
 * user at the destination) and writes the Completed activity.
 */
export async function complete(tx: Tx, ctx: AppContext, actor: AuthUser, invoice: repo.InvoiceRecord): Promise<void> {
  const done = await repo.transition(tx, invoice.id, INVOICE_STATUS.IN_TRANSIT, {
    invoice_status_id: INVOICE_STATUS.COMPLETED,
    accepted_by: actor.id,
    accepted_at: new Date(),
  });
  if (!done) throw conflict(INVOICE_MSG.notInTransit);
  if (invoice.invoice_type_id === INVOICE_TYPE.ISSUED) {
    await leaveLostBooklets(
      tx,
      await recordAcceptance(tx, ctx, {
        invoiceId: invoice.id,
        actorId: actor.id,
        receiver: { userId: invoice.user_id, branchId: invoice.branch_id },
      }),
    );
    const received = await repo.releasePads(tx, invoice.id, {
      holderUserId: invoice.user_id,
      holderBranchId: invoice.branch_id,
      notIssuedAgain: false,
    });
    await repo.insertActivity(tx, {
      invoiceId: invoice.id,
      statusId: INVOICE_STATUS.COMPLETED,
      description: `${fullName(actor)} received ${plural(received, 'pad')}.`,
      actorId: actor.id,
    });
    return;
  }
  const isReturn = invoice.invoice_type_id === INVOICE_TYPE.RETURN;
  const destinationId = isReturn ? ctx.config.headOfficeBranchId : invoice.branch_id;
  await leaveLostBooklets(
    tx,
    await recordAcceptance(tx, ctx, {
      invoiceId: invoice.id,
      actorId: actor.id,
      receiver: { userId: isReturn ? null : actor.id, branchId: destinationId },
    }),
  );
  await repo.releasePads(tx, invoice.id, {
    holderUserId: isReturn ? null : actor.id,
    holderBranchId: destinationId,
    notIssuedAgain: isReturn,
  });
  const destination = destinationId != null ? await repo.findBranch(tx, destinationId) : undefined;
  await repo.insertActivity(tx, {
    invoiceId: invoice.id,
    statusId: INVOICE_STATUS.COMPLETED,
    description: `${isReturn ? 'Return' : 'Turnover'} accepted by ${fullName(actor)}${destination ? ` at ${destination.name}` : ''}`,
    actorId: actor.id,
  });
}
