import type { LedgerCheckProgress } from '../../../shared/schemas/ledger.ts';
import type { Db } from '../../db/client.ts';
import { inReadSnapshot, type ReadSnapshot } from '../../db/copy.ts';
import { verifyCertificates } from './certificate-check.ts';
import { lastRowKey, rowCount } from './event-text.ts';
import { inTransitInvoicesByPad } from '../invoices/read-model.ts';
import { padCheckViewsBetween, type PadCheckView } from '../pads/check-read-model.ts';
import { padCount, padViews } from '../pads/read-model.ts';
import * as repo from './repo.ts';
import { Run, type LedgerProblem, type Slice } from './slice-check.ts';

/** One pad in this many has its stored month-end balances recomputed on a run without `balances: 'all'`. */
const BALANCE_SAMPLE = 50;
/** An incremental run looks again at pads with events from a day before the last run started. */
const RECHECK_MS = 86_400_000;

/**
 * How long one slice may hold its snapshot (and its connection): the next slice's size is set from the last one's pace so
 * that it takes about this long, far under the second a slice may take at most.
 */
const SLICE_MS = 250;
/** Events in the first slice, and the fewest and most in any (a slice of pads: pads instead, at most PADS_PER_SLICE). */
const FIRST_SLICE = 5_000;
const MIN_SLICE = 2_000;
const MAX_SLICE = 20_000;
const PADS_PER_SLICE = 2_000;

/** How far a run has got: pads and events checked, of how many pads. */
export type VerifyProgress = LedgerCheckProgress;

/** One slice as it was read: its events, its pads, and how long its snapshot lasted. */
export interface VerifySlice {
  events: number;
  pads: number;
  ms: number;
}

export interface VerifyOptions {
  /** `full`: every pad and every event; `incremental`: pads whose chain grew since their verified head, and pads never verified. */
  mode: 'full' | 'incremental';
  /** Which pads' stored month-end balances are recomputed from their events: a sample, or all. */
  balances?: 'sample' | 'all';
  /** Told after every slice how far the run has got. */
  onProgress?: (progress: VerifyProgress) => void;
  /** The most events a slice of a full run reads (by default sized by time, at most MAX_SLICE). */
  sliceEvents?: number;
  /** Told of every slice as it is read. */
  onSlice?: (slice: VerifySlice) => void;
}

/** Reads one slice in its own short snapshot: the events from `events`, and the pads with ids in (afterPad, lastPad]. */
async function readSlice(
  db: Db,
  run: Run,
  events: (copy: ReadSnapshot['copy']) => Promise<Buffer>,
  pads: (snapshot: ReadSnapshot, lastPad: number | null) => Promise<PadCheckView[]>,
  bounds: (events: Buffer) => { afterPad: number; lastPad: number | null },
): Promise<Slice & { ms: number }> {
  const started = performance.now();
  const slice = await inReadSnapshot(db, async (snapshot) => {
    const { tx, copy } = snapshot;
    const text = await events(copy);
    const { afterPad, lastPad } = bounds(text);
    const padRows = await pads(snapshot, lastPad);
    return {
      events: text,
      pads: padRows,
      transit: await inTransitInvoicesByPad(
        tx,
        padRows.map((pad) => pad.id),
      ),
      balances: run.wantsBalances ? await repo.balancesOfPads(tx, afterPad, lastPad, run.sample) : [],
    };
  });
  return { ...slice, ms: performance.now() - started };
}

/** The next slice's size: as many as the last slice's pace fits in SLICE_MS, within [least, most]. */
const nextSize = (size: number, ms: number, least: number, most: number) =>
  Math.max(least, Math.min(most, Math.round((size * SLICE_MS) / Math.max(ms, 1))));

/**
 * A full run: every event in pad and seq order, a slice at a time, each slice its own short snapshot of at most `size`
 * events and the pads they belong to; the next slice is read while the last is checked. Pads between the last complete
 * pad and the last event's pad are read with the slice; the pad the slice stops in is read again with the next.
 */
async function checkEvery(db: Db, run: Run, options: VerifyOptions, account: (slice: Slice, complete: boolean) => Promise<void>) {
  const most = options.sliceEvents ?? MAX_SLICE;
  let size = Math.min(FIRST_SLICE, most);
  const read = (after: { padId: number; seq: number }, afterPad: number, limit: number) =>
    readSlice(
      db,
      run,
      (copy) => repo.verifierEventsAfter(copy, after, limit),
      ({ copy }, lastPad) => padCheckViewsBetween(copy, afterPad, lastPad),
      (text) => {
        const last = rowCount(text) === limit ? lastRowKey(text) : null;
        return { afterPad, lastPad: last ? last.padId : null };
      },
    );
  let next = read({ padId: 0, seq: 0 }, 0, size);
  for (;;) {
    const slice = await next;
    const rows = rowCount(slice.events);
    options.onSlice?.({ events: rows, pads: slice.pads.length, ms: slice.ms });
    const last = rows === size ? lastRowKey(slice.events) : null;
    if (last) {
      const limit = nextSize(rows, slice.ms, Math.min(MIN_SLICE, most), most);
      next = read(last, last.padId - 1, limit);
      size = limit;
    }
    await account(slice, last === null);
    if (!last) break;
  }
}

/** An incremental run: the pads with events since a day before the last run started, a slice of pads at a time. */
async function checkChanged(
  db: Db,
  run: Run,
  padIds: number[],
  options: VerifyOptions,
  account: (slice: Slice, complete: boolean) => Promise<void>,
) {
  let size = Math.min(PADS_PER_SLICE, FIRST_SLICE / 10);
  for (let start = 0; start < padIds.length; start += size) {
    const ids = padIds.slice(start, start + size);
    const slice = await readSlice(
      db,
      run,
      (copy) => repo.verifierEventsOf(copy, ids),
      ({ tx }) => padViews(tx, ids),
      () => ({ afterPad: ids[0] - 1, lastPad: ids[ids.length - 1] }),
    );
    options.onSlice?.({ events: rowCount(slice.events), pads: slice.pads.length, ms: slice.ms });
    await account(slice, true);
    size = nextSize(ids.length, slice.ms, 10, PADS_PER_SLICE);
  }
}

/**
 * The verifier of docs/design.md §8: every chain intact, every pad's fast view equal to the fold of its events, no number
 * in two stocks, every locked pad on exactly one in-transit invoice, and the stored month-end balances of a sample of
 * pads (or all) equal to their events. It reads in slices, each its own short read-only snapshot sized to take a
 * fraction of a second, the events as raw COPY text (event-text.ts hashes their bytes), and keeps between slices only
 * the pad whose events go on; so memory stays flat and no connection is held for long. An incremental run reads only
 * the pads whose chain has grown past its verified head (or that were never verified). Sound pads' heads are recorded
 * for the next run.
 */
export async function verifyLedger(
  db: Db,
  options: VerifyOptions = { mode: 'full' },
): Promise<{ pads: number; events: number; problems: LedgerProblem[] }> {
  const startedAt = new Date();
  const closes = await repo.closedMonths(db);
  const sample = options.balances === 'all' ? null : { every: BALANCE_SAMPLE, salt: Math.floor(Math.random() * BALANCE_SAMPLE) };
  const lastRun = options.mode === 'incremental' ? await repo.lastVerifyRun(db) : undefined;
  const run = new Run(closes, sample, !lastRun);
  const changed = lastRun
    ? await repo.padsToVerify(db, new Date(lastRun.started_at.getTime() - RECHECK_MS).toISOString().slice(0, 10))
    : [];
  const progress: VerifyProgress = {
    mode: lastRun ? 'incremental' : 'full',
    started_at: startedAt.toISOString(),
    pads: 0,
    pads_total: lastRun ? changed.length : await padCount(db),
    events: 0,
  };
  const account = async (slice: Slice, complete: boolean) => {
    const { heads, unsound } = await run.check(slice, complete);
    await repo.saveVerifiedHeads(db, heads);
    await repo.forgetVerifiedHeads(db, unsound);
    options.onProgress?.({ ...progress, pads: run.pads, events: run.events });
  };
  if (lastRun) await checkChanged(db, run, changed, options, account);
  else await checkEvery(db, run, options, account);
  const problems = [...run.problems, ...run.deletedProblems];
  await repo.insertVerifyRun(db, {
    mode: lastRun ? 'incremental' : 'full',
    started_at: startedAt,
    finished_at: new Date(),
    pads: run.pads,
    events: run.events,
    problems: problems.length,
  });
  return { pads: run.pads, events: run.events, problems };
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
export async function checkLedger(db: Db, options: VerifyOptions = { mode: 'full' }): Promise<LedgerCheckResult> {
  const result = await verifyLedger(db, options);
  const anchors = await verifyCertificates(db);
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
export async function runLedgerVerify(db: Db, print: (line: string) => void, options: VerifyOptions = { mode: 'full' }): Promise<number> {
  const result = await checkLedger(db, options);
  for (const line of [...result.lines, ...result.summary]) print(line);
  return result.ok ? 0 : 1;
}
