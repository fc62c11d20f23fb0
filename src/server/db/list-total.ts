import { sql, type SQL } from 'drizzle-orm';
import { EXACT_COUNT } from '../../shared/schemas/common.ts';
import type { ListTotal } from '../lib/pagination.ts';
import type { Conn } from './client.ts';
import { rowsOf } from './rows.ts';

/** `select count(*)` of at most EXACT_COUNT + 1 rows of `rows` (a SELECT of the list's rows): no count reads further. */
export const cappedCount = (rows: SQL) =>
  sql`select count(*)::int as count from (${rows} limit ${sql.raw(String(EXACT_COUNT + 1))}) capped`;

type ExplainRow = { 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> | string };

/**
 * The list's total from its capped count (cappedCount): the count itself up to EXACT_COUNT, past it the rows the
 * planner expects `rows` (the same SELECT, values written in or bound) to return, read by EXPLAIN without running it.
 * The estimate is never below what is known: more than EXACT_COUNT rows, and the rows up to the page shown.
 */
export async function listTotal(conn: Conn, counted: number, rows: () => SQL, seen: number): Promise<ListTotal> {
  if (counted <= EXACT_COUNT) return { count: counted, estimate: false };
  const [row] = await rowsOf<ExplainRow>(conn, sql`explain (format json) ${rows()}`);
  const plan =
    typeof row['QUERY PLAN'] === 'string'
      ? (JSON.parse(row['QUERY PLAN']) as Exclude<ExplainRow['QUERY PLAN'], string>)
      : row['QUERY PLAN'];
  const planned = Math.round(plan[0]?.Plan['Plan Rows'] ?? 0);
  return { count: Math.max(planned, EXACT_COUNT + 1, seen), estimate: true };
}
