import { createHash } from 'node:crypto';
import { PAD_STATUS } from '../../../shared/lookups.ts';

export const GENESIS_HASH = '0'.repeat(64);

export type EventKind =
  | 'received'
  | 'opening'
  | 'transfer_out'
  | 'transfer_in'
  | 'used'
  | 'used_reverted'
  | 'cancelled'
  | 'lost'
  | 'cancel_reverted'
  | 'found'
  | 'custody_out'
  | 'custody_in'
  | 'voided';

/** Kinds that put numbers into a holder's unused stock; every other kind but custody takes them out. */
export const ENTERING_KINDS: ReadonlySet<string> = new Set([
  'received',
  'opening',
  'transfer_in',
  'used_reverted',
  'cancel_reverted',
  'found',
]);

/** docs/design.md §9: the booklet itself changes hands (quantity 0); no number enters or leaves anyone's stock. */
export const CUSTODY_KINDS: ReadonlySet<string> = new Set(['custody_out', 'custody_in']);

/** The stored columns the hash covers, in the order the migration's SQL hashes them. */
export interface HashedEvent {
  pad_id: number;
  seq: number;
  kind: string;
  route_id: number;
  from_number: number;
  to_number: number;
  qty: number;
  holder_user_id: number | null;
  holder_branch_id: number | null;
  counterparty_user_id: number | null;
  counterparty_branch_id: number | null;
  invoice_id: number | null;
  actor_user_id: number | null;
  reason: string | null;
  recorded_at: Date;
  business_date: string;
  approver_user_id?: number | null;
  incident_id?: number | null;
  copies_retained?: boolean | null;
  device_at?: Date | null;
  import_id?: number | null;
}

const opt = (value: number | null) => (value === null ? '' : String(value));

/**
 * docs/design.md §9's and §10's columns join the hashed text only when set, so every event written before them keeps its hash
 * (and 0003's SQL, which hashes rows without them, stays right).
 */
function outcomeSuffix(event: HashedEvent): string[] {
  const parts: string[] = [];
  if (event.approver_user_id != null) parts.push(`approver:${event.approver_user_id}`);
  if (event.incident_id != null) parts.push(`incident:${event.incident_id}`);
  if (event.copies_retained != null) parts.push(`copies:${event.copies_retained ? 1 : 0}`);
  if (event.device_at != null) parts.push(`device:${event.device_at.getTime()}`);
  if (event.import_id != null) parts.push(`import:${event.import_id}`);
  return parts;
}

/** SHA-256 over the event and the previous event's hash; 0003_pad_events.sql computes the same text in SQL. */
export function eventHash(event: HashedEvent, prevHash: string): string {
  const content = [
    event.pad_id,
    event.seq,
    event.kind,
    event.route_id,
    event.from_number,
    event.to_number,
    event.qty,
    opt(event.holder_user_id),
    opt(event.holder_branch_id),
    opt(event.counterparty_user_id),
    opt(event.counterparty_branch_id),
    opt(event.invoice_id),
    opt(event.actor_user_id),
    Buffer.from(event.reason ?? '', 'utf8').toString('hex'),
    event.recorded_at.getTime(),
    event.business_date,
    prevHash,
    ...outcomeSuffix(event),
  ].join('|');
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/** What one receipt number is, as the pad row says it: in someone's stock, used, or written off. */
export type NumberState = 'stock' | 'used' | 'cancelled' | 'lost';

const STATE_OF_CHAR: Record<string, NumberState> = { '2': 'used', '3': 'cancelled', '4': 'lost' };

/**
 * Reads the pads row's fast view as one state per number: the series text ('2' used, '3' cancelled, '4'
 * lost, docs/design.md §9) and a whole-pad Cancelled or Lost status, which writes off every number still unused.
 */
export function numberStates(seriesStatus: string, padStatusId: number): NumberState[] {
  const writtenOff: NumberState | null =
    padStatusId === PAD_STATUS.CANCELLED ? 'cancelled' : padStatusId === PAD_STATUS.LOST ? 'lost' : null;
  const states: NumberState[] = new Array(seriesStatus.length);
  for (let i = 0; i < seriesStatus.length; i += 1) {
    states[i] = STATE_OF_CHAR[seriesStatus[i]] ?? writtenOff ?? 'stock';
  }
  return states;
}

/** Maximal runs [from, to] of the indexes for which keep() is true. */
export function runsOf(length: number, keep: (index: number) => boolean): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= length; i += 1) {
    const inside = i < length && keep(i);
    if (inside && start < 0) start = i;
    if (!inside && start >= 0) {
      runs.push([start, i - 1]);
      start = -1;
    }
  }
  return runs;
}

/** Merges inclusive number ranges into maximal runs, sorted. */
export function mergeRanges(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

export const rangesQty = (ranges: ReadonlyArray<readonly [number, number]>) => ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);
