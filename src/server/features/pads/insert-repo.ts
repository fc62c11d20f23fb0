import { sql, type SQL } from 'drizzle-orm';
import { ISSUANCE_STATUS, PAD_STATUS } from '../../../shared/lookups.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/**
 * All pads of one request in a single statement, each with its custody row: pad i covers from + i*size ..
 * min(from + (i+1)*size - 1, to).
 */
export async function insertGeneratedPads(
  conn: Conn,
  input: { routeId: number; from: number; to: number; size: number; firstNumber: number; holderBranchId: number | null; createdBy: number },
): Promise<number> {
  const count = Math.ceil((input.to - input.from + 1) / input.size);
  const start = sql`(${input.from}::bigint + g.i * ${input.size}::bigint)`;
  const end = sql`least(${input.from}::bigint + (g.i + 1) * ${input.size}::bigint - 1, ${input.to}::bigint)`;
  const result = await conn.execute(sql`
    with made as (
      insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, created_by, registered_series_id)
      select ${input.routeId}::int, ${input.firstNumber}::int + g.i::int, ${start}, ${end}, repeat('1', (${end} - ${start} + 1)::int),
             ${PAD_STATUS.UNUSED}::smallint, ${input.createdBy}::int, ${seriesContaining(sql`${input.routeId}::int`, start, end)}
      from generate_series(0::bigint, ${count - 1}::bigint) as g(i)
      returning id)
    insert into pad_custody (pad_id, issuance_status_id, holder_branch_id)
    select id, ${ISSUANCE_STATUS.NOT_ISSUED}::smallint, ${input.holderBranchId}::int from made`);
  return affectedRows(result) ?? count;
}

/** docs/design.md §10: the registered series of the route that contains from..to whole (the exclusion constraint's index finds it). */
const seriesContaining = (routeId: SQL, from: SQL, to: SQL) =>
  sql`(select rs.id from registered_series rs where rs.route_id = ${routeId}
        and int8range(rs.series_from, rs.series_to, '[]') @> int8range(${from}, ${to}, '[]'))`;

function affectedRows(result: unknown): number | null {
  // -- node-postgres answers rowCount, PGlite affectedRows; drizzle types the result as the driver's unknown HKT.
  const r = result as { rowCount?: number | null; affectedRows?: number | null };
  return r.rowCount ?? r.affectedRows ?? null;
}

/**
 * docs/design.md §10: inserts the pads of an opening balance given as JSON rows, with the series each lies inside, and
 * their custody rows, in one statement.
 */
export async function insertPadsFromJson(tx: Conn, json: string, actorId: number | null) {
  return rowsOf<{ id: number; route_id: number; number: number }>(
    tx,
    sql`with x as materialized (
          select * from json_to_recordset(${json}::json) as x(route_id int, number int, series_from bigint, series_to bigint,
            series_status text, pad_status_id smallint, issuance_status_id smallint, remarks text, holder_user_id int, holder_branch_id int)),
        made as (
          insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, remarks, created_by, registered_series_id)
          select x.route_id, x.number, x.series_from, x.series_to, x.series_status, x.pad_status_id, x.remarks, ${actorId}::int,
                 (select rs.id from registered_series rs where rs.route_id = x.route_id
                    and int8range(rs.series_from, rs.series_to, '[]') @> int8range(x.series_from, x.series_to, '[]'))
          from x
          returning id, route_id, number),
        custody as (
          insert into pad_custody (pad_id, issuance_status_id, holder_user_id, holder_branch_id)
          select made.id, x.issuance_status_id, x.holder_user_id, x.holder_branch_id
          from made join x on x.route_id = made.route_id and x.number = made.number)
        select id, route_id, number from made`,
  );
}
