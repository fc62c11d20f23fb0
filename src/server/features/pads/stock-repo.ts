import { sql } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { rowsOf, toNumbers } from '../../db/rows.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { userBranchIdOf } from '../users/read-model.ts';
import { availableForIssuing, custodyOfPad } from './custody-repo.ts';

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
        select case when pc.holder_user_id is null then pc.holder_branch_id
            else coalesce(${userBranchIdOf(sql`pc.holder_user_id`)}, pc.holder_branch_id) end as branch_id,
          p.route_id, ${unusedNumbers} as unused
        from pads p join pad_custody pc on pc.pad_id = p.id where pc.locked_by_invoice_id is null) s
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

export interface CountRow {
  id: number;
  name: string;
  count: number;
}

/** Every pad status with its count, zero included, in the lookup's order. */
export async function padsByStatus(conn: Conn): Promise<CountRow[]> {
  const rows = await rowsOf<CountRow>(
    conn,
    sql`select s.id, s.name, coalesce(c.n, 0) as count
        from pad_statuses s left join (select pad_status_id, count(*) as n from pads group by pad_status_id) c on c.pad_status_id = s.id
        order by s.id`,
  );
  return toNumbers(rows, ['id', 'count']);
}

/** The branches holding the most pads; the rest summed, and the pads no branch holds. */
export async function padsByBranch(conn: Conn, limit: number): Promise<{ top: CountRow[]; rest: number; unheld: number }> {
  const rows = toNumbers(
    await rowsOf<CountRow & { rank: number }>(
      conn,
      sql`select coalesce(b.id, 0) as id, coalesce(b.name, '') as name, c.n as count, row_number() over (order by c.n desc, b.name) as rank
          from (select holder_branch_id, count(*) as n from pad_custody group by holder_branch_id) c
          left join branches b on b.id = c.holder_branch_id`,
    ),
    ['id', 'count', 'rank'],
  );
  const held = rows.filter((row) => row.id !== 0);
  return {
    top: held.slice(0, limit).map(({ id, name, count }) => ({ id, name, count })),
    rest: held.slice(limit).reduce((sum, row) => sum + row.count, 0),
    unheld: rows.find((row) => row.id === 0)?.count ?? 0,
  };
}

export interface StockRow {
  id: number;
  route: string;
  company: string;
  tin: string | null;
  pads: number;
  numbers: number;
}

/** The head office's stock available for issuing, per route, the routes with most pads first. */
export async function stockByRoute(conn: Conn, headOfficeId: number, limit: number): Promise<StockRow[]> {
  const rows = await rowsOf<StockRow>(
    conn,
    sql`select r.id, r.name as route, c.name as company, r.tin, s.pads, s.numbers
        from (select route_id, count(*) as pads,
                     sum(length(series_status) - length(replace(series_status, '1', ''))) as numbers
              from ${pads} join ${padCustody} on ${custodyOfPad}
              where ${availableForIssuing()} and ${padCustody.holder_user_id} is null and ${padCustody.holder_branch_id} = ${headOfficeId}::int
              group by ${pads.route_id}) s
        join routes r on r.id = s.route_id
        join companies c on c.id = r.company_id
        order by s.pads desc, r.name
        limit ${limit}`,
  );
  return toNumbers(rows, ['id', 'pads', 'numbers']);
}
