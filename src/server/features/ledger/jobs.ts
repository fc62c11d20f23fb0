import type { AppContext } from '../../context.ts';
import type { Job } from '../../db/jobs.ts';
import { closeEndedMonths, lastEndedMonth } from './month-balances.ts';

/** How often each instance looks whether a month has ended since the last close. */
export const CLOSE_MONTHS_EVERY_MS = 5 * 60_000;

/**
 * 'close-months': stores the end balances of every ended month not closed yet, once per month across instances,
 * within minutes of the month's end (and at start, catching up any missed), so no report request pays for a close.
 */
export function closeMonthsJob(ctx: AppContext): Job {
  return {
    name: 'close-months',
    description: "Stores each ended month's RAAF end balances shortly after the month ends",
    everyMs: CLOSE_MONTHS_EVERY_MS,
    leaseMs: 2 * 3_600_000,
    period: (now) => lastEndedMonth(ctx, now),
    run: async (now) => {
      const closed = await closeEndedMonths(ctx, { now });
      if (closed.length > 0) ctx.log.info({ closed }, 'months closed');
    },
  };
}
