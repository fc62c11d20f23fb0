import { dateInZone } from '../../../shared/format.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { CUSTODY_KINDS, GENESIS_HASH, eventHash, numberStates, runsOf, type EventKind, type NumberState } from './fold.ts';
import { invoicePadViews, lockPadRows, type PadView } from '../pads/read-model.ts';
import * as repo from './repo.ts';

type LedgerCtx = Pick<AppContext, 'config' | 'ledgerClock'>;

/** One thing that happened to the numbers from..to of one pad, before the ledger numbers and hashes it. */
export interface PadEventInput {
  padId: number;
  routeId: number;
  kind: EventKind;
  from: number;
  to: number;
  holderUserId: number | null;
  holderBranchId: number | null;
  counterpartyUserId?: number | null;
  counterpartyBranchId?: number | null;
  invoiceId?: number | null;
  actorId: number | null;
  reason?: string | null;
  /** docs/design.md §9: who approved a cancellation or confirmed a loss or a find. */
  approverId?: number | null;
  incidentId?: number | null;
  copiesRetained?: boolean | null;
  /** docs/design.md §2 offline: when the phone recorded the action it queued; the event's recorded_at is the server's. */
  deviceAt?: Date | null;
  /** docs/design.md §10: the import an opening balance came from. */
  importId?: number | null;
}

/** The day of an instant in the operator's time zone, as YYYY-MM-DD. */
export function businessDate(at: Date, timeZone: string): string {
  return dateInZone(at, timeZone);
}

/** Events are recorded now, to the millisecond, unless the demo loader or a test set ctx.ledgerClock. */
const recordedAt = (ctx: LedgerCtx) => new Date(Math.floor((ctx.ledgerClock?.() ?? new Date()).getTime()));

/**
 * The only writer of pad_events (docs/design.md §8). Runs inside the caller's transaction, so the events commit
 * or roll back with the state change they describe; it locks the pads, then chains each new event onto
 * its pad's last one.
 */
export async function appendPadEvents(tx: Conn, ctx: LedgerCtx, events: PadEventInput[]): Promise<void> {
  if (events.length === 0) return;
  const padIds = [...new Set(events.map((event) => event.padId))].sort((a, b) => a - b);
  await lockPadRows(tx, padIds);
  await repo.insertEvents(tx, chained(ctx, events, await repo.lastEventHeads(tx, padIds)));
}

/** The events as rows, each numbered and hashed onto its pad's head (which it then becomes). */
function chained(ctx: LedgerCtx, events: PadEventInput[], heads: Map<number, { seq: number; hash: string }>): repo.NewPadEventRow[] {
  const at = recordedAt(ctx);
  const day = businessDate(at, ctx.config.timeZone);
  return events.map((event) => {
    const head = heads.get(event.padId) ?? { seq: 0, hash: GENESIS_HASH };
    const row = {
      pad_id: event.padId,
      seq: head.seq + 1,
      route_id: event.routeId,
      kind: event.kind,
      from_number: event.from,
      to_number: event.to,
      qty: CUSTODY_KINDS.has(event.kind) ? 0 : event.to - event.from + 1,
      holder_user_id: event.holderUserId,
      holder_branch_id: event.holderBranchId,
      counterparty_user_id: event.counterpartyUserId ?? null,
      counterparty_branch_id: event.counterpartyBranchId ?? null,
      invoice_id: event.invoiceId ?? null,
      actor_user_id: event.actorId,
      reason: event.reason ?? null,
      recorded_at: at,
      business_date: day,
      prev_hash: head.hash,
      approver_user_id: event.approverId ?? null,
      incident_id: event.incidentId ?? null,
      copies_retained: event.copiesRetained ?? null,
      device_at: event.deviceAt ?? null,
      import_id: event.importId ?? null,
    };
    const hash = eventHash(row, head.hash);
    heads.set(event.padId, { seq: row.seq, hash });
    return { ...row, hash };
  });
}

/** One pad of an opening balance: its range, its holder, and the numbers consumed before go-live. */
export interface OpeningPad {
  padId: number;
  routeId: number;
  from: number;
  to: number;
  holderUserId: number | null;
  holderBranchId: number | null;
  used: Array<[number, number]>;
  cancelled: Array<[number, number]>;
}

/**
 * docs/design.md §10 opening balances: every number of each imported pad enters its holder's stock (`opening`), then
 * the numbers already used or cancelled leave it, all with the reason "Opening balance" and the import's id, so the
 * import month's RAAF shows them as Receipt and Issued and balances. The pads were created in this transaction, so
 * no other can hold their chains: they start at the genesis hash without a lock, like a generation's.
 */
export async function recordOpeningBalances(
  tx: Conn,
  ctx: LedgerCtx,
  pads: OpeningPad[],
  input: { importId: number; actorId: number | null },
): Promise<void> {
  const reason = `Opening balance (import #${input.importId})`;
  const events: PadEventInput[] = [];
  for (const pad of pads) {
    const base = {
      padId: pad.padId,
      routeId: pad.routeId,
      holderUserId: pad.holderUserId,
      holderBranchId: pad.holderBranchId,
      actorId: input.actorId,
      reason,
      importId: input.importId,
    };
    events.push({ ...base, kind: 'opening', from: pad.from, to: pad.to });
    for (const [from, to] of pad.used) events.push({ ...base, kind: 'used', from, to });
    for (const [from, to] of pad.cancelled) events.push({ ...base, kind: 'cancelled', from, to });
  }
  await repo.insertEvents(tx, chained(ctx, events, new Map()));
}

/**
 * add-pad: every number of the pads just created enters the head office's stock. The pads are new, so
 * nothing else can hold their chains; the events are written and hashed in SQL in one statement, so a
 * generation of 20,000 pads costs little more than inserting them.
 */
export async function recordGeneratedPads(
  tx: Conn,
  ctx: LedgerCtx,
  input: { routeId: number; firstPadNumber: number; actorId: number },
): Promise<void> {
  const at = recordedAt(ctx);
  await repo.insertReceivedEvents(tx, {
    routeId: input.routeId,
    firstNumber: input.firstPadNumber,
    actorId: input.actorId,
    recordedAt: at,
    businessDate: businessDate(at, ctx.config.timeZone),
    prevHash: GENESIS_HASH,
  });
}

const LEAVING_KIND: Record<Exclude<NumberState, 'stock'>, EventKind> = { used: 'used', cancelled: 'cancelled', lost: 'lost' };

/**
 * A pad edit (series marks, Cancelled/Lost) as events: each number whose state changed first comes back
 * to stock if it was out (used_reverted, or received for a reinstated write-off), then leaves as its new
 * state says. `before` is the locked row; `after` the values about to be stored.
 */
export async function recordPadChange(
  tx: Conn,
  ctx: LedgerCtx,
  before: PadView,
  after: { series_status: string; pad_status_id: number; remarks: string | null },
  actorId: number,
): Promise<void> {
  const was = numberStates(before.series_status, before.pad_status_id);
  const now = numberStates(after.series_status, after.pad_status_id);
  const holder = { holderUserId: before.holder_user_id, holderBranchId: before.holder_branch_id };
  const events: PadEventInput[] = [];
  const transitions = new Map<string, [NumberState, NumberState]>();
  for (let i = 0; i < was.length; i += 1) if (was[i] !== now[i]) transitions.set(`${was[i]}>${now[i]}`, [was[i], now[i]]);
  for (const [from, to] of transitions.values()) {
    for (const [first, last] of runsOf(was.length, (i) => was[i] === from && now[i] === to)) {
      const range = {
        padId: before.id,
        routeId: before.route_id,
        from: before.series_from + first,
        to: before.series_from + last,
        actorId,
        ...holder,
      };
      if (from !== 'stock') {
        events.push(
          from === 'used'
            ? { ...range, kind: 'used_reverted', reason: 'Unmarked: correction' }
            : { ...range, kind: 'received', reason: `Reinstated from ${from === 'cancelled' ? 'Cancelled' : 'Lost'}` },
        );
      }
      if (to !== 'stock') {
        const reason = to === 'used' ? null : after.remarks || (to === 'cancelled' ? 'Pad cancelled' : 'Pad lost');
        events.push({ ...range, kind: LEAVING_KIND[to], reason });
      }
    }
  }
  await appendPadEvents(tx, ctx, events);
}

/** One outcome of numbers of a pad (docs/design.md §9): used, cancelled, lost, or one of those undone. */
export interface NumberEventInput {
  kind: Extract<EventKind, 'used' | 'cancelled' | 'lost' | 'cancel_reverted' | 'found'>;
  from: number;
  to: number;
  reason?: string | null;
  approverId?: number | null;
  incidentId?: number | null;
  copiesRetained?: boolean | null;
  deviceAt?: Date | null;
}

/**
 * Usage by range, cancellations, losses and their undoing, against the pad's accountable holder (the
 * sender while an invoice carries it), in the caller's transaction.
 */
export async function recordNumberEvents(
  tx: Conn,
  ctx: LedgerCtx,
  pad: Pick<PadView, 'id' | 'route_id' | 'holder_user_id' | 'holder_branch_id'>,
  events: NumberEventInput[],
  actorId: number,
): Promise<void> {
  await appendPadEvents(
    tx,
    ctx,
    events.map((event) => ({
      ...event,
      padId: pad.id,
      routeId: pad.route_id,
      holderUserId: pad.holder_user_id,
      holderBranchId: pad.holder_branch_id,
      actorId,
    })),
  );
}

/**
 * docs/design.md §9: a pad that goes away (only ever `received`) takes its numbers out of stock with a `voided` event
 * first, so the ledger still balances and Find receipt can still say when and by whom it was voided.
 */
export async function recordPadDeleted(tx: Conn, ctx: LedgerCtx, pad: PadView, actorId: number): Promise<void> {
  const states = numberStates(pad.series_status, pad.pad_status_id);
  const events = runsOf(states.length, (i) => states[i] === 'stock').map(([first, last]) => ({
    padId: pad.id,
    routeId: pad.route_id,
    kind: 'voided' as const,
    from: pad.series_from + first,
    to: pad.series_from + last,
    holderUserId: pad.holder_user_id,
    holderBranchId: pad.holder_branch_id,
    actorId,
    reason: `Pad ${pad.number} deleted`,
  }));
  await appendPadEvents(tx, ctx, events);
}

/** docs/design.md §9: a booklet whose numbers are all consumed and some lost was itself lost; it does not travel. */
export const isLostBooklet = (states: NumberState[]) => states.includes('lost') && !states.includes('stock');

/**
 * Accepting a transfer invoice (Issued, Return, Turnover): accountability passes now, so the numbers
 * still unused leave the sender (transfer_out) and reach the receiver (transfer_in), one pair per
 * contiguous run; a booklet with no unused number left travels as custody_out/custody_in of quantity 0
 * (docs/design.md §9). A lost booklet moves not at all: its ids are answered so the caller leaves it with the
 * sender. Call it before the pads are released, while they still show their sender.
 */
export async function recordAcceptance(
  tx: Conn,
  ctx: LedgerCtx,
  input: { invoiceId: number; actorId: number; receiver: { userId: number | null; branchId: number | null } },
): Promise<number[]> {
  const events: PadEventInput[] = [];
  const staying: number[] = [];
  for (const pad of await invoicePadViews(tx, input.invoiceId)) {
    if (pad.locked_by_invoice_id !== input.invoiceId) continue;
    const states = numberStates(pad.series_status, pad.pad_status_id);
    if (isLostBooklet(states)) {
      staying.push(pad.id);
      continue;
    }
    const runs = runsOf(states.length, (i) => states[i] === 'stock');
    const travelling: Array<[number, number]> = runs.length > 0 ? runs : [[0, states.length - 1]];
    const [outKind, inKind] = runs.length > 0 ? (['transfer_out', 'transfer_in'] as const) : (['custody_out', 'custody_in'] as const);
    for (const [first, last] of travelling) {
      const range = {
        padId: pad.id,
        routeId: pad.route_id,
        from: pad.series_from + first,
        to: pad.series_from + last,
        invoiceId: input.invoiceId,
        actorId: input.actorId,
      };
      events.push(
        {
          ...range,
          kind: outKind,
          holderUserId: pad.holder_user_id,
          holderBranchId: pad.holder_branch_id,
          counterpartyUserId: input.receiver.userId,
          counterpartyBranchId: input.receiver.branchId,
        },
        {
          ...range,
          kind: inKind,
          holderUserId: input.receiver.userId,
          holderBranchId: input.receiver.branchId,
          counterpartyUserId: pad.holder_user_id,
          counterpartyBranchId: pad.holder_branch_id,
        },
      );
    }
  }
  await appendPadEvents(tx, ctx, events);
  return staying;
}
