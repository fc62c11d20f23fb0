import type { Conn } from '../../db/client.ts';
import { verifyCertificates } from './certificate-check.ts';
import { CUSTODY_KINDS, ENTERING_KINDS, GENESIS_HASH, eventHash, numberStates } from './fold.ts';
import { inTransitInvoicesByPad } from '../invoices/read-model.ts';
import { padViews, padViewsAfter, type PadView } from '../pads/repo.ts';
import { monthBounds, nextMonth } from './month-balances.ts';
import { rangesText } from './raaf-fold.ts';
import * as repo from './repo.ts';

export interface LedgerProblem {
  pad_id: number;
  pad: string;
  message: string;
}

type Folded = 'none' | 'stock' | 'used' | 'cancelled' | 'lost' | 'out';

const holderKey = (user: number | null, branch: number | null) => `${user ?? '-'}/${branch ?? '-'}`;
const holderText = (key: string) => {
  const [user, branch] = key.split('/');
  return user === '-' ? `branch ${branch}` : `user ${user} (branch ${branch})`;
};

const LEAVES: Record<string, Folded> = { used: 'used', cancelled: 'cancelled', lost: 'lost', transfer_out: 'out', voided: 'out' };

/** docs/design.md §9: an undo brings back only what it undoes: a cancellation, a loss. */
const UNDOES: Record<string, Folded> = { cancel_reverted: 'cancelled', found: 'lost' };

/** Kinds that say who holds the booklet itself after them (docs/design.md §9: the verifier folds custody too). */
const BOOKLET_HOLDER_KINDS: ReadonlySet<string> = new Set(['received', 'opening', 'transfer_in', 'custody_in']);

/** A holder's stock of one pad as the balances store it: "u12" or "b3" → "from-to,from-to". */
type Snapshot = Map<string, string>;

function snapshotOf(state: Folded[], holder: string[], from: number): Snapshot {
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
interface MonthEnds {
  months: string[];
  ends: string[];
  onSnapshot: (month: string, snapshot: Snapshot) => void;
}

/** Replays one pad's chain: order and hashes first, then the fold of its numbers (and its stock at each month end asked for). */
function checkChain(events: repo.PadEventRow[], from: number, to: number, say: (message: string) => void, monthEnds?: MonthEnds) {
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
  passMonthEnds(null);
  return { state, holder, booklet };
}

function describeMismatch(pad: PadView, state: Folded[], holder: string[]): string[] {
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

const PAGE = 2000;
/** One pad in this many has its stored month-end balances recomputed on a run without `balances: 'all'`. */
const BALANCE_SAMPLE = 50;
/** An incremental run looks again at pads with events from a day before the last run started. */
const RECHECK_MS = 86_400_000;

export interface VerifyOptions {
  /** `full`: every pad and every event; `incremental`: pads whose chain grew since their verified head, and pads never verified. */
  mode: 'full' | 'incremental';
  /** Which pads' stored month-end balances are recomputed from their events: a sample, or all. */
  balances?: 'sample' | 'all';
}

/** A page of pads with everything the check compares them with, read as of one instant. */
interface Page {
  pads: PadView[];
  events: repo.PadEventRow[];
  transit: Map<number, number[]>;
  balances: Awaited<ReturnType<typeof repo.balancesOfPads>>;
}

/** A page is read in one short read-only snapshot, so a check running beside live requests never sees a pad and its events at different moments. */
const SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/** How many pads are checked between two looks at the event loop, so requests served beside a check wait milliseconds, not a page. */
const YIELD_EVERY = 100;

async function readPage(
  conn: Conn,
  closes: string[],
  sampled: (padId: number) => boolean,
  readPads: (tx: Conn) => Promise<PadView[]>,
  readEvents: (tx: Conn, pads: PadView[]) => Promise<repo.PadEventRow[]>,
): Promise<Page> {
  return conn.transaction(async (tx) => {
    const pads = await readPads(tx);
    if (pads.length === 0) return { pads, events: [], transit: new Map(), balances: [] };
    const wanted = pads.filter((pad) => sampled(pad.id));
    return {
      pads,
      events: await readEvents(tx, pads),
      transit: await inTransitInvoicesByPad(
        tx,
        pads.map((pad) => pad.id),
      ),
      balances: wanted.length > 0 && closes.length > 0 ? await repo.balancesOfPads(tx, wanted[0].id, wanted[wanted.length - 1].id) : [],
    };
  }, SNAPSHOT);
}

/** The stored balances of a page's pads, checked against each pad's own fold at every closed month's end. */
function balanceChecker(page: Page, closes: string[], sampled: (padId: number) => boolean) {
  const stored = new Map<number, Map<string, Snapshot>>();
  for (const row of page.balances) {
    if (!sampled(row.pad_id)) continue;
    const months = stored.get(row.pad_id) ?? new Map<string, Snapshot>();
    const snapshot = months.get(row.month) ?? new Map<string, string>();
    snapshot.set(`${row.holder_type === 'user' ? 'u' : 'b'}${row.holder_id}`, row.ranges);
    months.set(row.month, snapshot);
    stored.set(row.pad_id, months);
  }
  const ends = closes.map((month) => monthBounds(nextMonth(month)).start);
  return (pad: PadView, say: (message: string) => void): MonthEnds | undefined => {
    if (!sampled(pad.id) || closes.length === 0) return undefined;
    const months = stored.get(pad.id) ?? new Map<string, Snapshot>();
    const wrong: string[] = [];
    return {
      months: closes,
      ends,
      onSnapshot: (month, expected) => {
        const got = months.get(month) ?? new Map<string, string>();
        const same = got.size === expected.size && [...expected].every(([key, ranges]) => got.get(key) === ranges);
        if (!same && wrong.push(month) === 1)
          say(`stored balances at the end of ${month} differ from its events (stored ${describe(got)}, events ${describe(expected)})`);
      },
    };
  };
}

const describe = (snapshot: Snapshot) =>
  snapshot.size === 0 ? 'none' : [...snapshot].map(([key, ranges]) => `${key}: ${ranges}`).join('; ');

/** Checks one page of pads: the heads of the pads found sound, and the pads with problems (checked again on every run). */
async function checkPage(page: Page, closes: string[], sampled: (padId: number) => boolean, problems: LedgerProblem[]) {
  const byPad = new Map<number, repo.PadEventRow[]>();
  for (const event of page.events) {
    const list = byPad.get(event.pad_id) ?? [];
    list.push(event);
    byPad.set(event.pad_id, list);
  }
  const transit = page.transit;
  const balancesOf = balanceChecker(page, closes, sampled);
  const heads: Array<{ pad_id: number; seq: number; hash: string }> = [];
  const unsound: number[] = [];
  for (const [index, pad] of page.pads.entries()) {
    if (index > 0 && index % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    const name = `pad ${pad.id} (route ${pad.route_id}, pad no. ${pad.number}, ${pad.series_from}-${pad.series_to})`;
    const before = problems.length;
    const say = (message: string) => problems.push({ pad_id: pad.id, pad: name, message });
    const events = byPad.get(pad.id) ?? [];
    if (events.length === 0) say('has no events');
    const { state, holder, booklet } = checkChain(events, pad.series_from, pad.series_to, say, balancesOf(pad, say));
    for (const message of describeMismatch(pad, state, holder)) say(message);
    const padHolder = holderKey(pad.holder_user_id, pad.holder_branch_id);
    if (booklet !== null && booklet !== padHolder)
      say(`the booklet is held by ${holderText(padHolder)} on the pad but by ${holderText(booklet)} in the ledger`);
    const carriers = transit.get(pad.id) ?? [];
    if (pad.locked_by_invoice_id !== null && (carriers.length !== 1 || carriers[0] !== pad.locked_by_invoice_id)) {
      say(
        `is locked by invoice ${pad.locked_by_invoice_id} but is on ${carriers.length} in-transit invoice(s)${carriers.length ? ` (${carriers.join(', ')})` : ''}`,
      );
    }
    if (pad.locked_by_invoice_id === null && carriers.length > 0) say(`is unlocked but on in-transit invoice(s) ${carriers.join(', ')}`);
    const head = events[events.length - 1];
    if (problems.length === before && head) heads.push({ pad_id: pad.id, seq: head.seq, hash: head.hash });
    else unsound.push(pad.id);
  }
  return { heads, unsound };
}

/**
 * The verifier of docs/design.md §8: every chain intact, every pad's fast view equal to the fold of its events, no number
 * in two stocks, every locked pad on exactly one in-transit invoice, and the stored month-end balances of a
 * sample of pads (or all) equal to their events. A full run reads every pad in pages, the next page read
 * while the last is checked, so memory stays flat; an incremental run reads only the pads whose chain has
 * grown past its verified head (or that were never verified). Sound pads' heads are recorded for the next run.
 */
export async function verifyLedger(
  conn: Conn,
  options: VerifyOptions = { mode: 'full' },
): Promise<{ pads: number; events: number; problems: LedgerProblem[] }> {
  const startedAt = new Date();
  const problems: LedgerProblem[] = [];
  const closes = await repo.closedMonths(conn);
  const salt = Math.floor(Math.random() * BALANCE_SAMPLE);
  const sampled = options.balances === 'all' ? () => true : (padId: number) => padId % BALANCE_SAMPLE === salt;
  let padCount = 0;
  let eventCount = 0;
  const lastRun = options.mode === 'incremental' ? await repo.lastVerifyRun(conn) : undefined;
  const account = async (page: Page) => {
    const { heads, unsound } = await checkPage(page, closes, sampled, problems);
    await repo.saveVerifiedHeads(conn, heads);
    await repo.forgetVerifiedHeads(conn, unsound);
    padCount += page.pads.length;
    eventCount += page.events.length;
  };
  if (lastRun) {
    const since = new Date(lastRun.started_at.getTime() - RECHECK_MS).toISOString().slice(0, 10);
    const padIds = await repo.padsToVerify(conn, since);
    for (let start = 0; start < padIds.length; start += PAGE) {
      const ids = padIds.slice(start, start + PAGE);
      await account(
        await readPage(
          conn,
          closes,
          sampled,
          (tx) => padViews(tx, ids),
          (tx) => repo.verifierEventsOf(tx, ids),
        ),
      );
    }
  } else {
    const pageAfter = (afterId: number) =>
      readPage(
        conn,
        closes,
        sampled,
        (tx) => padViewsAfter(tx, afterId, PAGE),
        (tx, pads) => repo.verifierEventsInRange(tx, afterId, pads[pads.length - 1].id),
      );
    let next = pageAfter(0);
    for (;;) {
      const page = await next;
      if (page.pads.length === 0) break;
      next = pageAfter(page.pads[page.pads.length - 1].id);
      await account(page);
    }
    for (const padId of await repo.orphanEventPadIds(conn)) {
      const events = await repo.eventsOfPads(conn, [padId]);
      eventCount += events.length;
      const from = Math.min(...events.map((event) => event.from_number));
      const to = Math.max(...events.map((event) => event.to_number));
      const name = `deleted pad ${padId} (route ${events[0].route_id}, ${from}-${to})`;
      const say = (message: string) => problems.push({ pad_id: padId, pad: name, message });
      const { state } = checkChain(events, from, to, say);
      const left = state.filter((value) => value === 'stock').length;
      if (left > 0) say(`is gone but ${left} of its number(s) are still in stock in the ledger`);
    }
  }
  await repo.insertVerifyRun(conn, {
    mode: lastRun ? 'incremental' : 'full',
    started_at: startedAt,
    finished_at: new Date(),
    pads: padCount,
    events: eventCount,
    problems: problems.length,
  });
  return { pads: padCount, events: eventCount, problems };
}

export interface LedgerCheckResult {
  ok: boolean;
  pads: number;
  events: number;
  certificates: number;
  /** Problems found, on pads and on certificates. */
  problems: number;
  /** The problems as printed: pad by pad, then certificate by certificate. */
  lines: string[];
  /** What was checked and whether it passed, one line for the ledger and one for the certificates (when there are any). */
  summary: string[];
}

/** The ledger and the certificates that froze it, checked together: what `npm run ledger:verify` prints and the scheduled check stores. */
export async function checkLedger(conn: Conn, options: VerifyOptions = { mode: 'full' }): Promise<LedgerCheckResult> {
  const result = await verifyLedger(conn, options);
  const anchors = await verifyCertificates(conn);
  const lines: string[] = [];
  let lastPad = -1;
  for (const problem of result.problems) {
    if (problem.pad_id !== lastPad) lines.push(`${problem.pad}:`);
    lastPad = problem.pad_id;
    lines.push(`  - ${problem.message}`);
  }
  let lastCertificate = -1;
  for (const problem of anchors.problems) {
    if (problem.certificate_id !== lastCertificate) lines.push(`${problem.certificate}:`);
    lastCertificate = problem.certificate_id;
    lines.push(`  - ${problem.message}`);
  }
  const padsWithProblems = new Set(result.problems.map((problem) => problem.pad_id)).size;
  const summary = [
    result.problems.length === 0
      ? `Ledger verified: ${result.pads} pads, ${result.events} events, no problems.`
      : `Ledger verification FAILED: ${result.problems.length} problem(s) on ${padsWithProblems} pad(s) (${result.pads} pads, ${result.events} events checked).`,
  ];
  const certificatesWithProblems = new Set(anchors.problems.map((problem) => problem.certificate_id)).size;
  if (anchors.certificates > 0) {
    summary.push(
      anchors.problems.length === 0
        ? `Certificates verified: ${anchors.certificates} certificate(s), each intact and every event it froze still in the ledger.`
        : `Ledger verification FAILED: ${anchors.problems.length} problem(s) on ${certificatesWithProblems} certificate(s) (${anchors.certificates} certificates checked).`,
    );
  }
  const problems = result.problems.length + anchors.problems.length;
  return { ok: problems === 0, pads: result.pads, events: result.events, certificates: anchors.certificates, problems, lines, summary };
}

/** Prints a check's problems and summary and answers the exit code (0 clean, 1 problems): `npm run ledger:verify` and `npm run restore`. */
export async function runLedgerVerify(
  conn: Conn,
  print: (line: string) => void,
  options: VerifyOptions = { mode: 'full' },
): Promise<number> {
  const result = await checkLedger(conn, options);
  for (const line of [...result.lines, ...result.summary]) print(line);
  return result.ok ? 0 : 1;
}
