import { sql } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { preparedRows } from '../../db/rows.ts';
import { offsetOf } from '../../lib/pagination.ts';

/**
 * Newest pads first, without counting or offsetting the table: pad_id_blocks (kept exact by triggers)
 * gives the total and the block of 1,024 ids the page starts in, and the page is read from there, at
 * most 1,023 index entries in. One statement, so the total and the page come from one snapshot; named and
 * prepared (one text with a route, one without), so it is planned once per connection.
 */
const newestPageStatement = (byRoute: boolean) =>
  preparedOnce((conn) => {
    const routeBlocks = byRoute ? sql`where route_id = ${sql.placeholder('routeId')}::int` : sql``;
    const routePads = byRoute ? sql`and p.route_id = ${sql.placeholder('routeId')}::int` : sql``;
    return preparedRows<{ total: number; ids: number[] | null }>(
      conn,
      byRoute ? 'pads_newest_page_of_route' : 'pads_newest_page',
      sql`
      with b as (select block, sum(pads)::bigint as n from pad_id_blocks ${routeBlocks} group by block),
      c as (select block, n, sum(n) over (order by block desc) as upto from b),
      k as (select block, ${sql.placeholder('offset')}::bigint - (upto - n) as skip from c where upto > ${sql.placeholder('offset')}::bigint order by block desc limit 1)
      select (select coalesce(sum(n), 0)::int from b) as total,
             (select array_agg(s.id order by s.id desc) from k cross join lateral (
                select p.id from pads p where p.id < (k.block + 1) << 10 ${routePads}
                order by p.id desc offset k.skip limit ${sql.placeholder('limit')}::int) s) as ids`,
    );
  });
const newestPageOfRoute = newestPageStatement(true);
const newestPageOfAll = newestPageStatement(false);

/** The ids of a page of the newest pads (of one route or all) and how many there are. */
export async function newestPage(conn: Conn, routeId: number | undefined, pageNo: number, perPage: number) {
  const values = { offset: offsetOf(pageNo, perPage), limit: perPage };
  const [row] =
    routeId === undefined ? await newestPageOfAll(conn).execute(values) : await newestPageOfRoute(conn).execute({ ...values, routeId });
  return { ids: row.ids ?? [], total: Number(row.total) };
}
