import { defaultAlertThresholds, type AlertThresholds } from '../../../shared/schemas/notifications.ts';
import type { AppContext } from '../../context.ts';
import type { ReorderPointSetting } from './alert-item.ts';
import { listReorderPoints, storedThresholds } from './repo.ts';

/** The defaults of issue 37, with this server's COUNT_EVERY_DAYS. */
export const defaultThresholds = (ctx: AppContext): AlertThresholds => defaultAlertThresholds(ctx.config.countEveryDays);

/** The thresholds in force: what Admin or Accounting saved over the defaults (a threshold added later keeps its default). */
export async function currentThresholds(ctx: AppContext): Promise<AlertThresholds> {
  const stored = await storedThresholds(ctx.db);
  const defaults = defaultThresholds(ctx);
  const merged = { ...defaults };
  for (const key of Object.keys(defaults) as Array<keyof AlertThresholds>) {
    const value = stored[key];
    if (typeof value === 'number' && Number.isInteger(value)) merged[key] = value;
  }
  return merged;
}

/** The reorder points as the low-stock evaluator reads them, snooze dates included. */
export async function currentReorderPoints(ctx: AppContext): Promise<ReorderPointSetting[]> {
  const rows = await listReorderPoints(ctx.db);
  return rows.map((row) => ({
    branchId: row.branch_id,
    routeId: row.route_id,
    minimum: row.minimum,
    leadDays: row.lead_days,
    snoozedUntil: row.snoozed_until,
  }));
}
