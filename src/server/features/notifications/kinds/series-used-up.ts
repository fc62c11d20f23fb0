import { countText } from '../../../../shared/format.ts';
import { ROLE } from '../../../../shared/lookups.ts';
import * as ledger from '../../ledger/read-model.ts';
import { numbersInSeries } from '../../pads/read-model.ts';
import { seriesInUse, type SeriesInUse } from '../../registered-series/read-model.ts';
import type { AppContext } from '../../../context.ts';
import type { AlertItem, Evaluator } from '../alert-item.ts';
import { addDays, dayOf, daysBetween } from './kind-days.ts';
import { firstToldAt } from './kinds-repo.ts';
import { USE_WINDOW_DAYS } from './low-stock.ts';

/** Admin hears of a series running out this many days after Accounting first did, if no new series came meanwhile. */
export const SERIES_ADMIN_AFTER_DAYS = 7;

export interface SeriesCoverLevel {
  branchId: number;
  branchName: string;
  routeId: number;
  routeName: string;
  atpNumbers: string[];
  /** Unused numbers of generated pads plus the numbers not generated yet, over every series of the establishment and route. */
  remaining: number;
  dailyUse: number;
  coverDays: number;
}

/**
 * Issue 37 registered series, per establishment and route (all their series but retired ones together, so registering
 * a new series adds its numbers): the numbers left are the unused numbers of the pads generated in them plus the numbers
 * not generated yet; their use is what the ledger records inside them over USE_WINDOW_DAYS. Answers those whose
 * numbers cover fewer than `coverDays` days of that use.
 */
export async function seriesCovers(ctx: AppContext, today: string, coverDays: number): Promise<SeriesCoverLevel[]> {
  const series = await seriesInUse(ctx.db);
  if (series.length === 0) return [];
  const generated = await numbersInSeries(
    ctx.db,
    series.map((s) => s.id),
  );
  const used = await ledger.usedInRanges(
    ctx.db,
    series.map((s) => ({ key: s.id, routeId: s.route_id, from: s.series_from, to: s.series_to })),
    addDays(today, 1 - USE_WINDOW_DAYS),
    today,
  );
  const groups = new Map<string, SeriesInUse[]>();
  for (const s of series) groups.set(`${s.branch_id}:${s.route_id}`, [...(groups.get(`${s.branch_id}:${s.route_id}`) ?? []), s]);
  const levels: SeriesCoverLevel[] = [];
  for (const group of groups.values()) {
    let remaining = 0;
    let usedNumbers = 0;
    for (const s of group) {
      const pads = generated.get(s.id) ?? { generated: 0, unused: 0 };
      remaining += s.series_to - s.series_from + 1 - pads.generated + pads.unused;
      usedNumbers += used.get(s.id) ?? 0;
    }
    const dailyUse = usedNumbers / USE_WINDOW_DAYS;
    if (dailyUse <= 0) continue;
    const cover = remaining / dailyUse;
    if (cover >= coverDays) continue;
    const [first] = group;
    levels.push({
      branchId: first.branch_id,
      branchName: first.branch_name,
      routeId: first.route_id,
      routeName: first.route_name,
      atpNumbers: group.map((s) => s.atp_number),
      remaining,
      dailyUse,
      coverDays: Math.floor(cover),
    });
  }
  return levels;
}

/**
 * Issue 37 series nearly used up: to Accounting (level 0), and to Admin SERIES_ADMIN_AFTER_DAYS after Accounting was
 * first told (level 1). One notification while it lasts (the period is the day first told); a new series registered for
 * the establishment and route that lifts the cover to `series_cover_days` resolves it.
 */
export const evaluator: Evaluator = {
  kinds: ['series_used_up'],
  async evaluate(ctx, { today, thresholds, people }) {
    const levels = await seriesCovers(ctx, today, thresholds.series_cover_days);
    if (levels.length === 0) return [];
    const told = await firstToldAt(ctx.db, 'series_used_up', 'establishment_route', true);
    const accounting = people.withRoles([ROLE.ACCOUNTING]).map((p) => p.id);
    const admins = people.withRoles([ROLE.ADMIN]).map((p) => p.id);
    const items: AlertItem[] = [];
    for (const level of levels) {
      const subject = { type: 'establishment_route', id: `${level.branchId}:${level.routeId}` };
      const toldAt = told.get(subject.id);
      const firstDay = toldAt ? dayOf(toldAt, ctx.config.timeZone) : today;
      const base = { kind: 'series_used_up' as const, subject, period: firstDay, link: `/registered-series?route_id=${level.routeId}` };
      const title = `Registered series nearly used up: ${level.branchName}, ${level.routeName}`;
      const body = `${countText(level.remaining)} numbers are left in ${level.atpNumbers.join(', ')} for ${level.branchName} on ${level.routeName}: about ${level.coverDays} days at the last ${USE_WINDOW_DAYS} days' use of ${countText(Math.round(level.dailyUse))} a day. Apply for a new Authority to Print and register its series.`;
      for (const recipientUserId of accounting) items.push({ ...base, recipientUserId, level: 0, title, body });
      if (daysBetween(firstDay, today) < SERIES_ADMIN_AFTER_DAYS) continue;
      for (const recipientUserId of admins) items.push({ ...base, recipientUserId, level: 1, title, body });
    }
    return items;
  },
};
