import { CUSTODY_KINDS, ENTERING_KINDS, GENESIS_HASH, eventHash, numberStates } from './fold.ts';
import type { PadView } from '../pads/read-model.ts';
import { rangesText } from './raaf-fold.ts';
import type * as repo from './repo.ts';

/**
 * One pad's chain replayed for the verifier (docs/design.md §8): its order and hashes, the fold of its numbers and
 * booklet, its stock at month ends, and how the pad's fast view differs from that fold.
 */
export type Folded = 'none' | 'stock' | 'used' | 'cancelled' | 'lost' | 'out';

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

/** A holder's stock of one pad as the balances store it: "u12" or "b3" → "from-to,from-to". */
export type Snapshot = Map<string, string>;

export function snapshotOf(state: Folded[], holder: string[], from: number): Snapshot {
  const byHolder = new Map<string, Array<[number, number]>>();
  for (let i = 0; i < state.length; i += 1) {
    if (state[i] !== 'stock') continue;
    const [user, branch] = holder[i].split('/');
    const key = user === '-' ? `b${branch}` : `u${user}`;
    const runs = byHolder.get(key) ?? [];
    const lastRun = runs[runs.length - 1];
    if (lastRun && lastRun[1] === from + i - 1) lastRun[1] = from + i;
    else runs.push([from + i, from + i]);
    byHolder.set(key, runs);
  }
  return new Map([...byHolder].map(([key, runs]) => [key, rangesText(runs)]));
}

/** Month ends to snapshot a pad's stock at: each closed month and the first business date after it. */
export interface MonthEnds {
  months: string[];
  ends: string[];
  onSnapshot: (month: string, snapshot: Snapshot) => void;
}

/** The numbers of a pad as folded so far: their state and holder, index 0 being the series' first number. */
interface Fold {
  state: Folded[];
  holder: string[];
  from: number;
}

/** Folds one number event into the pad's numbers, saying when it takes numbers nobody held or puts back numbers still held. */
function foldNumbers(event: repo.PadEventRow, key: string, { state, holder, from }: Fold, say: (message: string) => void) {
  const entering = ENTERING_KINDS.has(event.kind);
  const undoes = UNDOES[event.kind];
  let clashes = 0;
  for (let n = event.from_number; n <= event.to_number; n += 1) {
    const i = n - from;
    if (entering) {
      if (state[i] === 'stock' || (undoes !== undefined && state[i] !== undoes)) clashes += 1;
      state[i] = 'stock';
      holder[i] = key;
    } else {
      if (state[i] !== 'stock' || holder[i] !== key) clashes += 1;
      state[i] = LEAVES[event.kind] ?? 'out';
    }
  }
  if (clashes > 0) {
    say(
      entering
        ? `event ${event.id} (${event.kind}) puts ${clashes} number(s) of ${event.from_number}-${event.to_number} into stock that were already in someone's stock${undoes ? ` or were not ${undoes}` : ''}`
        : `event ${event.id} (${event.kind}) takes ${clashes} number(s) of ${event.from_number}-${event.to_number} from ${holderText(key)}, who did not hold them unused`,
    );
  }
}

/** Replays one pad's chain: order and hashes first, then the fold of its numbers (and its stock at each month end asked for). */
export function checkChain(events: repo.PadEventRow[], from: number, to: number, say: (message: string) => void, monthEnds?: MonthEnds) {
  const length = to - from + 1;
  const state: Folded[] = new Array<Folded>(Math.max(length, 0)).fill('none');
  const holder: string[] = new Array<string>(Math.max(length, 0)).fill('');
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  let nextEnd = 0;
  let snapshot: Snapshot | null = null;
  const passMonthEnds = (date: string | null) => {
    if (!monthEnds) return;
    while (nextEnd < monthEnds.ends.length && (date === null || date >= monthEnds.ends[nextEnd])) {
      snapshot ??= snapshotOf(state, holder, from);
      monthEnds.onSnapshot(monthEnds.months[nextEnd], snapshot);
      nextEnd += 1;
    }
  };
  let booklet: string | null = null;
  for (const event of events) {
    passMonthEnds(event.business_date);
    snapshot = null;
    if (event.seq !== expectedSeq)
      say(
        `event seq ${expectedSeq}${event.seq > expectedSeq + 1 ? `–${event.seq - 1}` : ''} is missing (next is event ${event.id}, seq ${event.seq})`,
      );
    expectedSeq = event.seq + 1;
    if (event.prev_hash !== prev) say(`event ${event.id} (seq ${event.seq}) does not chain onto the event before it`);
    if (eventHash(event, event.prev_hash) !== event.hash)
      say(`event ${event.id} (seq ${event.seq}, ${event.kind}) was altered: its hash does not match its content`);
    prev = event.hash;
    if (event.from_number < from || event.to_number > to || event.from_number > event.to_number) {
      say(`event ${event.id} covers ${event.from_number}-${event.to_number}, outside the pad's series ${from}-${to}`);
      continue;
    }
    const key = holderKey(event.holder_user_id, event.holder_branch_id);
    if (BOOKLET_HOLDER_KINDS.has(event.kind)) booklet = key;
    if (CUSTODY_KINDS.has(event.kind)) {
      if (event.qty !== 0) say(`event ${event.id} (${event.kind}) moves the booklet but counts ${event.qty} number(s)`);
      continue;
    }
    foldNumbers(event, key, { state, holder, from }, say);
  }
  passMonthEnds(null);
  return { state, holder, booklet };
}

export function describeMismatch(pad: PadView, state: Folded[], holder: string[]): string[] {
  const view = numberStates(pad.series_status, pad.pad_status_id);
  const padHolder = holderKey(pad.holder_user_id, pad.holder_branch_id);
  const wrongState: number[] = [];
  const wrongHolder: number[] = [];
  for (let i = 0; i < view.length; i += 1) {
    if (state[i] !== view[i]) wrongState.push(pad.series_from + i);
    else if (view[i] === 'stock' && holder[i] !== padHolder) wrongHolder.push(pad.series_from + i);
  }
  const problems: string[] = [];
  if (wrongState.length > 0) {
    const first = wrongState[0] - pad.series_from;
    problems.push(
      `${wrongState.length} number(s) differ from the ledger, first ${wrongState[0]}: the pad says ${view[first]}, the events say ${state[first]}`,
    );
  }
  if (wrongHolder.length > 0) {
    const first = wrongHolder[0] - pad.series_from;
    problems.push(
      `held by ${holderText(padHolder)} on the pad but by ${holderText(holder[first])} in the ledger (${wrongHolder.length} number(s), first ${wrongHolder[0]})`,
    );
  }
  return problems;
}
