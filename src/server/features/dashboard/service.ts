import { calendarDayText, dateInZone, invoiceWithPads, routeLabel } from '../../../shared/format.ts';
import {
  DASHBOARD_BRANCH_LIMIT,
  DASHBOARD_OVERDUE_LIMIT,
  DASHBOARD_ROUTE_LIMIT,
  type Dashboard,
} from '../../../shared/schemas/dashboard.ts';
import type { AppContext } from '../../context.ts';
import { inTransitByType, overdueIssues } from '../invoices/read-model.ts';
import * as counts from '../counts/read-model.ts';
import * as pads from '../pads/read-model.ts';

/**
 * The Dashboard (README "Screens"): the overview the head office and auditors ask for first (where the pads are, what is in
 * stock, what is on the road or late), read-only and computed on demand from the pads and invoices.
 */
export async function overview(ctx: AppContext): Promise<Dashboard> {
  const byStatus = await pads.padsByStatus(ctx.db);
  const byBranch = await pads.padsByBranch(ctx.db, DASHBOARD_BRANCH_LIMIT);
  const stock = await pads.stockByRoute(ctx.db, ctx.config.headOfficeBranchId, DASHBOARD_ROUTE_LIMIT);
  const inTransit = await inTransitByType(ctx.db);
  const due = await counts.dueEverywhere(ctx.db, ctx.config.countEveryDays, DASHBOARD_OVERDUE_LIMIT);
  const late = await overdueIssues(ctx.db, dateInZone(new Date(), ctx.config.timeZone), DASHBOARD_OVERDUE_LIMIT);
  const padsByBranch = [
    ...byBranch.top,
    ...(byBranch.rest > 0 ? [{ id: 0, name: 'Other branches', count: byBranch.rest }] : []),
    ...(byBranch.unheld > 0 ? [{ id: -1, name: 'No branch', count: byBranch.unheld }] : []),
  ];
  return {
    pads_total: byStatus.reduce((sum, row) => sum + row.count, 0),
    pads_by_status: byStatus,
    pads_by_branch: padsByBranch,
    stock_by_route: stock.map((row) => ({
      id: row.id,
      name: routeLabel({ name: row.route, tin: row.tin, company: { name: row.company } }),
      route_name: row.route,
      pads: row.pads,
      numbers: row.numbers,
    })),
    in_transit: inTransit,
    overdue: {
      count: late[0]?.total ?? 0,
      items: late.map((row) => ({
        id: row.id,
        label: [
          invoiceWithPads('Issued', row.id, row.pad_count),
          row.requester,
          row.branch,
          `due ${calendarDayText(row.expected_return_date)}`,
        ]
          .filter(Boolean)
          .join(' · '),
        path: `/invoices?invoice=${row.id}`,
      })),
    },
    counts_due: {
      count: due[0]?.total ?? 0,
      items: due.map((row) => ({
        id: row.id,
        label: `${row.type === 'branch' ? 'Branch ' : ''}${row.name} · ${row.last_counted ? `last counted ${dateInZone(new Date(row.last_counted), ctx.config.timeZone)}` : 'never counted'}`,
        path: `/counts?${row.type}=${row.id}`,
      })),
    },
  };
}
