import { PAD_STATUS } from '../../../shared/lookups.ts';
import { CUSTODY_KINDS, ENTERING_KINDS, GENESIS_HASH } from './fold.ts';
import { bytesEqual, type RawEvent } from './event-text.ts';
import type { PadCheckView } from '../pads/check-read-model.ts';
import { rangesText } from './raaf-fold.ts';

/**
 * One pad's chain replayed for the verifier (docs/design.md §8): its order and hashes, the fold of its numbers and
 * booklet, its stock at month ends, and how the pad's fast view differs from that fold. The chain takes its events one
 * at a time, so a pad's events may arrive over several slices; each number's state and holder are small integers.
 */
export type Folded = 'none' | 'stock' | 'used' | 'cancelled' | 'lost' | 'out';

const STOCK = 1;
const FOLDED: Folded[] = ['none', 'stock', 'used', 'cancelled', 'lost', 'out'];
const CODE: Record<Folded, number> = { none: 0, stock: 1, used: 2, cancelled: 3, lost: 4, out: 5 };

export const holderKey = (user: number | null, branch: number | null) => `${user ?? '-'}/${branch ?? '-'}`;
export const holderText = (key: string) => {
  const [user, branch] = key.split('/');
  return user === '-' ? `branch ${branch}` : `user ${user} (branch ${branch})`;
};

const LEAVES: Record<string, Folded> = { used: 'used', cancelled: 'cancelled', lost: 'lost', transfer_out: 'out', voided: 'out' };

/** docs/design.md §9: an undo brings back only what it undoes: a cancellation, a loss. */
const UNDOES: Record<string, Folded> = { cancel_reverted: 'cancelled', found: 'lost' };

/** Kinds that say who holds the booklet itself after them (docs/design.md §9: the verifier folds custody too). */
const BOOKLET_HOLDER_KINDS: ReadonlySet<string> = new Set(['received', 'opening', 'transfer_in', 'custody_in']);

/** The holders a run meets, each a small number (0: nobody yet), so a pad's numbers keep theirs in an Int32Array. */
export class Holders {
  readonly keys: string[] = [''];
  private readonly users: Array<number | null> = [null];
  private readonly branches: Array<number | null> = [null];
  private readonly byUser = new Map<number, Map<number, number>>();

  code(user: number | null, branch: number | null): number {
    const byBranch = this.byUser.get(user ?? -1) ?? new Map<number, number>();
    if (byBranch.size === 0) this.byUser.set(user ?? -1, byBranch);
    const known = byBranch.get(branch ?? -1);
    if (known !== undefined) return known;
    const code = this.keys.length;
    this.keys.push(holderKey(user, branch));
    this.users.push(user);
    this.branches.push(branch);
    byBranch.set(branch ?? -1, code);
    return code;
  }

  /** The holder as the month-end balances name it: "u12" or "b3". */
  balanceKey(code: number): string {
    const user = this.users[code];
    return user === null ? `b${this.branches[code] ?? '-'}` : `u${user}`;
  }
}

/** A holder's stock of one pad as the balances store it: "u12" or "b3" → "from-to,from-to". */
export type Snapshot = Map<string, string>;

function snapshotOf(state: Uint8Array, holder: Int32Array, from: number, holders: Holders): Snapshot {
  const byHolder = new Map<string, Array<[number, number]>>();
  for (let i = 0; i < state.length; i += 1) {
    if (state[i] !== STOCK) continue;
    const key = holders.balanceKey(holder[i]);
    const runs = byHolder.get(key) ?? [];
    const lastRun = runs[runs.length - 1];
    if (lastRun && lastRun[1] === from + i - 1) lastRun[1] = from + i;
    else runs.push([from + i, from + i]);
    byHolder.set(key, runs);
  }
  return new Map([...byHolder].map(([key, runs]) => [key, rangesText(runs)]));
}

/** Month ends to snapshot a pad's stock at: each closed month and the first business date after it (yyyymmdd). */
export interface MonthEnds {
  months: string[];
  ends: number[];
  onSnapshot: (month: string, snapshot: Snapshot) => void;
}

const GENESIS = Buffer.from(GENESIS_HASH);

/** Replays one pad's chain event by event: order and hashes first, then the fold of its numbers (and its stock at each month end asked for). */
export class PadChain {
  readonly state: Uint8Array;
  readonly holder: Int32Array;
  /** Who holds the booklet after the events so far (a holder code), -1 before any says. */
  booklet = -1;
  events = 0;
  lastSeq = 0;
  private prevBytes: Buffer = GENESIS;
  private prevStart = 0;
  private prevEnd = GENESIS.length;
  private expectedSeq = 1;
  private nextEnd = 0;
  private snapshot: Snapshot | null = null;

  constructor(
    readonly from: number,
    readonly to: number,
    private readonly holders: Holders,
    private readonly say: (message: string) => void,
    private readonly monthEnds?: MonthEnds,
  ) {
    const length = Math.max(to - from + 1, 0);
    this.state = new Uint8Array(length);
    this.holder = new Int32Array(length);
  }

  /** The hash of the last event taken, as stored. */
  lastHash(): string {
    return this.prevBytes.toString('latin1', this.prevStart, this.prevEnd);
  }

  private passMonthEnds(day: number | null) {
    const monthEnds = this.monthEnds;
    if (!monthEnds) return;
    while (this.nextEnd < monthEnds.ends.length && (day === null || day >= monthEnds.ends[this.nextEnd])) {
      this.snapshot ??= snapshotOf(this.state, this.holder, this.from, this.holders);
      monthEnds.onSnapshot(monthEnds.months[this.nextEnd], this.snapshot);
      this.nextEnd += 1;
    }
  }

  add(event: RawEvent): void {
    const say = this.say;
    this.passMonthEnds(event.day);
    this.snapshot = null;
    this.events += 1;
    if (event.seq !== this.expectedSeq)
      say(
        `event seq ${this.expectedSeq}${event.seq > this.expectedSeq + 1 ? `–${event.seq - 1}` : ''} is missing (next is event ${event.id}, seq ${event.seq})`,
      );
    this.expectedSeq = event.seq + 1;
    this.lastSeq = event.seq;
    if (!bytesEqual(event.bytes, event.prevStart, event.prevEnd, this.prevBytes, this.prevStart, this.prevEnd))
      say(`event ${event.id} (seq ${event.seq}) does not chain onto the event before it`);
    if (!event.hashOk) say(`event ${event.id} (seq ${event.seq}, ${event.kind}) was altered: its hash does not match its content`);
    this.prevBytes = event.bytes;
    this.prevStart = event.hashStart;
    this.prevEnd = event.hashEnd;
    const from = this.from;
    if (event.from_number < from || event.to_number > this.to || event.from_number > event.to_number) {
      say(`event ${event.id} covers ${event.from_number}-${event.to_number}, outside the pad's series ${from}-${this.to}`);
      return;
    }
    const key = this.holders.code(event.holder_user_id, event.holder_branch_id);
    if (BOOKLET_HOLDER_KINDS.has(event.kind)) this.booklet = key;
    if (CUSTODY_KINDS.has(event.kind)) {
      if (event.qty !== 0) say(`event ${event.id} (${event.kind}) moves the booklet but counts ${event.qty} number(s)`);
      return;
    }
    this.foldNumbers(event, key);
  }

  /** Folds one number event into the pad's numbers, saying when it takes numbers nobody held or puts back numbers still held. */
  private foldNumbers(event: RawEvent, key: number) {
    const { state, holder, from } = this;
    const entering = ENTERING_KINDS.has(event.kind);
    const undoes = UNDOES[event.kind];
    const undoesCode = undoes === undefined ? -1 : CODE[undoes];
    const leaves = CODE[LEAVES[event.kind] ?? 'out'];
    let clashes = 0;
    const last = event.to_number - from;
    for (let i = event.from_number - from; i <= last; i += 1) {
      if (entering) {
        if (state[i] === STOCK || (undoesCode >= 0 && state[i] !== undoesCode)) clashes += 1;
        state[i] = STOCK;
        holder[i] = key;
      } else {
        if (state[i] !== STOCK || holder[i] !== key) clashes += 1;
        state[i] = leaves;
      }
    }
    if (clashes > 0) {
      this.say(
        entering
          ? `event ${event.id} (${event.kind}) puts ${clashes} number(s) of ${event.from_number}-${event.to_number} into stock that were already in someone's stock${undoes ? ` or were not ${undoes}` : ''}`
          : `event ${event.id} (${event.kind}) takes ${clashes} number(s) of ${event.from_number}-${event.to_number} from ${holderText(this.holders.keys[key])}, who did not hold them unused`,
      );
    }
  }

  /** After the last event: the month ends still to come. */
  finish(): void {
    this.passMonthEnds(null);
  }

  /** Numbers left in someone's stock. */
  inStock(): number {
    let count = 0;
    for (const value of this.state) if (value === STOCK) count += 1;
    return count;
  }
}

const STATE_OF_CHAR: Record<string, Folded> = { '2': 'used', '3': 'cancelled', '4': 'lost' };

/** How the pad's fast view (its series text and status, fold.ts numberStates) differs from the fold of its events. */
export function describeMismatch(pad: PadCheckView, chain: PadChain, holders: Holders): string[] {
  const { state, holder } = chain;
  const writtenOff: Folded | null =
    pad.pad_status_id === PAD_STATUS.CANCELLED ? 'cancelled' : pad.pad_status_id === PAD_STATUS.LOST ? 'lost' : null;
  const padHolder = holders.code(pad.holder_user_id, pad.holder_branch_id);
  const viewOf = (i: number): Folded => STATE_OF_CHAR[pad.series_status[i]] ?? writtenOff ?? 'stock';
  const folded = (i: number): Folded | undefined => (i < state.length ? FOLDED[state[i]] : undefined);
  let wrongState = 0;
  let firstState = -1;
  let wrongHolder = 0;
  let firstHolder = -1;
  for (let i = 0; i < pad.series_status.length; i += 1) {
    const view = viewOf(i);
    if (i >= state.length || state[i] !== CODE[view]) {
      wrongState += 1;
      if (firstState < 0) firstState = i;
    } else if (state[i] === STOCK && holder[i] !== padHolder) {
      wrongHolder += 1;
      if (firstHolder < 0) firstHolder = i;
    }
  }
  const problems: string[] = [];
  if (wrongState > 0) {
    problems.push(
      `${wrongState} number(s) differ from the ledger, first ${pad.series_from + firstState}: the pad says ${viewOf(firstState)}, the events say ${folded(firstState)}`,
    );
  }
  if (wrongHolder > 0) {
    problems.push(
      `held by ${holderText(holders.keys[padHolder])} on the pad but by ${holderText(holders.keys[holder[firstHolder]])} in the ledger (${wrongHolder} number(s), first ${pad.series_from + firstHolder})`,
    );
  }
  return problems;
}
