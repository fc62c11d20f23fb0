import type { AppContext } from '../../context.ts';
import { RaafFold, holderOfKey, rangesText, type PadEnding, type RaafCells } from './raaf-fold.ts';
import * as repo from './repo.ts';
import { businessDate } from './lifecycle.ts';

/** A month is closed this long after its end, so a transaction still writing at midnight has committed. */
const CLOSE_GRACE_MS = 10 * 60 * 1000;
const BALANCE_BATCH = 5000;

export const monthOf = (date: string) => date.slice(0, 7);

export function nextMonth(month: string): string {
  const [year, monthNo] = month.split('-').map(Number);
  return monthNo === 12 ? `${year + 1}-01` : `${year}-${String(monthNo + 1).padStart(2, '0')}`;
}

export function previousMonth(month: string): string {
  const [year, monthNo] = month.split('-').map(Number);
  return monthNo === 1 ? `${year - 1}-12` : `${year}-${String(monthNo - 1).padStart(2, '0')}`;
}

/** The month [S, E) as business dates in APP_TIMEZONE. */
export function monthBounds(month: string): { start: string; end: string } {
  return { start: `${month}-01`, end: `${nextMonth(month)}-01` };
}

/** Where a RAAF starts from: the stored month-end balances (written as needed), or the events alone. */
export type RaafSource = 'balances' | 'events';

/** The last month that has ended (with the grace) at `now`, by default the ledger's clock. */
export function lastEndedMonth(ctx: AppContext, now: Date = ctx.ledgerClock?.() ?? new Date()): string {
  return previousMonth(monthOf(businessDate(new Date(now.getTime() - CLOSE_GRACE_MS), ctx.config.timeZone)));
}

/** Pads per slice of a close: each slice is its own short transaction, so a close never holds a snapshot for long. */
const CLOSE_SLICE_PADS = 20_000;

/**
 * Stores the end balances of one ended month (docs/design.md §8: a month once ended never changes): the previous
 * month's balances plus the month's events, folded as they stream in, a slice of pads per transaction. The month
 * counts as closed only once its close row is written after the last slice, so a reader never sees part of it. Two
 * closers at once (a lease taken over) write the same rows: each slice skips rows already there, the close row too.
 */
async function closeMonth(ctx: AppContext, month: string, slicePads: number): Promise<void> {
  if (await repo.isClosed(ctx.db, month)) return;
  const base = await repo.latestCloseBefore(ctx.db, month);
  const fromDate = base === null ? null : monthBounds(nextMonth(base)).start;
  const { start, end } = monthBounds(month);
  const lastPad = await repo.lastEventPadId(ctx.db);
  for (let after = 0; after < lastPad; after += slicePads) {
    const pads = { after, last: Math.min(lastPad, after + slicePads) };
    await ctx.db.transaction(async (tx) => {
      let pending: repo.MonthBalanceRow[] = [];
      const flush = async () => {
        await repo.insertBalances(tx, pending);
        pending = [];
      };
      const fold = new RaafFold(start, (ending: PadEnding) => {
        const holder = holderOfKey(ending.holderKey);
        pending.push({
          month,
          holder_type: holder.type,
          holder_id: holder.id,
          pad_id: ending.padId,
          route_id: ending.routeId,
          ranges: rangesText(ending.ranges),
        });
      });
      await repo.streamRaafRows(tx, { base, fromDate, endDate: end, holder: null, pads }, async (rows) => {
        fold.push(rows);
        if (pending.length >= BALANCE_BATCH) await flush();
      });
      fold.finish();
      await flush();
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
  await ctx.db.transaction(async (tx) => {
    await repo.lockMonthClose(tx, month);
    if (!(await repo.isClosed(tx, month))) await repo.insertClose(tx, month, await repo.balanceCount(tx, month));
  });
}

/**
 * Closes every ended month (at `now`) that has no stored balances yet, oldest first: the close-months job's work
 * (ledger/jobs.ts), never a report's. Idempotent, and safe to run twice at once.
 */
export async function closeEndedMonths(ctx: AppContext, options: { now?: Date; slicePads?: number } = {}): Promise<string[]> {
  const first = await repo.firstEventDate(ctx.db);
  if (first === null) return [];
  const limit = lastEndedMonth(ctx, options.now);
  const closed = new Set(await repo.closedMonths(ctx.db));
  const written: string[] = [];
  for (let month = monthOf(first); month <= limit; month = nextMonth(month)) {
    if (closed.has(month)) continue;
    await closeMonth(ctx, month, options.slicePads ?? CLOSE_SLICE_PADS);
    written.push(month);
  }
  return written;
}

/**
 * A month's RAAF cells for one holder or everyone: the latest stored balances before the month plus the
 * events after them, streamed; with `events` the whole ledger before the month's end (the proof that the
 * balances change no answer). A report never closes a month: before the job has closed the month before, it folds
 * from the latest close there is (or from the first event), reading more events for the same answer.
 */
export async function foldMonth(
  ctx: AppContext,
  month: string,
  holder: repo.RaafHolderFilter,
  source: RaafSource = 'balances',
): Promise<Map<string, Map<number, RaafCells>>> {
  const { start, end } = monthBounds(month);
  let base: string | null = null;
  if (source === 'balances') base = await repo.latestCloseBefore(ctx.db, month);
  const fold = new RaafFold(start);
  await repo.streamRaafRows(
    ctx.db,
    { base, fromDate: base === null ? null : monthBounds(nextMonth(base)).start, endDate: end, holder },
    (rows) => fold.push(rows),
  );
  return fold.finish();
}

/** The day after a business date (YYYY-MM-DD). */
export function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * docs/design.md §10: every holder's unused numbers of every pad at the end of business date `date` — the fold the
 * RAAF's Ending uses, stopped after that day: the stored balances of the last closed month before it, then the events
 * (closing nothing itself, as foldMonth).
 */
export async function endingsAt(ctx: AppContext, date: string): Promise<PadEnding[]> {
  const month = monthOf(date);
  const base = await repo.latestCloseBefore(ctx.db, month);
  const endings: PadEnding[] = [];
  const fold = new RaafFold(monthBounds(month).start, (ending) => endings.push(ending));
  await repo.streamRaafRows(
    ctx.db,
    { base, fromDate: base === null ? null : monthBounds(nextMonth(base)).start, endDate: nextDay(date), holder: null },
    (rows) => fold.push(rows),
  );
  fold.finish();
  return endings;
}
