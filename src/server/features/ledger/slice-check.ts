import { describeMismatch, holderText, Holders, PadChain, type MonthEnds, type Snapshot } from './chain-check.ts';
import { dayNumber, EventCursor, type RawEvent } from './event-text.ts';
import type { PadCheckView } from '../pads/check-read-model.ts';
import { monthBounds, nextMonth } from './month-balances.ts';
import type * as repo from './repo.ts';

/**
 * One verifier run's checking of its slices (verifier.ts reads them): each slice's events, read from COPY text, are
 * merged with its pads by pad id and replayed pad by pad; the pad whose events go on in the next slice stays open.
 */
export interface LedgerProblem {
  pad_id: number;
  pad: string;
  message: string;
}

/** Events checked between two looks at the event loop, so requests served beside a check wait milliseconds, not a slice. */
const YIELD_EVERY = 500;

/** What a slice read in its snapshot: events as COPY text, the pads they belong to, their invoices in transit and sampled balances. */
export interface Slice {
  events: Buffer;
  pads: PadCheckView[];
  transit: Map<number, number[]>;
  balances: Awaited<ReturnType<typeof repo.balancesOfPads>>;
}

/** The pad whose events are being read: its chain, or the events of a deleted pad, checked once its range is known. */
interface OpenPad {
  padId: number;
  pad: PadCheckView | null;
  chain: PadChain | null;
  deletedEvents: RawEvent[];
  problemsBefore: number;
  say: (message: string) => void;
}

/** The state of one run: what it found, and the pad whose events may go on in the next slice. */
export class Run {
  readonly problems: LedgerProblem[] = [];
  /** Problems of deleted pads, reported after every pad's. */
  readonly deletedProblems: LedgerProblem[] = [];
  readonly holders = new Holders();
  pads = 0;
  events = 0;
  private open: OpenPad | null = null;
  private stored = new Map<number, Map<string, Snapshot>>();
  private readonly ends: number[];

  constructor(
    private readonly closes: string[],
    readonly sample: { every: number; salt: number } | null,
    private readonly checkDeleted: boolean,
  ) {
    this.ends = closes.map((month) => dayNumber(monthBounds(nextMonth(month)).start));
  }

  sampled(padId: number): boolean {
    return this.sample === null || padId % this.sample.every === this.sample.salt;
  }

  get wantsBalances(): boolean {
    return this.closes.length > 0;
  }

  /** The stored balances of a pad, checked against its fold at every closed month's end. */
  private monthEnds(padId: number, say: (message: string) => void): MonthEnds | undefined {
    if (!this.sampled(padId) || this.closes.length === 0) return undefined;
    const months = this.stored.get(padId) ?? new Map<string, Snapshot>();
    let wrong = 0;
    return {
      months: this.closes,
      ends: this.ends,
      onSnapshot: (month, expected) => {
        const got = months.get(month) ?? new Map<string, string>();
        const same = got.size === expected.size && [...expected].every(([key, ranges]) => got.get(key) === ranges);
        if (!same && (wrong += 1) === 1)
          say(`stored balances at the end of ${month} differ from its events (stored ${describe(got)}, events ${describe(expected)})`);
      },
    };
  }

  private start(padId: number, pad: PadCheckView | null): OpenPad {
    const open: OpenPad = { padId, pad, chain: null, deletedEvents: [], problemsBefore: this.problems.length, say: () => undefined };
    if (pad) {
      const name = `pad ${pad.id} (route ${pad.route_id}, pad no. ${pad.number}, ${pad.series_from}-${pad.series_to})`;
      open.say = (message) => this.problems.push({ pad_id: pad.id, pad: name, message });
      open.chain = new PadChain(pad.series_from, pad.series_to, this.holders, open.say, this.monthEnds(pad.id, open.say));
    }
    return open;
  }

  /** A pad whose events are all in: its chain's end, its fast view, booklet and lock compared; sound pads' heads kept. */
  private finish(open: OpenPad, transit: Map<number, number[]>, heads: repo.VerifiedHead[], unsound: number[]) {
    this.pads += open.pad ? 1 : 0;
    const { pad, chain, say } = open;
    if (!pad || !chain) {
      this.finishDeleted(open);
      return;
    }
    if (chain.events === 0) say('has no events');
    chain.finish();
    for (const message of describeMismatch(pad, chain, this.holders)) say(message);
    const padHolder = this.holders.code(pad.holder_user_id, pad.holder_branch_id);
    if (chain.booklet >= 0 && chain.booklet !== padHolder)
      say(
        `the booklet is held by ${holderText(this.holders.keys[padHolder])} on the pad but by ${holderText(this.holders.keys[chain.booklet])} in the ledger`,
      );
    const carriers = transit.get(pad.id) ?? [];
    if (pad.locked_by_invoice_id !== null && (carriers.length !== 1 || carriers[0] !== pad.locked_by_invoice_id)) {
      say(
        `is locked by invoice ${pad.locked_by_invoice_id} but is on ${carriers.length} in-transit invoice(s)${carriers.length ? ` (${carriers.join(', ')})` : ''}`,
      );
    }
    if (pad.locked_by_invoice_id === null && carriers.length > 0) say(`is unlocked but on in-transit invoice(s) ${carriers.join(', ')}`);
    if (this.problems.length === open.problemsBefore && chain.events > 0)
      heads.push({ pad_id: pad.id, seq: chain.lastSeq, hash: chain.lastHash() });
    else unsound.push(pad.id);
  }

  /** Events of a pad since deleted: its chain must still hold and leave none of its numbers in stock. */
  private finishDeleted({ padId, deletedEvents: events }: OpenPad) {
    if (!this.checkDeleted) return;
    let from = Infinity;
    let to = -Infinity;
    for (const event of events) {
      from = Math.min(from, event.from_number);
      to = Math.max(to, event.to_number);
    }
    const name = `deleted pad ${padId} (route ${events[0].route_id}, ${from}-${to})`;
    const say = (message: string) => this.deletedProblems.push({ pad_id: padId, pad: name, message });
    const chain = new PadChain(from, to, this.holders, say);
    for (const event of events) chain.add(event);
    chain.finish();
    const left = chain.inStock();
    if (left > 0) say(`is gone but ${left} of its number(s) are still in stock in the ledger`);
  }

  /**
   * Checks a slice's events against its pads, merging the two by pad id. The last pad of a slice that stopped at its
   * limit stays open: its next events come first in the next slice, whose pads include it again as it is then.
   */
  async check(slice: Slice, complete: boolean): Promise<{ heads: repo.VerifiedHead[]; unsound: number[] }> {
    for (const row of slice.balances) {
      const months = this.stored.get(row.pad_id) ?? new Map<string, Snapshot>();
      const snapshot = months.get(row.month) ?? new Map<string, string>();
      snapshot.set(`${row.holder_type === 'user' ? 'u' : 'b'}${row.holder_id}`, row.ranges);
      months.set(row.month, snapshot);
      this.stored.set(row.pad_id, months);
    }
    const heads: repo.VerifiedHead[] = [];
    const unsound: number[] = [];
    const { pads, transit } = slice;
    let next = 0;
    if (this.open && pads[0]?.id === this.open.padId) {
      this.open.pad = pads[0];
      next = 1;
    }
    const cursor = new EventCursor(slice.events);
    let read = 0;
    for (let event = cursor.next(); event; event = cursor.next()) {
      if (this.open?.padId !== event.pad_id) {
        if (this.open) this.finish(this.open, transit, heads, unsound);
        while (next < pads.length && pads[next].id < event.pad_id)
          this.finish(this.start(pads[next].id, pads[next++]), transit, heads, unsound);
        const pad = next < pads.length && pads[next].id === event.pad_id ? pads[next++] : null;
        this.open = this.start(event.pad_id, pad);
      }
      const open = this.open;
      if (open.chain) open.chain.add(event);
      else if (this.checkDeleted) open.deletedEvents.push({ ...event });
      this.events += 1;
      read += 1;
      if (read % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (complete) {
      if (this.open) this.finish(this.open, transit, heads, unsound);
      this.open = null;
      while (next < pads.length) this.finish(this.start(pads[next].id, pads[next++]), transit, heads, unsound);
      this.stored = new Map();
    } else {
      for (const padId of this.stored.keys()) if (padId !== this.open?.padId) this.stored.delete(padId);
    }
    return { heads, unsound };
  }
}

const describe = (snapshot: Snapshot) =>
  snapshot.size === 0 ? 'none' : [...snapshot].map(([key, ranges]) => `${key}: ${ranges}`).join('; ');
