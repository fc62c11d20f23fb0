import { sql } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { rowsOf, toNumbers } from '../../db/rows.ts';
import { userBranchIdOf } from '../users/read-model.ts';

/** The unused numbers of a pad row ('1' in its series status), as SQL. */
const unusedNumbers = sql`(length(p.series_status) - length(replace(p.series_status, '1', '')))`;

/**
 * Issue 37 low stock: the unused numbers per branch and route that no invoice carries, the branch's own stock and its
 * staff's together (a user's pads count at the user's branch).
 */
export async function unusedPerBranchRoute(conn: Conn): Promise<Array<{ branch_id: number; route_id: number; unused: number }>> {
  const rows = await rowsOf<{ branch_id: number; route_id: number; unused: number }>(
    conn,
    sql`select branch_id, route_id, sum(unused)::bigint as unused from (
        select case when p.holder_user_id is null then p.holder_branch_id
            else coalesce(${userBranchIdOf(sql`p.holder_user_id`)}, p.holder_branch_id) end as branch_id,
          p.route_id, ${unusedNumbers} as unused
        from pads p where p.locked_by_invoice_id is null) s
      where branch_id is not null group by branch_id, route_id`,
  );
  return toNumbers(rows, ['branch_id', 'route_id', 'unused']);
}

/** Issue 37 registered series: per series, how many numbers were generated as pads and how many of those are unused. */
export async function numbersInSeries(conn: Conn, seriesIds: number[]): Promise<Map<number, { generated: number; unused: number }>> {
  if (seriesIds.length === 0) return new Map();
  const rows = await rowsOf<{ id: number; generated: number; unused: number }>(
    conn,
    sql`select p.registered_series_id as id, sum(p.series_to - p.series_from + 1)::bigint as generated, sum(${unusedNumbers})::bigint as unused
      from pads p where p.registered_series_id = any(${`{${seriesIds.join(',')}}`}::int[]) group by p.registered_series_id`,
  );
  return new Map(rows.map((row) => [Number(row.id), { generated: Number(row.generated), unused: Number(row.unused) }]));
}
