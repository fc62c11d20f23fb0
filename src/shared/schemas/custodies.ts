import { z } from 'zod';
import { INVOICE_STATUS } from '../lookups.ts';
import { deviceTime, exportParam, listQuery, sortParams } from './common.ts';
import { INVOICE_SORTS } from './invoices.ts';
import { id, optionalLookupId, pickedId } from './fields.ts';
import type { Pad } from './pads.ts';

/** The most pads one Return or Turnover may carry. */
export const MAX_PADS_PER_TRANSFER = 500;

/** docs/spec.md §5 and §8 wording for custody: turnover alerts, hand-over toasts, loading messages. */
export const CUSTODY_MSG = {
  selectPad: 'Please select at least one pad',
  selectBranch: 'Please select a branch',
  selectAssignee: 'Please select a user to assign',
  handOverToRequired: 'Hand over to is required',
  turnoverCreated: 'Turnover invoice created successfully',
  turnoverFailed: 'Failed to create turnover invoice',
  returnCreated: 'Return invoice created successfully',
  returnFailed: 'Failed to create return invoice',
  handedOver: 'Custody handed over successfully',
  handOverFailed: 'Failed to hand over custody',
  creatingReturn: 'Creating return invoice...',
  creatingTurnover: 'Creating turnover invoice...',
  handingOver: 'Handing over custody...',
  noCustodies: 'No custodies',
  acceptedHandOver: 'You accepted the custody',
  declinedHandOver: 'You declined the custody',
  handOverGone: 'This hand-over is no longer waiting for you.',
  badgeNotReceiver: 'This badge does not belong to the person you hand over to.',
  /** One of the receiver's earlier badges, replaced since (a password reset rotates it): a queued scan may meet it. */
  badgeNoLongerValid: 'This badge is no longer valid: it was replaced or revoked. Scan the receiver’s current badge.',
  /** Why the Return and Turnover lists are empty. */
  noPadsHeld:
    'You have no pads in your custody to move. Pads come into your custody when you accept an Issued invoice or a Turnover; pads already on a Return or Turnover in transit are not listed.',
} as const;

const padIds = z
  .array(id(CUSTODY_MSG.selectPad), { error: CUSTODY_MSG.selectPad })
  .min(1, CUSTODY_MSG.selectPad)
  .max(MAX_PADS_PER_TRANSFER, `At most ${MAX_PADS_PER_TRANSFER} pads can be moved at once`)
  .transform((ids) => [...new Set(ids)]);

export const inTransitQuery = listQuery.extend({
  ...sortParams(INVOICE_SORTS),
  ...exportParam,
  invoice_type: optionalLookupId,
});
export type InTransitQuery = z.infer<typeof inTransitQuery>;

export const userPadsQuery = listQuery;

export const returnInvoiceSchema = z.object({
  pads: padIds,
  assigned_user_id: pickedId(CUSTODY_MSG.selectAssignee),
});
export type ReturnInvoiceInput = z.input<typeof returnInvoiceSchema>;

export const turnoverInvoiceSchema = z.object({
  pads: padIds,
  branch_id: pickedId(CUSTODY_MSG.selectBranch),
  assigned_user_id: pickedId(CUSTODY_MSG.selectAssignee),
});
export type TurnoverInvoiceInput = z.input<typeof turnoverInvoiceSchema>;

export const handOverSchema = z.object({
  assigned_user_id: pickedId(CUSTODY_MSG.handOverToRequired),
  /** The receiver's badge as the giver scanned it: the receiver was there, so the hand-over needs no acceptance. */
  badge: z.string().trim().min(1).max(40).optional(),
  scanned_at: deviceTime,
});
export type HandOverInput = z.input<typeof handOverSchema>;

/** docs/design.md §5 two-party hand-over: the waiting message, with the receiver's name. */
export const handOverPending = (name: string) => `Waiting for ${name} to accept the custody`;

/** One pad of a waiting hand-over: its route's name and its number, so the receiver knows which booklets he takes. */
const handOverPad = z.object({ route: z.string(), number: z.number().int() });

/** A hand-over waiting for its receiver, as the giver and the receiver both see it. */
export const pendingHandOver = z
  .object({
    invoice_id: z.number().int(),
    invoice_type: z.string(),
    pads: z.number().int(),
    /** The invoice's pads in route and number order. */
    pad_list: z.array(handOverPad),
    from_user_id: z.number().int(),
    from_name: z.string(),
    to_user_id: z.number().int(),
    to_name: z.string(),
    requested_at: z.string(),
    device_at: z.string().nullable(),
  })
  .meta({ id: 'PendingHandOver' });
export type PendingHandOver = z.infer<typeof pendingHandOver>;

export const pendingHandOvers = z
  .object({ incoming: z.array(pendingHandOver), outgoing: z.array(pendingHandOver) })
  .meta({ id: 'PendingHandOvers' });
export type PendingHandOvers = z.infer<typeof pendingHandOvers>;

/**
 * docs/design.md §5 two-party hand-over: whom a waiting hand-over asks — its receiver, and only while the invoice is still
 * In Transit in the giver's hands. The pending list and Needs my action query it, the screens offer Accept by it.
 */
export const HAND_OVER_ASKS = {
  receiver: 'to_user_id',
  carrier: 'from_user_id',
  invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
} as const;

/** Whether this waiting hand-over asks the user to accept it. */
export const asksToAccept = (userId: number, p: Pick<PendingHandOver, 'to_user_id'>) => p[HAND_OVER_ASKS.receiver] === userId;

const SHOWN_PADS = 12;

/** "Batangas-Calapan pads 4, 5; Calapan-Batangas pad 9": which pads, route by route; a long list names its first 12. */
export function padsByRoute(list: ReadonlyArray<z.infer<typeof handOverPad>>): string {
  const routes = new Map<string, number[]>();
  for (const pad of list.slice(0, SHOWN_PADS)) routes.set(pad.route, [...(routes.get(pad.route) ?? []), pad.number]);
  const text = [...routes].map(([route, numbers]) => `${route} ${numbers.length === 1 ? 'pad' : 'pads'} ${numbers.join(', ')}`).join('; ');
  return list.length > SHOWN_PADS ? `${text} and ${list.length - SHOWN_PADS} more` : text;
}

/** The question the receiver answers on his phone (docs/design.md §5), naming the pads he takes. */
export const acceptQuestion = (p: Pick<PendingHandOver, 'from_name' | 'invoice_type' | 'invoice_id' | 'pads' | 'pad_list'>) =>
  `${p.from_name} hands you ${p.invoice_type} #${p.invoice_id}, ${p.pads} ${p.pads === 1 ? 'pad' : 'pads'}` +
  `${p.pad_list.length > 0 ? ` (${padsByRoute(p.pad_list)})` : ''} — Accept custody?`;

/** A pad the caller holds, as get-user-pads lists it: the same shape as every pad endpoint. */
export type HeldPad = Pad;
