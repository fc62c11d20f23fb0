import { CUSTODY_KINDS, ENTERING_KINDS, mergeRanges, runsOf } from './fold.ts';

/** The event columns the RAAF reads. */
export interface RaafEvent {
  pad_id: number;
  /** The event's place in its pad's chain: an undo remark names it, so the service can find what was undone. */
  seq?: number;
  route_id: number;
  kind: string;
  from_number: number;
  to_number: number;
  holder_user_id: number | null;
  holder_branch_id: number | null;
  counterparty_user_id: number | null;
  counterparty_branch_id: number | null;
  invoice_id: number | null;
  reason: string | null;
  business_date: string;
  /** Set on a stored month-end balance row (kind `balance`): the holder's unused runs, "from-to,from-to". */
  ranges?: string | null;
}

/** A stored month-end balance read as a row of the stream: it puts its runs into the holder's stock before the month. */
export const BALANCE_KIND = 'balance';

/** One holder's unused numbers of one pad after the fold: what a month's end balances store. */
export interface PadEnding {
  holderKey: string;
  padId: number;
  routeId: number;
  ranges: Ranges;
}

export const rangesText = (ranges: ReadonlyArray<readonly [number, number]>) => ranges.map(([from, to]) => `${from}-${to}`).join(',');

export function parseRanges(text: string): Ranges {
  if (text === '') return [];
  return text.split(',').map((part): [number, number] => {
    const [from, to] = part.split('-');
    return [Number(from), Number(to)];
  });
}

/** A balance row as the pseudo-events the fold replays, one per run, dated before any month. */
function balanceEvents(row: RaafEvent): RaafEvent[] {
  return parseRanges(row.ranges ?? '').map(([from, to]) => ({
    ...row,
    kind: BALANCE_KIND,
    from_number: from,
    to_number: to,
    business_date: '',
    ranges: null,
  }));
}

/**
 * A remark before names are known: the receiver's ids stay ids until the service looks them up. `undone`
 * is a number back in stock after a use or write-off (docs/design.md §9); the service finds each number's original
 * outcome (who, when) from padId and seq and words each run of them (`undoneRuns`), "correction" only when the
 * original was in an earlier month.
 */
export interface RaafRemark {
  kind: 'transfer_out' | 'cancelled' | 'lost' | 'voided' | 'undone' | 'opening';
  from: number;
  to: number;
  invoiceId: number | null;
  counterpartyUserId: number | null;
  counterpartyBranchId: number | null;
  reason: string | null;
  /** For `undone`: the undoing event's kind, pad and seq. */
  eventKind?: string;
  padId?: number;
  seq?: number;
}

/** Kinds that bring a used or written-off number back into stock; a `received` does so when it reinstates a write-off. */
const UNDOING_KINDS: ReadonlySet<string> = new Set(['used_reverted', 'cancel_reverted', 'found']);
const isUndo = (event: RaafEvent) =>
  UNDOING_KINDS.has(event.kind) || (event.kind === 'received' && (event.reason ?? '').startsWith('Reinstated from'));

export type Ranges = Array<[number, number]>;

/** One holder's four column groups on one route. */
export interface RaafCells {
  beginning: Ranges;
  receipt: Ranges;
  issued: Ranges;
  ending: Ranges;
  byKind: ByKind;
  remarks: RaafRemark[];
  balanced: boolean;
}

/** Issued by kind; `voided` (numbers of a deleted pad) appears only when there are any. */
export interface ByKind {
  used: number;
  cancelled: number;
  lost: number;
  transferred: number;
  voided?: number;
}

/** The one spelling of a RAAF holder as a map key: `u12` for a user, `b3` for a branch's own stock. */
export const holderKeyOf = (userId: number | null, branchId: number | null) => (userId !== null ? `u${userId}` : `b${branchId ?? 0}`);

export const holderKeyFor = (holder: { type: 'user' | 'branch'; id: number }) =>
  holder.type === 'user' ? holderKeyOf(holder.id, null) : holderKeyOf(null, holder.id);

export const holderOfKey = (key: string): { type: 'user' | 'branch'; id: number } => ({
  type: key.startsWith('u') ? 'user' : 'branch',
  id: Number(key.slice(1)),
});

const BY_KIND = { cancelled: 'cancelled', lost: 'lost', transfer_out: 'transferred', voided: 'voided' } as const;

/** One holder's view of one pad; receipt and issued count how many times each number entered or left in the month. */
interface HolderPad {
  stock: Uint8Array;
  begin: Uint8Array | null;
  usedPending: Uint8Array;
  receipt: Uint16Array;
  issued: Uint16Array;
  byKind: RaafCells['byKind'];
  remarks: RaafRemark[];
  routeId: number;
}

function newHolderPad(length: number, routeId: number): HolderPad {
  return {
    stock: new Uint8Array(length),
    begin: null,
    usedPending: new Uint8Array(length),
    receipt: new Uint16Array(length),
    issued: new Uint16Array(length),
    byKind: { used: 0, cancelled: 0, lost: 0, transferred: 0 },
    remarks: [],
    routeId,
  };
}

/**
 * Maximal runs of a multiset of ranges: a number covered k times lies in k runs, so the runs' sizes add
 * up to the ranges' sizes. A number that leaves a holder, comes back and leaves again in one month is
 * issued twice, and Beginning + Receipt - Issued = Ending must hold for the quantities as printed.
 */
export function layeredRuns(ranges: ReadonlyArray<readonly [number, number]>): Ranges {
  const edges = new Map<number, number>();
  for (const [from, to] of ranges) {
    edges.set(from, (edges.get(from) ?? 0) + 1);
    edges.set(to + 1, (edges.get(to + 1) ?? 0) - 1);
  }
  const open: number[] = [];
  const runs: Ranges = [];
  let depth = 0;
  for (const x of [...edges.keys()].sort((a, b) => a - b)) {
    depth += edges.get(x) ?? 0;
    while (open.length > depth) runs.push([open.pop() ?? x, x - 1]);
    while (open.length < depth) open.push(x);
  }
  return runs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** Every layer of a count array as runs: numbers counted twice come out in two runs. */
function countedRuns(counts: Uint16Array): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  const top = counts.reduce((max, count) => Math.max(max, count), 0);
  for (let layer = 1; layer <= top; layer += 1) runs.push(...runsOf(counts.length, (i) => counts[i] >= layer));
  return runs;
}

/**
 * The RAAF fold of docs/design.md §8, fed as rows arrive. Rows come ordered by pad and seq: a pad's stored balance rows
 * (the stock at the start of the events read) first, then its events; the month is [startDate, endDate)
 * in business dates. Each event changes one holder's stock, so holders fold independently. Beginning and
 * Ending are the stock before and after the month; Receipt the numbers that entered during it (a revert
 * of an earlier month's use counts, as a correction); Issued those that left (a use reverted within the
 * month counts in neither). Only one pad's rows are held at a time; `finish` answers holder key → route → cells.
 */
export class RaafFold {
  private readonly result = new Map<string, Map<number, RaafCells>>();
  private pad: RaafEvent[] = [];

  constructor(
    private readonly startDate: string,
    private readonly onEnding?: (ending: PadEnding) => void,
  ) {}

  push(rows: Iterable<RaafEvent>): void {
    for (const row of rows) {
      if (this.pad.length > 0 && this.pad[0].pad_id !== row.pad_id) this.flush();
      if (row.kind === BALANCE_KIND) this.pad.push(...balanceEvents(row));
      else this.pad.push(row);
    }
  }

  finish(): Map<string, Map<number, RaafCells>> {
    this.flush();
    for (const routes of this.result.values()) {
      for (const cells of routes.values()) {
        cells.beginning = mergeRanges(cells.beginning);
        cells.receipt = layeredRuns(cells.receipt);
        cells.issued = layeredRuns(cells.issued);
        cells.ending = mergeRanges(cells.ending);
      }
    }
    return this.result;
  }

  private flush(): void {
    const events = this.pad;
    this.pad = [];
    if (events.length === 0) return;
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (const event of events) {
      low = Math.min(low, event.from_number);
      high = Math.max(high, event.to_number);
    }
    if (high < low) return;
    foldPad(events, low, high - low + 1, this.startDate, this.result, this.onEnding);
  }
}

/** The fold over rows already in memory (tests and small reports). */
export function foldRaaf(events: RaafEvent[], startDate: string): Map<string, Map<number, RaafCells>> {
  const fold = new RaafFold(startDate);
  fold.push(events);
  return fold.finish();
}

function foldPad(
  events: RaafEvent[],
  low: number,
  length: number,
  startDate: string,
  result: Map<string, Map<number, RaafCells>>,
  onEnding?: (ending: PadEnding) => void,
) {
  const holders = new Map<string, HolderPad>();
  for (const event of events) {
    if (CUSTODY_KINDS.has(event.kind)) continue;
    const key = holderKeyOf(event.holder_user_id, event.holder_branch_id);
    let h = holders.get(key);
    if (!h) {
      h = newHolderPad(length, event.route_id);
      holders.set(key, h);
    }
    foldEvent(h, event, low, startDate);
  }
  const pad = { padId: events[0].pad_id, low, length, onEnding };
  for (const [key, h] of holders) addHolderCells(result, key, h, pad);
}

/** One event into its holder's stock of the pad; in the month also into the holder's receipt, issued and remarks. */
function foldEvent(h: HolderPad, event: RaafEvent, low: number, startDate: string) {
  const inMonth = event.business_date >= startDate;
  if (inMonth && h.begin === null) h.begin = h.stock.slice();
  const entering = ENTERING_KINDS.has(event.kind) || event.kind === BALANCE_KIND;
  const received: Array<[number, number]> = [];
  for (let n = event.from_number; n <= event.to_number; n += 1) {
    const i = n - low;
    h.stock[i] = entering ? 1 : 0;
    if (!inMonth) continue;
    if (event.kind === 'used') {
      h.usedPending[i] = 1;
    } else if (event.kind === 'used_reverted' && h.usedPending[i]) {
      h.usedPending[i] = 0;
    } else if (entering) {
      h.receipt[i] += 1;
      const last = received[received.length - 1];
      if (last && last[1] === n - 1) last[1] = n;
      else received.push([n, n]);
    } else {
      h.issued[i] += 1;
    }
  }
  if (!inMonth) return;
  // -- a kind outside BY_KIND reads undefined, which the next line skips.
  const leftAs = BY_KIND[event.kind as keyof typeof BY_KIND];
  if (leftAs) h.byKind[leftAs] = (h.byKind[leftAs] ?? 0) + event.to_number - event.from_number + 1;
  const base = {
    invoiceId: event.invoice_id,
    counterpartyUserId: event.counterparty_user_id,
    counterpartyBranchId: event.counterparty_branch_id,
    reason: event.reason,
  };
  if (
    event.kind === 'transfer_out' ||
    event.kind === 'cancelled' ||
    event.kind === 'lost' ||
    event.kind === 'voided' ||
    event.kind === 'opening'
  ) {
    h.remarks.push({ ...base, kind: event.kind, from: event.from_number, to: event.to_number });
  } else if (isUndo(event)) {
    for (const [from, to] of received)
      h.remarks.push({ ...base, kind: 'undone', from, to, eventKind: event.kind, padId: event.pad_id, seq: event.seq });
  }
}

/** One holder's fold of the pad, added to the holder's cells for the pad's route; a holder with nothing to show adds none. */
function addHolderCells(
  result: Map<string, Map<number, RaafCells>>,
  key: string,
  h: HolderPad,
  pad: { padId: number; low: number; length: number; onEnding?: (ending: PadEnding) => void },
) {
  const { low, length } = pad;
  const toNumbers = (runs: Array<[number, number]>) => runs.map(([a, b]): [number, number] => [low + a, low + b]);
  const ending = toNumbers(runsOf(length, (i) => h.stock[i] === 1));
  if (pad.onEnding && ending.length > 0) pad.onEnding({ holderKey: key, padId: pad.padId, routeId: h.routeId, ranges: ending });
  const begin = h.begin ?? h.stock;
  for (let i = 0; i < length; i += 1) {
    if (h.usedPending[i]) {
      h.issued[i] += 1;
      h.byKind.used += 1;
    }
  }
  if (!begin.some(Boolean) && !h.receipt.some(Boolean) && !h.issued.some(Boolean) && !h.stock.some(Boolean)) return;
  let routes = result.get(key);
  if (!routes) {
    routes = new Map();
    result.set(key, routes);
  }
  let cells = routes.get(h.routeId);
  if (!cells) {
    cells = {
      beginning: [],
      receipt: [],
      issued: [],
      ending: [],
      byKind: { used: 0, cancelled: 0, lost: 0, transferred: 0 },
      remarks: [],
      balanced: true,
    };
    routes.set(h.routeId, cells);
  }
  cells.beginning.push(...toNumbers(runsOf(length, (i) => begin[i] === 1)));
  cells.receipt.push(...toNumbers(countedRuns(h.receipt)));
  cells.issued.push(...toNumbers(countedRuns(h.issued)));
  cells.ending.push(...ending);
  addByKind(cells.byKind, h.byKind);
  for (let i = 0; i < length; i += 1) {
    if (begin[i] + h.receipt[i] - h.issued[i] !== h.stock[i]) cells.balanced = false;
  }
  for (const remark of h.remarks) addRemark(cells.remarks, remark);
}

/**
 * A transfer that goes on from the one before it (the next numbers, on the same invoice, to the same receiver) extends
 * that remark: an invoice of twelve contiguous pads is one line, "Transferred 1001-1600 (600) to …", as ETRACS condenses
 * contiguous pads (docs/raaf-rules.md). Cancellations, losses, voids and undos keep a line each, with their reasons.
 */
function addRemark(remarks: RaafRemark[], remark: RaafRemark): void {
  const last = remarks.at(-1);
  if (
    last?.kind === 'transfer_out' &&
    remark.kind === 'transfer_out' &&
    last.to + 1 === remark.from &&
    last.invoiceId === remark.invoiceId &&
    last.counterpartyUserId === remark.counterpartyUserId &&
    last.counterpartyBranchId === remark.counterpartyBranchId
  )
    remarks[remarks.length - 1] = { ...last, to: remark.to };
  else remarks.push(remark);
}

/** Adds one holder's issued-by-kind counts to another's; voided is kept only when non-zero. */
export function addByKind(into: ByKind, more: ByKind): void {
  into.used += more.used;
  into.cancelled += more.cancelled;
  into.lost += more.lost;
  into.transferred += more.transferred;
  if (more.voided) into.voided = (into.voided ?? 0) + more.voided;
}
