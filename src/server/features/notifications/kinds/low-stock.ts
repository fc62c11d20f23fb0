import { countText, routeLabel } from '../../../../shared/format.ts';
import { ROLE } from '../../../../shared/lookups.ts';
import { unusedInTransitPerBranchRoute } from '../../invoices/read-model.ts';
import * as ledger from '../../ledger/read-model.ts';
import { unusedPerBranchRoute } from '../../pads/read-model.ts';
import { routeInfos } from '../../routes/read-model.ts';
import { Names } from '../../users/read-model.ts';
import type { AppContext } from '../../../context.ts';
import type { AlertItem, Evaluator, ReorderPointSetting } from '../alert-item.ts';
import { addDays, dayOf, daysBetween } from './kind-days.ts';
import { firstToldAt } from './kinds-repo.ts';

/** The average daily use is taken over this many days, today included. */
export const USE_WINDOW_DAYS = 30;
/** The suggested order tops the stock up to this many times the reorder point (Odoo's max; research §1.1). */
export const REORDER_TARGET_FACTOR = 2;

export interface StockLevel {
  branchId: number;
  routeId: number;
  available: number;
  dailyUse: number;
  point: number;
  /** Whole pads that bring the available numbers up to REORDER_TARGET_FACTOR × the point. */
  suggestPads: number;
}

const keyOf = (branchId: number, routeId: number) => `${branchId}:${routeId}`;

/**
 * Issue 37 low stock, per branch and route: available = the unused numbers of the pads the branch and its staff hold
 * plus those in transit to it; reorder point = max(minimum, average daily use over USE_WINDOW_DAYS × lead days) with
 * the minimum and lead days of the branch and route's reorder point, else the defaults. Answers the levels below their
 * point, leaving out the head office (it is the one that issues) and snoozed points.
 */
export async function shortages(
  ctx: AppContext,
  input: { today: string; defaults: { minimum: number; leadDays: number }; reorderPoints: ReorderPointSetting[] },
): Promise<StockLevel[]> {
  const { today } = input;
  const settings = new Map(input.reorderPoints.map((point) => [keyOf(point.branchId, point.routeId), point]));
  const available = new Map<string, number>();
  for (const row of [...(await unusedPerBranchRoute(ctx.db)), ...(await unusedInTransitPerBranchRoute(ctx.db))]) {
    const key = keyOf(row.branch_id, row.route_id);
    available.set(key, (available.get(key) ?? 0) + row.unused);
  }
  const used = new Map(
    (await ledger.usedPerBranchRoute(ctx.db, addDays(today, 1 - USE_WINDOW_DAYS), today)).map((row) => [
      keyOf(row.branch_id, row.route_id),
      Math.max(0, row.used),
    ]),
  );
  const levels: StockLevel[] = [];
  for (const key of new Set([...settings.keys(), ...available.keys(), ...used.keys()])) {
    const [branchId, routeId] = key.split(':').map(Number);
    if (branchId === ctx.config.headOfficeBranchId) continue;
    const setting = settings.get(key);
    if (setting?.snoozedUntil && today <= setting.snoozedUntil) continue;
    const dailyUse = (used.get(key) ?? 0) / USE_WINDOW_DAYS;
    const point = Math.max(
      setting?.minimum ?? input.defaults.minimum,
      Math.ceil(dailyUse * (setting?.leadDays ?? input.defaults.leadDays)),
    );
    const have = available.get(key) ?? 0;
    if (have >= point) continue;
    const suggestPads = Math.max(1, Math.ceil((REORDER_TARGET_FACTOR * point - have) / ctx.config.padSize));
    levels.push({ branchId, routeId, available: have, dailyUse, point, suggestPads });
  }
  return levels;
}

/**
 * Issue 37 low stock: each shortage to the head-office Custodian with the pads to issue (level 0), and to Accounting once
 * it has lasted `low_stock_escalate_days` (level 1). One notification per shortage while it lasts: the period is the
 * day it was first told, so a day's further use opens nothing new; stock back at the point resolves it.
 */
export const evaluator: Evaluator = {
  kinds: ['low_stock'],
  async evaluate(ctx, { today, thresholds, reorderPoints, people }) {
    const levels = await shortages(ctx, {
      today,
      defaults: { minimum: thresholds.low_stock_minimum, leadDays: thresholds.low_stock_lead_days },
      reorderPoints,
    });
    if (levels.length === 0) return [];
    const told = await firstToldAt(ctx.db, 'low_stock', 'branch_route', true);
    const names = await Names.load(
      ctx.db,
      [],
      levels.map((level) => level.branchId),
    );
    const routes = new Map((await routeInfos(ctx.db, [...new Set(levels.map((level) => level.routeId))])).map((r) => [r.id, r]));
    const custodians = people.withRoles([ROLE.CUSTODIAN]).map((p) => p.id);
    const accounting = people.withRoles([ROLE.ACCOUNTING]).map((p) => p.id);
    const items: AlertItem[] = [];
    for (const level of levels) {
      const subject = { type: 'branch_route', id: keyOf(level.branchId, level.routeId) };
      const toldAt = told.get(subject.id);
      const firstDay = toldAt ? dayOf(toldAt, ctx.config.timeZone) : today;
      const branch = names.branch(level.branchId)?.name ?? `branch #${level.branchId}`;
      const info = routes.get(level.routeId);
      const route = info ? routeLabel(info) : `route #${level.routeId}`;
      const base = {
        kind: 'low_stock' as const,
        subject,
        period: firstDay,
        link: `/pads?holder_branch=${level.branchId}&route_id=${level.routeId}`,
      };
      const body = `${branch} has ${countText(level.available)} unused numbers of ${route} (its stock, its staff's and in transit to it), below its reorder point of ${countText(level.point)}. Suggest ${level.suggestPads} pad${level.suggestPads === 1 ? '' : 's'}.`;
      for (const recipientUserId of custodians)
        items.push({
          ...base,
          recipientUserId,
          level: 0,
          title: `Low stock: ${branch}, ${route}: suggest ${level.suggestPads} pads`,
          body,
        });
      if (daysBetween(firstDay, today) < thresholds.low_stock_escalate_days) continue;
      for (const recipientUserId of accounting)
        items.push({ ...base, recipientUserId, level: 1, title: `Low stock not restocked: ${branch}, ${route}`, body });
    }
    return items;
  },
};
