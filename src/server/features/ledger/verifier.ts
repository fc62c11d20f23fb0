import type { Conn } from '../../db/client.ts';
import { verifyCertificates } from './certificate-check.ts';
import { checkChain, describeMismatch, holderKey, holderText, type MonthEnds, type Snapshot } from './chain-check.ts';
import { inTransitInvoicesByPad } from '../invoices/read-model.ts';
import { padViews, padViewsAfter, type PadView } from '../pads/read-model.ts';
import { monthBounds, nextMonth } from './month-balances.ts';
import * as repo from './repo.ts';

export interface LedgerProblem {
  pad_id: number;
  pad: string;
  message: string;
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

type PageReader = (
  readPads: (tx: Conn) => Promise<PadView[]>,
  readEvents: (tx: Conn, pads: PadView[]) => Promise<repo.PadEventRow[]>,
) => Promise<Page>;

/** An incremental run: the pads with events since a day before the last run started, page by page. */
async function checkChanged(conn: Conn, lastStartedAt: Date, read: PageReader, account: (page: Page) => Promise<void>) {
  const since = new Date(lastStartedAt.getTime() - RECHECK_MS).toISOString().slice(0, 10);
  const padIds = await repo.padsToVerify(conn, since);
  for (let start = 0; start < padIds.length; start += PAGE) {
    const ids = padIds.slice(start, start + PAGE);
    await account(
      await read(
        (tx) => padViews(tx, ids),
        (tx) => repo.verifierEventsOf(tx, ids),
      ),
    );
  }
}

/** A full run: every pad in id order, the next page read while the last is checked. */
async function checkEvery(read: PageReader, account: (page: Page) => Promise<void>) {
  const pageAfter = (afterId: number) =>
    read(
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
}

/** Events of pads since deleted: their chains must still hold and leave none of their numbers in stock. Answers the events read. */
async function checkDeletedPads(conn: Conn, problems: LedgerProblem[]): Promise<number> {
  let eventCount = 0;
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
  return eventCount;
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
  const read: PageReader = (readPads, readEvents) => readPage(conn, closes, sampled, readPads, readEvents);
  if (lastRun) await checkChanged(conn, lastRun.started_at, read, account);
  else {
    await checkEvery(read, account);
    eventCount += await checkDeletedPads(conn, problems);
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
