import { z } from 'zod';

/**
 * "Needs my action" (docs/user-guide.md "Screens"): requests to issue (roles 1, 3), invoices to accept (docs/spec.md §4 accepting),
 * custody the user carries, overdue expected returns of pads the user still holds, and (docs/design.md §9) cancellations
 * waiting for the user's approval (and those the user asked for, until decided), reported losses they may confirm and found numbers waiting for a second user; and the
 * holders whose physical count is due (docs/design.md §9 count schedule); and the hand-overs waiting for the user to accept
 * the custody (docs/design.md §5 two-party hand-over); and, for Admin, Accounting and Auditor, a failed ledger check until a
 * later one passes (docs/design.md §8 verifier); and, for Admin and Accounting, paper used at an e-invoicing establishment
 * outside an outage (issue 38).
 */
export const MY_ACTION_KINDS = [
  'issue',
  'accept',
  'carry',
  'overdue',
  'approve_outcome',
  'outcome_pending',
  'confirm_loss',
  'confirm_found',
  'count_due',
  'count_ask',
  'accept_hand_over',
  'ledger_check',
  'paper_use_exception',
] as const;
export type MyActionKind = (typeof MY_ACTION_KINDS)[number];

export const MY_ACTION_TITLES: Record<MyActionKind, string> = {
  issue: 'Requests to issue',
  accept: 'Invoices to accept',
  carry: 'Custody I carry',
  overdue: 'Overdue returns',
  approve_outcome: 'Cancellations to approve',
  outcome_pending: 'My cancellations waiting for approval',
  confirm_loss: 'Losses to confirm',
  confirm_found: 'Found numbers to confirm',
  count_due: 'Counts due',
  /** Issue 36: a resolution of a count variance only this user may take ("report the loss of Batangas · Pad 2"). */
  count_ask: 'Asked by a count',
  accept_hand_over: 'Hand-overs to accept',
  ledger_check: 'Ledger check failed',
  /** Issue 38: a paper number used at an e-invoicing establishment outside any outage, for Accounting to justify or reject. */
  paper_use_exception: 'Paper used outside an outage',
};

/** How many items of a group the answer lists; the count covers them all. */
export const MY_ACTION_ITEM_LIMIT = 5;

export const myActionItem = z
  .object({
    id: z.number(),
    label: z.string(),
    /** The screen with the item's details open, e.g. /invoices?invoice=12. */
    path: z.string(),
  })
  .meta({ id: 'MyActionItem' });

export const myActionGroup = z
  .object({
    kind: z.enum(MY_ACTION_KINDS),
    title: z.string(),
    count: z.number(),
    /** The menu entry whose badge counts this group. */
    menu_path: z.string(),
    /** The list that shows the whole group, filtered where the list can be. */
    list_path: z.string(),
    items: z.array(myActionItem),
  })
  .meta({ id: 'MyActionGroup' });

export const myActions = z.object({ total: z.number(), groups: z.array(myActionGroup) }).meta({ id: 'MyActions' });

export type MyActionItem = z.infer<typeof myActionItem>;
export type MyActionGroup = z.infer<typeof myActionGroup>;
export type MyActions = z.infer<typeof myActions>;
