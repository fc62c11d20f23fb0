import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Conn } from './client.ts';

/** The rows of a raw statement: both drivers answer `{ rows }`. */
export async function rowsOf<T>(conn: Conn, query: SQL): Promise<T[]> {
  // -- drizzle types a raw statement's result as the driver's unknown HKT; the caller's T names the statement's columns.
  const result = (await conn.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Counts and sums come back as text or bigint depending on the driver; these columns are numbers. */
export const toNumbers = <T extends object>(rows: T[], keys: Array<keyof T>): T[] =>
  // -- the spread keeps T's keys and only turns `keys` into numbers, which T already declares as numbers.
  rows.map((row) => ({ ...row, ...Object.fromEntries(keys.map((key) => [key, Number(row[key])])) }) as T);

const dialect = new PgDialect();

/**
 * A raw statement whose values are placeholders, as a named prepared statement: its text is built once and PostgreSQL
 * plans it once per connection, where `rowsOf` pays drizzle's building and the server's planning on every call.
 */
export function preparedRows<T>(conn: Conn, name: string, query: SQL): { execute(values: Record<string, unknown>): Promise<T[]> } {
  const statement = conn._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  // -- without selected fields drizzle answers the driver's result, `{ rows }` on both drivers; T names its columns.
  return { execute: async (values) => ((await statement.execute(values)) as { rows: T[] }).rows };
}
