import { ISSUANCE_STATUS, PAD_STATUS } from '../../../shared/lookups.ts';
import { derivePadStatus, seriesFromStatus } from '../../../shared/pad-status.ts';
import type { Actor } from '../../../shared/permissions.ts';
import { firstPendingIn, pendingAt } from '../../../shared/pending-outcomes.ts';
import { PAD_MSG, USAGE_MSG, type Pad, type PadUsageInput } from '../../../shared/schemas/pads.ts';
import { INCIDENT_MSG } from '../../../shared/schemas/incidents.ts';
import { OUTCOME_MSG } from '../../../shared/schemas/outcomes.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { assertCan } from '../../lib/policy.ts';
import { recordNumberEvents, recordOpeningBalances, recordPadChange, type NumberEventInput, type OpeningPad } from '../ledger/lifecycle.ts';
import { pendingOutcomesOn } from '../outcomes/read-model.ts';
import { recordPaperUse, undoPaperUse } from '../outages/lifecycle.ts';
import { insertPadsFromJson } from './insert-repo.ts';
import * as repo from './repo.ts';

type StateName = 'not_used' | 'used' | 'cancelled' | 'lost';
const STATE_WORD: Record<StateName, string> = { not_used: 'not used', used: 'used', cancelled: 'cancelled', lost: 'lost' };

/** One number's state on the locked row: its digit, or for an unused digit a whole-pad Cancelled or Lost. */
function stateAt(pad: repo.PadRow, index: number): StateName {
  const ch = pad.series_status[index];
  if (ch === '2') return 'used';
  if (ch === '3') return 'cancelled';
  if (ch === '4') return 'lost';
  return wholePadWriteOff(pad) ?? 'not_used';
}

/**
 * docs/design.md §9: a pad Cancelled or Lost as a whole has written off every number still unused, so while that
 * status stands none of its numbers may change state: the pad is reinstated first.
 */
export function wholePadWriteOff(pad: Pick<repo.PadRow, 'pad_status_id'>): 'cancelled' | 'lost' | null {
  if (pad.pad_status_id === PAD_STATUS.CANCELLED) return 'cancelled';
  if (pad.pad_status_id === PAD_STATUS.LOST) return 'lost';
  return null;
}

/** Maximal runs [from, to] (as numbers) of the indexes first..last for which keep() holds. */
function runs(pad: repo.PadRow, first: number, last: number, keep: (index: number) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = -1;
  for (let i = first; i <= last + 1; i += 1) {
    const inside = i <= last && keep(i);
    if (inside && start < 0) start = i;
    if (!inside && start >= 0) {
      out.push([pad.series_from + start, pad.series_from + i - 1]);
      start = -1;
    }
  }
  return out;
}

/** Locks the pad row for the rest of the transaction; 404 when it is gone. */
export async function lockedPad(tx: Conn, padId: number): Promise<repo.PadRow> {
  const pad = await repo.lockPad(tx, padId);
  if (!pad) throw notFound(PAD_MSG.notFound);
  return pad;
}

/** The pad with the facts the outcome and incident rules look at. */
export async function padForRules(tx: Conn, pad: repo.PadRow) {
  return { ...pad, ...(await repo.padRuleFacts(tx, pad)) };
}

/** 422 unless from..to lies on the pad; answers the indexes. */
function indexesOf(pad: repo.PadRow, from: number, to: number): [number, number] {
  if (from < pad.series_from || to > pad.series_to) throw invalid('from', USAGE_MSG.outsidePad);
  return [from - pad.series_from, to - pad.series_from];
}

/** 409 naming the first number of the range that is not in the wanted state. */
function requireState(
  pad: repo.PadRow,
  first: number,
  last: number,
  wanted: StateName,
  refusal?: (number: number, state: StateName) => string,
): void {
  for (let i = first; i <= last; i += 1) {
    const state = stateAt(pad, i);
    if (state === wanted) continue;
    const number = pad.series_from + i;
    if (refusal) throw conflict(refusal(number, state));
    throw conflict(state === 'lost' ? USAGE_MSG.lost(number) : USAGE_MSG.consumed(number, STATE_WORD[state]));
  }
}

/** The runs of from..to (422 unless on the pad) still unused: what a loss of that range writes off. */
export function unusedRuns(pad: repo.PadRow, from: number, to: number): Array<[number, number]> {
  const [first, last] = indexesOf(pad, from, to);
  return runs(pad, first, last, (i) => stateAt(pad, i) === 'not_used');
}

/** 422 unless from..to lies on the pad, 409 unless every number of it is still unused: checked before a request waits for approval. */
export function requireUnused(pad: repo.PadRow, from: number, to: number): void {
  const [first, last] = indexesOf(pad, from, to);
  requireState(pad, first, last, 'not_used');
}

/** Writes the new digits, derives the pad status (cancelled and lost count as consumed) and records the events. */
async function store(
  tx: Conn,
  ctx: AppContext,
  pad: repo.PadRow,
  digits: string[],
  events: NumberEventInput[],
  actorId: number,
): Promise<void> {
  const seriesStatus = digits.join('');
  await recordNumberEvents(tx, ctx, pad, events, actorId);
  await repo.updatePad(tx, pad.id, {
    series_status: seriesStatus,
    pad_status_id: derivePadStatus(seriesFromStatus(pad.series_from, seriesStatus), pad.pad_status_id),
  });
}

/**
 * docs/design.md §9 usage by range: marks from..to used in one step. Usage continues at the next number; starting
 * later needs a reason, and the skipped unused numbers are cancelled with it in the same transaction. A
 * used, cancelled or lost number in the range is a 409 naming it. Warns when the holder also has another
 * partly used pad of the route (one booklet at a time).
 */
export async function recordUsage(
  ctx: AppContext,
  actor: Actor,
  padId: number,
  input: PadUsageInput,
): Promise<{ pad: Pad; warning: string | null }> {
  const warning = await ctx.db.transaction((tx) => applyUsage(tx, ctx, actor, padId, input));
  return { pad: await padAfterChange(ctx, padId), warning };
}

/** recordUsage inside the caller's transaction (a count's resolution records usage with its own row); answers the warning. */
export async function applyUsage(tx: Conn, ctx: AppContext, actor: Actor, padId: number, input: PadUsageInput): Promise<string | null> {
  const pad = await lockedPad(tx, padId);
  if (pad.locked_by_invoice_id !== null) throw conflict(PAD_MSG.locked);
  assertCan(actor, 'number.use', pad, USAGE_MSG.notYourPad);
  const [first, last] = indexesOf(pad, input.from, input.to);
  requireState(pad, first, last, 'not_used');
  const pending = await pendingOutcomesOn(tx, padId);
  const waiting = firstPendingIn(pending, input.from, input.to);
  if (waiting) throw conflict(USAGE_MSG.pending(waiting.number, waiting.request));
  const free = (i: number) => stateAt(pad, i) === 'not_used' && pendingAt(pending, pad.series_from + i) === null;
  let next = 0;
  while (next < first && !free(next)) next += 1;
  const skipped = runs(pad, next, first - 1, free);
  if (skipped.length > 0 && !input.reason) throw invalid('reason', USAGE_MSG.reasonForSkip(pad.series_from + next));
  const digits = [...pad.series_status];
  const events: NumberEventInput[] = [];
  for (const [from, to] of skipped) {
    for (let n = from; n <= to; n += 1) digits[n - pad.series_from] = '3';
    events.push({ kind: 'cancelled', from, to, reason: `Skipped in sequence: ${input.reason ?? ''}`, copiesRetained: true });
  }
  for (let i = first; i <= last; i += 1) digits[i] = '2';
  events.push({ kind: 'used', from: input.from, to: input.to });
  const deviceAt = input.device_at ? new Date(input.device_at) : null;
  for (const event of events) event.deviceAt = deviceAt;
  await recordPaperUse(tx, ctx, { pad, from: input.from, to: input.to, usedAt: deviceAt, actorId: actor.id });
  await store(tx, ctx, pad, digits, events, actor.id);
  const other = await repo.otherPartlyUsedPad(tx, pad);
  return other === null ? null : USAGE_MSG.oneBookletAtATime(other);
}

/**
 * A pad edit's ledger events (recordPadChange), after the paper uses of issue 38: the grid's toggle marks numbers used
 * (1 to 2) and unmarks them (2 to 1) outside applyUsage; each run it marks is a paper use like a usage by range (refused
 * for a regular series at a covered place), each run it unmarks undoes one.
 */
export async function recordPadEdit(
  tx: Conn,
  ctx: AppContext,
  pad: repo.PadRow,
  after: { series_status: string; pad_status_id: number; remarks: string | null },
  actorId: number,
): Promise<void> {
  const next = after.series_status;
  const last = pad.series_status.length - 1;
  for (const [from, to] of runs(pad, 0, last, (i) => pad.series_status[i] === '2' && next[i] === '1'))
    await undoPaperUse(tx, ctx, { padId: pad.id, from, to });
  for (const [from, to] of runs(pad, 0, last, (i) => pad.series_status[i] === '1' && next[i] === '2'))
    await recordPaperUse(tx, ctx, { pad, from, to, usedAt: null, actorId });
  await recordPadChange(tx, ctx, pad, after, actorId);
}

export interface WriteOff {
  padId: number;
  from: number;
  to: number;
  kind: 'cancelled' | 'lost';
  reason: string;
  copiesRetained: boolean | null;
  actorId: number;
  approverId: number | null;
  incidentId?: number | null;
  /** Incidents write off the pads an invoice is carrying; a cancellation waits until the pad arrives. */
  allowInTransit?: boolean;
}

/** Cancels or writes off from..to of a pad, every number of which must still be unused (409 naming the first that is not). */
export async function writeOffNumbers(tx: Conn, ctx: AppContext, input: WriteOff): Promise<void> {
  const pad = await lockedPad(tx, input.padId);
  if (pad.locked_by_invoice_id !== null && !input.allowInTransit) throw conflict(PAD_MSG.locked);
  const [first, last] = indexesOf(pad, input.from, input.to);
  requireState(pad, first, last, 'not_used');
  const digits = [...pad.series_status];
  for (let i = first; i <= last; i += 1) digits[i] = input.kind === 'cancelled' ? '3' : '4';
  const event: NumberEventInput = {
    kind: input.kind,
    from: input.from,
    to: input.to,
    reason: input.reason,
    approverId: input.approverId,
    incidentId: input.incidentId ?? null,
    copiesRetained: input.copiesRetained,
  };
  await store(tx, ctx, pad, digits, [event], input.actorId);
}

/**
 * Undoes a cancellation (cancel_reverted) or a confirmed loss (found): the numbers are unused again, by a new event.
 * Refused while the pad is written off as a whole, which would keep them written off on the pad but not in the ledger.
 */
export async function restoreNumbers(
  tx: Conn,
  ctx: AppContext,
  input: {
    padId: number;
    from: number;
    to: number;
    kind: 'cancel_reverted' | 'found';
    reason: string;
    actorId: number;
    approverId: number | null;
    incidentId?: number | null;
  },
): Promise<void> {
  const pad = await lockedPad(tx, input.padId);
  const writtenOff = wholePadWriteOff(pad);
  if (writtenOff)
    throw conflict(
      input.kind === 'found'
        ? INCIDENT_MSG.reinstatePadFirst(pad.number, writtenOff)
        : OUTCOME_MSG.reinstatePadFirst(pad.number, writtenOff),
    );
  const [first, last] = indexesOf(pad, input.from, input.to);
  const wanted: StateName = input.kind === 'found' ? 'lost' : 'cancelled';
  requireState(pad, first, last, wanted, (number, state) =>
    input.kind === 'found'
      ? INCIDENT_MSG.notLostHere(number)
      : state === 'lost'
        ? OUTCOME_MSG.lostNeedsFound
        : OUTCOME_MSG.notCancelled(number),
  );
  for (let i = first; i <= last; i += 1) {
    if (pad.series_status[i] === '1')
      throw conflict(
        input.kind === 'found' ? INCIDENT_MSG.notLostHere(pad.series_from + i) : OUTCOME_MSG.notCancelled(pad.series_from + i),
      );
  }
  const digits = [...pad.series_status];
  for (let i = first; i <= last; i += 1) digits[i] = '1';
  const event: NumberEventInput = {
    kind: input.kind,
    from: input.from,
    to: input.to,
    reason: input.reason,
    approverId: input.approverId,
    incidentId: input.incidentId ?? null,
  };
  await store(tx, ctx, pad, digits, [event], input.actorId);
}

/** The pad as get-pad answers it, after a change. */
export async function padAfterChange(ctx: AppContext, padId: number): Promise<Pad> {
  const pad = await repo.findPad(ctx.db, padId);
  if (!pad) throw notFound(PAD_MSG.notFound);
  return pad;
}

const OPENING_CHUNK = 5000;

/** One pad of an opening-balance import (docs/design.md §10), checked and resolved to ids; `line` is its line in the file. */
export interface OpeningPadRow {
  line: number;
  routeId: number;
  number: number;
  from: number;
  to: number;
  holderUserId: number | null;
  holderBranchId: number | null;
  used: Array<[number, number]>;
  cancelled: Array<[number, number]>;
  remarks: string | null;
}

/** The series text of a pad: '2' used, '3' cancelled, '1' not used (docs/design.md §9). */
function seriesText(row: OpeningPadRow): string {
  const digits = new Array<string>(row.to - row.from + 1).fill('1');
  for (const [from, to] of row.used) for (let n = from; n <= to; n += 1) digits[n - row.from] = '2';
  for (const [from, to] of row.cancelled) for (let n = from; n <= to; n += 1) digits[n - row.from] = '3';
  return digits.join('');
}

function padStatusOf(text: string): number {
  const unused = text.split('1').length - 1;
  if (unused === text.length) return PAD_STATUS.UNUSED;
  return unused === 0 ? PAD_STATUS.USED : PAD_STATUS.PARTIALLY_USED;
}

/**
 * docs/design.md §10: stores the pads of an opening balance in the caller's transaction, each with its holder, its
 * consumed numbers and the registered series it lies inside, and writes their `opening` and outcome events. An
 * overlap with a stored pad is refused by the pads' exclusion constraint (the caller names the line).
 */
export async function insertOpeningPads(
  tx: Conn,
  ctx: Pick<AppContext, 'config' | 'ledgerClock'>,
  rows: OpeningPadRow[],
  input: { importId: number; actorId: number | null },
): Promise<void> {
  const headOffice = ctx.config.headOfficeBranchId;
  const opening: OpeningPad[] = [];
  for (let start = 0; start < rows.length; start += OPENING_CHUNK) {
    const chunk = rows.slice(start, start + OPENING_CHUNK);
    const json = JSON.stringify(
      chunk.map((row) => {
        const text = seriesText(row);
        return {
          route_id: row.routeId,
          number: row.number,
          series_from: row.from,
          series_to: row.to,
          series_status: text,
          pad_status_id: padStatusOf(text),
          issuance_status_id:
            row.holderUserId === null && row.holderBranchId === headOffice ? ISSUANCE_STATUS.NOT_ISSUED : ISSUANCE_STATUS.ISSUED,
          remarks: row.remarks,
          holder_user_id: row.holderUserId,
          holder_branch_id: row.holderBranchId,
        };
      }),
    );
    const inserted = await insertPadsFromJson(tx, json, input.actorId);
    const ids = new Map(inserted.map((row) => [`${row.route_id}:${row.number}`, Number(row.id)]));
    for (const row of chunk) {
      opening.push({
        padId: ids.get(`${row.routeId}:${row.number}`) ?? 0,
        routeId: row.routeId,
        from: row.from,
        to: row.to,
        holderUserId: row.holderUserId,
        holderBranchId: row.holderBranchId,
        used: row.used,
        cancelled: row.cancelled,
      });
    }
  }
  await recordOpeningBalances(tx, ctx, opening, input);
}

/** docs/design.md §10: after a series is registered or changed, the route's pads inside it carry it and those no longer inside drop it. */
export async function linkPadsToSeries(tx: Conn, series: { id: number; route_id: number; series_from: number; series_to: number }) {
  await repo.linkPadsToSeries(tx, series);
}
