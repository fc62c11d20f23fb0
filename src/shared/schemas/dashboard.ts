import { z } from 'zod';
import { myActionItem } from './my-actions.ts';

/** The Dashboard of roles 1, 2, 8 and 9 (docs/user-guide.md "Screens"), one call. */
export const DASHBOARD_BRANCH_LIMIT = 10;
export const DASHBOARD_ROUTE_LIMIT = 10;
export const DASHBOARD_OVERDUE_LIMIT = 5;

const countRow = z.object({ id: z.number(), name: z.string(), count: z.number() });

export const dashboard = z
  .object({
    pads_total: z.number(),
    pads_by_status: z.array(countRow),
    /** Pads by the branch holding them, the largest first; `id` 0 gathers the rest beyond the limit. */
    pads_by_branch: z.array(countRow),
    /** Head-office stock that can be issued (Not Issued, Unused or Partially Used): pads and unused receipt numbers per route. */
    stock_by_route: z.array(z.object({ id: z.number(), name: z.string(), route_name: z.string(), pads: z.number(), numbers: z.number() })),
    in_transit: z.array(countRow),
    overdue: z.object({ count: z.number(), items: z.array(myActionItem) }),
    /** docs/design.md §9 count schedule: holders not counted for COUNT_EVERY_DAYS days, or never. */
    counts_due: z.object({ count: z.number(), items: z.array(myActionItem) }),
  })
  .meta({ id: 'Dashboard' });

export type Dashboard = z.infer<typeof dashboard>;
