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
 * Past EXACT_COUNT the total is the planner's rows, never below what is known: more than EXACT_COUNT rows, and the
 * rows up to the page shown.
 */
async function totalOf(counted: number, seen: number, explain: () => Promise<ExplainRow[]>): Promise<ListTotal> {
  if (counted <= EXACT_COUNT) return { count: counted, estimate: false };
  const [row] = await explain();
  const plan =
    typeof row['QUERY PLAN'] === 'string'
      ? (JSON.parse(row['QUERY PLAN']) as Exclude<ExplainRow['QUERY PLAN'], string>)
      : row['QUERY PLAN'];
  const planned = Math.round(plan[0]?.Plan['Plan Rows'] ?? 0);
  return { count: Math.max(planned, EXACT_COUNT + 1, seen), estimate: true };
}

/**
 * The list's total from its capped count (cappedCount): the count itself up to EXACT_COUNT, past it the rows the
 * planner expects `rows` (the same SELECT, values written in or bound) to return, read by EXPLAIN without running it.
 */
export async function listTotal(conn: Conn, counted: number, rows: () => SQL, seen: number): Promise<ListTotal> {
  return totalOf(counted, seen, () => rowsOf<ExplainRow>(conn, sql`explain (format json) ${rows()}`));
}

/** The EXPLAIN of a list's rows, prepared once per filter shape and connection (db/prepared.ts): see `preparedTotal`. */
export interface Estimate {
  explain(values: Record<string, unknown>): Promise<ExplainRow[]>;
}

/**
 * The EXPLAIN of `rows`, a SELECT whose values are placeholders, as a named prepared statement: its text is built
 * once, as the list's own statements are, instead of by drizzle on every request whose count passes EXACT_COUNT.
 */
export function prepareEstimate(conn: Conn, name: string, rows: { toSQL(): { sql: string; params: unknown[] } }): Estimate {
  const { sql: text, params } = rows.toSQL();
  const statement = conn._.session.prepareQuery({ sql: `explain (format json) ${text}`, params }, undefined, name, false);
  return {
    // -- without selected fields drizzle answers the driver's result, `{ rows }` on both drivers.
    explain: async (values) => ((await statement.execute(values)) as { rows: ExplainRow[] }).rows,
  };
}

/** listTotal for a list whose rows have a prepared EXPLAIN (prepareEstimate), given the placeholders' values. */
export async function preparedTotal(counted: number, estimate: () => Estimate, values: Record<string, unknown>, seen: number) {
  return totalOf(counted, seen, () => estimate().explain(values));
}
