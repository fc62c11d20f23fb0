import { sql } from 'drizzle-orm';
import type { FormType } from '../../../shared/lookups.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** A registered series (ATP) as a document names it beside the numbers it covers. */
export interface SeriesCover {
  atp_number: string;
  atp_date: string;
  form_type: FormType;
  printer: string;
  series_from: number;
  series_to: number;
}

/**
 * docs/design.md §10: the registered series of the route that cover any of from..to, in number order; none when the
 * numbers were never registered. The Notice of Loss prints each lost range with the ATP it was printed under.
 */
export async function seriesCovering(conn: Conn, routeId: number, from: number, to: number): Promise<SeriesCover[]> {
  const rows = await rowsOf<SeriesCover>(
    conn,
    sql`select atp_number, atp_date::text as atp_date, form_type, printer, series_from, series_to from registered_series
        where route_id = ${routeId}::int and int8range(series_from, series_to, '[]') && int8range(${from}::bigint, ${to}::bigint, '[]')
        order by series_from`,
  );
  return rows.map((row) => ({ ...row, series_from: Number(row.series_from), series_to: Number(row.series_to) }));
}
