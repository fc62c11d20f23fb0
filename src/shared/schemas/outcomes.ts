import { z } from 'zod';
import { numbersText } from '../format.ts';
import { required } from '../messages.ts';
import { listQuery, text } from './common.ts';
import { id } from './fields.ts';
import { OTHER_REASON, OUTCOME_REASONS, rangeFields, toNotBeforeFrom } from './pads.ts';

/** docs/design.md §9: a number written off by its own action, never by the grid's toggle. */
export const OUTCOMES = ['cancelled', 'lost'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const OUTCOME_MSG = {
  applied: (outcome: Outcome, from: number, to: number) =>
    `${numbersText(from, to)} ${outcome === 'cancelled' ? 'cancelled' : 'recorded as lost'}`,
  pending: 'Sent for approval to the Branch Head or Supervisor (or the head office).',
  approved: 'Request approved',
  rejected: 'Request rejected',
  reverted: (from: number, to: number) => `${numbersText(from, to)} ${from === to ? 'is' : 'are'} not used again`,
  reasonRequired: required('Reason'),
  detailsForOther: 'Describe the reason when you choose Other',
  reasonNotListed: 'Choose a reason from the list',
  copiesRequired: 'Say whether all copies are retained',
  requestMissing: 'Request not found.',
  requestDone: 'This request has already been decided.',
  notCancelled: (number: number) => `Number ${number} is not cancelled, so there is nothing to undo.`,
  lostNeedsFound: 'A lost number comes back only through Found on its loss incident.',
  reinstatePadFirst: (padNumber: number, state: 'cancelled' | 'lost') =>
    `Pad ${padNumber} is ${state} as a whole. Reinstate the pad first (set its status back on Edit Pad), then undo the cancellation.`,
  mayNotRequest: 'You can only write off numbers of pads you or your branch hold.',
  mayNotApprove: 'Only the holder\u2019s Branch Head or Supervisor, or the head office (Admin, Custodian, Accounting), may approve this.',
  rejectReasonRequired: required('Reason'),
} as const;

const reasonText = text('Reason', OUTCOME_MSG.reasonRequired)
  .trim()
  .min(1, OUTCOME_MSG.reasonRequired)
  .max(200, 'Reason may not be longer than 200 characters');
/** A reason of OUTCOME_REASONS, of either outcome (the document lists them all); the outcome's own list is checked with it. */
const listedReason = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() : value),
  z.enum([...OUTCOME_REASONS.cancelled, ...OUTCOME_REASONS.lost.filter((reason) => reason !== OTHER_REASON)], {
    error: (issue) => (issue.input == null || issue.input === '' ? OUTCOME_MSG.reasonRequired : OUTCOME_MSG.reasonNotListed),
  }),
);
const detailsText = text('Details').trim().max(500, 'Details may not be longer than 500 characters').optional();

/**
 * POST pads/{id}/outcome. `reason` is an entry of OUTCOME_REASONS[outcome] and `details` the free text
 * ("Other" needs it); the stored reason is "reason: details". copies_retained is asked for cancellations.
 */
export const padOutcomeSchema = z
  .object({
    ...rangeFields,
    outcome: z.enum(OUTCOMES, { error: 'Outcome must be cancelled or lost' }),
    reason: listedReason,
    details: detailsText,
    copies_retained: z.boolean({ error: OUTCOME_MSG.copiesRequired }).optional(),
  })
  .superRefine((v, ctx) => {
    toNotBeforeFrom(v, ctx);
    if (!OUTCOME_REASONS[v.outcome].some((reason) => reason === v.reason))
      ctx.addIssue({ code: 'custom', message: OUTCOME_MSG.reasonNotListed, path: ['reason'] });
    if (v.reason === OTHER_REASON && !v.details) ctx.addIssue({ code: 'custom', message: OUTCOME_MSG.detailsForOther, path: ['details'] });
    if (v.outcome === 'cancelled' && v.copies_retained === undefined)
      ctx.addIssue({ code: 'custom', message: OUTCOME_MSG.copiesRequired, path: ['copies_retained'] });
  })
  .transform((v) => ({
    from: v.from,
    to: v.to ?? v.from,
    outcome: v.outcome,
    reason: v.details ? `${v.reason}: ${v.details}` : v.reason,
    copies_retained: v.outcome === 'cancelled' ? (v.copies_retained ?? null) : null,
  }));
export type PadOutcomeInput = z.output<typeof padOutcomeSchema>;

/** 202: the outcome waits in the approvers' Needs my action. */
export const outcomePendingResponse = z.object({ message: z.string(), data: z.object({ request_id: z.number() }) });

const person = z.object({ id: z.number(), full_name: z.string() });
export const OUTCOME_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const outcomeRequestSchema = z.object({
  id: z.number(),
  pad: z.object({ id: z.number(), number: z.number(), series_number: z.string(), route: z.object({ id: z.number(), name: z.string() }) }),
  from: z.number(),
  to: z.number(),
  qty: z.number(),
  outcome: z.enum(OUTCOMES),
  reason: z.string(),
  copies_retained: z.boolean().nullable(),
  status: z.enum(OUTCOME_REQUEST_STATUSES),
  requested_by: person,
  requested_at: z.string(),
  decided_by: person.nullable(),
  decided_at: z.string().nullable(),
  rejection_reason: z.string().nullable(),
});
export type OutcomeRequest = z.infer<typeof outcomeRequestSchema>;

/** GET outcome-requests: the pending requests the caller may approve. */
export const outcomeRequestListQuery = listQuery;

export const rejectSchema = z.object({
  reason: text('Reason', OUTCOME_MSG.rejectReasonRequired).trim().min(1, OUTCOME_MSG.rejectReasonRequired).max(500),
});
export type RejectInput = z.output<typeof rejectSchema>;

/** POST outcome-reverts: a cancellation undone, as a new event with its reason. */
export const outcomeRevertSchema = z
  .object({ pad_id: id(), ...rangeFields, reason: reasonText })
  .superRefine(toNotBeforeFrom)
  .transform((v) => ({ pad_id: v.pad_id, from: v.from, to: v.to ?? v.from, reason: v.reason }));
export type OutcomeRevertInput = z.output<typeof outcomeRevertSchema>;
