import { dateInZone, routeLabel } from '../../../shared/format.ts';
import type { Dashboard } from '../../../shared/schemas/dashboard.ts';
import type { AppContext } from '../../context.ts';
import * as repo from './repo.ts';

/**
 * Issue 14.3: the overview the head office and auditors ask for first (where the pads are, what is in
 * stock, what is on the road or late), read-only and computed on demand from the pads and invoices.
 */
export async function overview(ctx: AppContext): Promise<Dashboard> {
  const byStatus = await repo.padsByStatus(ctx.db);
  const byBranch = await repo.padsByBranch(ctx.db);
  const stock = await repo.stockByRoute(ctx.db, ctx.config.headOfficeBranchId);
  const inTransit = await repo.inTransitByType(ctx.db);
  const late = await repo.overdue(ctx.db, dateInZone(new Date(), ctx.config.timeZone));
  const padsByBranch = [
    ...byBranch.top,
    ...(byBranch.rest > 0 ? [{ id: 0, name: 'Other branches', count: byBranch.rest }] : []),
    ...(byBranch.unheld > 0 ? [{ id: -1, name: 'No branch', count: byBranch.unheld }] : []),
  ];
  return {
    pads_total: byStatus.reduce((sum, row) => sum + row.count, 0),
    pads_by_status: byStatus,
    pads_by_branch: padsByBranch,
    stock_by_route: stock.map((row) => ({ id: row.id, name: routeLabel({ name: row.route, tin: row.tin, company: { name: row.company } }), route_name: row.route, pads: row.pads, numbers: row.numbers })),
    in_transit: inTransit,
    overdue: {
      count: late[0]?.total ?? 0,
      items: late.map((row) => ({
        id: row.id,
        label: [`Issued #${row.id}`, `${row.pad_count} ${row.pad_count === 1 ? 'pad' : 'pads'}`, row.requester, row.branch, `due ${row.expected_return_date}`].filter(Boolean).join(' · '),
        path: `/invoices?invoice=${row.id}`,
      })),
    },
  };
}
