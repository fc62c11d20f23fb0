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

/** The last month that has ended (with the grace) by the ledger's clock. */
function lastEndedMonth(ctx: AppContext): string {
  const now = ctx.ledgerClock?.() ?? new Date();
  return previousMonth(monthOf(businessDate(new Date(now.getTime() - CLOSE_GRACE_MS), ctx.config.timeZone)));
}

/**
 * Stores the end balances of one ended month (docs/design.md §8: a month once ended never changes): the previous
 * month's balances plus the month's events, folded as they stream in. One writer per month across every
 * instance (an advisory lock, then a look whether another got there first); all of it in one transaction.
 */
async function closeMonth(ctx: AppContext, month: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await repo.lockMonthClose(tx, month);
    if (await repo.isClosed(tx, month)) return;
    const base = await repo.latestCloseBefore(tx, month);
    const { start, end } = monthBounds(month);
    let pending: repo.MonthBalanceRow[] = [];
    let written = 0;
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
    const flush = async () => {
      await repo.insertBalances(tx, pending);
      written += pending.length;
      pending = [];
    };
    await repo.streamRaafRows(
      tx,
      { base, fromDate: base === null ? null : monthBounds(nextMonth(base)).start, endDate: end, holder: null },
      async (rows) => {
        fold.push(rows);
        if (pending.length >= BALANCE_BATCH) await flush();
      },
    );
    fold.finish();
    await flush();
    await repo.insertClose(tx, month, written);
  });
}

/**
 * Closes every ended month before `before` that has no stored balances yet, oldest first; the job and the
 * first report after a month's end both call it, and it is idempotent.
 */
export async function closeEndedMonths(ctx: AppContext, before?: string): Promise<string[]> {
  const first = await repo.firstEventDate(ctx.db);
  if (first === null) return [];
  const lastEnded = lastEndedMonth(ctx);
  const limit = before !== undefined && previousMonth(before) < lastEnded ? previousMonth(before) : lastEnded;
  const closed = new Set(await repo.closedMonths(ctx.db));
  const written: string[] = [];
  for (let month = monthOf(first); month <= limit; month = nextMonth(month)) {
    if (closed.has(month)) continue;
    await closeMonth(ctx, month);
    written.push(month);
  }
  return written;
}

/**
 * A month's RAAF cells for one holder or everyone: the latest stored balances before the month plus the
 * events after them, streamed; with `events` the whole ledger before the month's end (the proof that the
 * balances change no answer).
 */
export async function foldMonth(
  ctx: AppContext,
  month: string,
  holder: repo.RaafHolderFilter,
  source: RaafSource = 'balances',
): Promise<Map<string, Map<number, RaafCells>>> {
  const { start, end } = monthBounds(month);
  let base: string | null = null;
  if (source === 'balances') {
    await closeEndedMonths(ctx, month);
    base = await repo.latestCloseBefore(ctx.db, month);
  }
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
 * RAAF's Ending uses, stopped after that day: the stored balances of the last closed month before it, then the events.
 */
export async function endingsAt(ctx: AppContext, date: string): Promise<PadEnding[]> {
  const month = monthOf(date);
  await closeEndedMonths(ctx, month);
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
