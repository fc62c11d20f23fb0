import { LEDGER_MSG, monthOutsideLedger } from '../../../shared/schemas/ledger.ts';
import type { AppContext } from '../../context.ts';
import { invalid } from '../../lib/errors.ts';
import * as repo from './repo.ts';
import { businessDate } from './lifecycle.ts';

/**
 * The months a RAAF can exist for (docs/design.md §8): from the month of the first ledger event, or of the
 * installation when that is earlier, to the current month in APP_TIMEZONE. Months compare as text, safely,
 * because the schema admits only four-digit years.
 */
export async function ledgerMonths(ctx: AppContext): Promise<{ first: string; current: string }> {
  const current = businessDate(new Date(), ctx.config.timeZone).slice(0, 7);
  const { first_event: firstEvent, installed } = await repo.ledgerBeginnings(ctx.db, ctx.config.timeZone);
  const starts = [firstEvent, installed, `${current}-01`].filter((day): day is string => day !== null).map((day) => day.slice(0, 7));
  return { first: starts.sort()[0], current };
}

/** Refuses (422 on `month`) a month outside the ledger's months. */
export async function assertLedgerMonth(ctx: AppContext, month: string): Promise<void> {
  const { first, current } = await ledgerMonths(ctx);
  if (month < first || month > current) throw invalid('month', monthOutsideLedger(first, current));
}

/** Refuses (422 on `month`) a month that has not ended or lies before the ledger's first month: only those can be certified. */
export async function assertCertifiableMonth(ctx: AppContext, month: string): Promise<void> {
  const { first, current } = await ledgerMonths(ctx);
  if (month >= current) throw invalid('month', LEDGER_MSG.monthNotEnded);
  if (month < first) throw invalid('month', monthOutsideLedger(first, current));
}
