import { sql } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { rowsOf, toNumbers } from '../../db/rows.ts';
import { userBranchIdOf } from '../users/read-model.ts';

/** The kinds that consume a number, and the undo that puts it back, as the RAAF's Issued column counts use. */
const USE_SIGN = sql`(case e.kind when 'used' then e.qty when 'used_reverted' then -e.qty else 0 end)`;
/** The branch an event's holder answered to: the branch on the event, else the holding user's branch. */
const eventBranch = sql`coalesce(e.holder_branch_id, ${userBranchIdOf(sql`e.holder_user_id`)})`;

/**
 * Issue 37 low stock: numbers used (less uses undone) per branch and route on business dates from..to (inclusive);
 * opening balances are left out, their uses were before go-live.
 */
export async function usedPerBranchRoute(
  conn: Conn,
  from: string,
  to: string,
): Promise<Array<{ branch_id: number; route_id: number; used: number }>> {
  const rows = await rowsOf<{ branch_id: number; route_id: number; used: number }>(
    conn,
    sql`select branch_id, route_id, sum(used)::bigint as used from (
        select ${eventBranch} as branch_id, e.route_id, ${USE_SIGN} as used from pad_events e
        where e.kind in ('used', 'used_reverted') and e.import_id is null
          and e.business_date >= ${from}::date and e.business_date <= ${to}::date) s
      where branch_id is not null group by branch_id, route_id`,
  );
  return toNumbers(rows, ['branch_id', 'route_id', 'used']);
}

/**
 * Issue 37 registered series: numbers used (less uses undone) inside each keyed range of a route on business dates
 * from..to (inclusive), an event that straddles a range counting only its numbers inside.
 */
export async function usedInRanges(
  conn: Conn,
  ranges: Array<{ key: number; routeId: number; from: number; to: number }>,
  from: string,
  to: string,
): Promise<Map<number, number>> {
  if (ranges.length === 0) return new Map();
  const json = JSON.stringify(ranges.map((r) => ({ key: r.key, route_id: r.routeId, from: r.from, to: r.to })));
  const rows = await rowsOf<{ key: number; used: number }>(
    conn,
    sql`select x.key, coalesce(sum(sign(${USE_SIGN}) * (least(e.to_number, x."to") - greatest(e.from_number, x."from") + 1)), 0)::bigint as used
      from json_to_recordset(${json}::json) as x(key int, route_id int, "from" bigint, "to" bigint)
      join pad_events e on e.route_id = x.route_id and e.from_number <= x."to" and e.to_number >= x."from"
        and e.kind in ('used', 'used_reverted') and e.import_id is null
        and e.business_date >= ${from}::date and e.business_date <= ${to}::date
      group by x.key`,
  );
  return new Map(rows.map((row) => [Number(row.key), Number(row.used)]));
}
