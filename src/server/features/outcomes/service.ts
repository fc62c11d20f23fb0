import { seriesRange } from '../../../shared/format.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import { firstPendingIn } from '../../../shared/pending-outcomes.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import { OUTCOME_MSG, type OutcomeRequest, type OutcomeRevertInput, type PadOutcomeInput } from '../../../shared/schemas/outcomes.ts';
import { PAD_MSG, USAGE_MSG, type Pad } from '../../../shared/schemas/pads.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { assertCan } from '../../lib/policy.ts';
import { lockedPad, padAfterChange, padForRules, requireUnused, restoreNumbers, writeOffNumbers } from '../pads/lifecycle.ts';
import { pendingFor, pendingOutcomesOn, requestRow, type OutcomeRequestListRow } from './read-model.ts';
import * as repo from './repo.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const person = (id: number | null, name: string | null) => (id === null ? null : { id, full_name: name ?? '' });

function requestDto(row: OutcomeRequestListRow): OutcomeRequest {
  const from = Number(row.from_number);
  const to = Number(row.to_number);
  return {
    id: row.id,
    pad: {
      id: row.pad_id,
      number: row.pad_number,
      series_number: seriesRange(Number(row.series_from), Number(row.series_to)),
      route: { id: row.route_id, name: row.route_name },
    },
    from,
    to,
    qty: to - from + 1,
    outcome: row.outcome,
    reason: row.reason,
    copies_retained: row.copies_retained,
    status: row.status,
    requested_by: person(row.requested_by, row.requester_name) ?? {
      id: row.requested_by,
      full_name: '',
    },
    requested_at: iso(row.requested_at) ?? '',
    decided_by: person(row.decided_by, row.decider_name),
    decided_at: iso(row.decided_at),
    rejection_reason: row.rejection_reason,
  };
}

export type OutcomeResult = { applied: true; pad: Pad } | { applied: false; requestId: number };

/**
 * docs/design.md §9: cancelling or writing off numbers needs the holder's Branch Head or Supervisor, or roles 1, 3,
 * 8. An approver's request is applied at once; anyone else's waits, checked now (a used, cancelled or lost
 * number is a 409 either way), in the approvers' Needs my action.
 */
export async function requestOutcome(ctx: AppContext, actor: Actor, padId: number, input: PadOutcomeInput): Promise<OutcomeResult> {
  const result = await ctx.db.transaction(async (tx): Promise<OutcomeResult | { applied: true }> => {
    const pad = await padForRules(tx, await lockedPad(tx, padId));
    if (pad.locked_by_invoice_id !== null) throw conflict(PAD_MSG.locked);
    assertCan(actor, 'number.requestOutcome', pad, OUTCOME_MSG.mayNotRequest);
    if (can(actor, 'number.approveOutcome', pad)) {
      await writeOffNumbers(tx, ctx, {
        padId,
        from: input.from,
        to: input.to,
        kind: input.outcome,
        reason: input.reason,
        copiesRetained: input.copies_retained,
        actorId: actor.id,
        approverId: actor.id,
      });
      return { applied: true };
    }
    requireUnused(pad, input.from, input.to);
    const waiting = firstPendingIn(await pendingOutcomesOn(tx, padId), input.from, input.to);
    if (waiting) throw conflict(USAGE_MSG.pending(waiting.number, waiting.request));
    const requestId = await repo.insertRequest(tx, {
      pad_id: padId,
      from_number: input.from,
      to_number: input.to,
      outcome: input.outcome,
      reason: input.reason,
      copies_retained: input.copies_retained,
      requested_by: actor.id,
    });
    return { applied: false, requestId };
  });
  return result.applied ? { applied: true, pad: await padAfterChange(ctx, padId) } : result;
}

/** The pending requests the caller may decide. */
export async function pendingRequests(
  ctx: AppContext,
  actor: Actor,
  query: { page: number; per_page: number },
): Promise<Paginated<OutcomeRequest>> {
  const { rows, total } = await pendingFor(ctx.db, actor, query.page, query.per_page);
  return paginated(rows.map(requestDto), total, query.page, query.per_page);
}

/** One decision per request, whoever races: the row lock lets one approver or rejecter through, the rest get 409. */
async function decideRequest<T>(
  ctx: AppContext,
  actor: Actor,
  id: number,
  apply: (tx: Tx, request: repo.OutcomeRequestRecord) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const request = await repo.lockRequest(tx, id);
    if (!request) throw notFound(OUTCOME_MSG.requestMissing);
    const pad = await padForRules(tx, await lockedPad(tx, request.pad_id));
    assertCan(actor, 'number.approveOutcome', pad, OUTCOME_MSG.mayNotApprove);
    if (request.status !== 'pending') throw conflict(OUTCOME_MSG.requestDone);
    return apply(tx, request);
  });
}

/** Approving writes the outcome as the requester's, with the approver named on the event. */
export async function approve(ctx: AppContext, actor: Actor, id: number): Promise<Pad> {
  const padId = await decideRequest(ctx, actor, id, async (tx, request) => {
    await writeOffNumbers(tx, ctx, {
      padId: request.pad_id,
      from: request.from_number,
      to: request.to_number,
      kind: request.outcome === 'lost' ? 'lost' : 'cancelled',
      reason: request.reason,
      copiesRetained: request.copies_retained,
      actorId: request.requested_by,
      approverId: actor.id,
    });
    await repo.decide(tx, id, { status: 'approved', decidedBy: actor.id });
    return request.pad_id;
  });
  return padAfterChange(ctx, padId);
}

export async function reject(ctx: AppContext, actor: Actor, id: number, reason: string): Promise<OutcomeRequest> {
  await decideRequest(ctx, actor, id, (tx) => repo.decide(tx, id, { status: 'rejected', decidedBy: actor.id, rejectionReason: reason }));
  const row = await requestRow(ctx.db, id);
  if (!row) throw notFound(OUTCOME_MSG.requestMissing);
  return requestDto(row);
}

/** docs/design.md §9: undoing a cancellation is a new event with its reason, decided by the people who approve one. */
export async function revert(ctx: AppContext, actor: Actor, input: OutcomeRevertInput): Promise<Pad> {
  await ctx.db.transaction(async (tx) => {
    const pad = await padForRules(tx, await lockedPad(tx, input.pad_id));
    if (pad.locked_by_invoice_id !== null) throw conflict(PAD_MSG.locked);
    assertCan(actor, 'number.revertOutcome', pad, OUTCOME_MSG.mayNotApprove);
    await restoreNumbers(tx, ctx, {
      padId: input.pad_id,
      from: input.from,
      to: input.to,
      kind: 'cancel_reverted',
      reason: input.reason,
      actorId: actor.id,
      approverId: null,
    });
  });
  return padAfterChange(ctx, input.pad_id);
}
