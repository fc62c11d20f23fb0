import { inArray, sql } from 'drizzle-orm';
import type { FormType } from '../../../shared/lookups.ts';
import type { SeriesRole } from '../../../shared/schemas/registered-series.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import * as repo from './repo.ts';
import { registeredSeries } from '../../db/schema/registered-series.ts';

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

/** Issue 38: the current role of a registered series (regular, contingency, converted, supplementary, retired); null when there is none. */
export async function seriesRoleOf(conn: Conn, seriesId: number): Promise<string | null> {
  const [row] = await rowsOf<{ role: string }>(conn, sql`select role from registered_series where id = ${seriesId}::int`);
  return row?.role ?? null;
}

/** Issue 38: a series' current role and ATP, as issuing decides by it. */
export interface SeriesRoleFacts {
  id: number;
  role: SeriesRole;
  atp_number: string;
  branch_id: number;
}

/** Issue 38: the roles of several series at once (the pads of one issue). */
export async function seriesRolesOf(conn: Conn, ids: number[]): Promise<SeriesRoleFacts[]> {
  if (ids.length === 0) return [];
  const rows = await conn
    .select({
      id: registeredSeries.id,
      role: registeredSeries.role,
      atp_number: registeredSeries.atp_number,
      branch_id: registeredSeries.branch_id,
    })
    .from(registeredSeries)
    .where(inArray(registeredSeries.id, [...new Set(ids)]));
  // -- registered_series_role_ck holds role to SeriesRole.
  return rows.map((row) => ({ ...row, role: row.role as SeriesRole }));
}

export type { SeriesInUse } from './repo.ts';

/** Issue 37 series nearly used up: the series that still give numbers (all but retired ones), by establishment and route. */
export const seriesInUse = (conn: Conn) => repo.seriesInUse(conn);
