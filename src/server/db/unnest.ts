import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

type Cell = string | number | boolean | Date | null | undefined;

/** A PostgreSQL array literal of the values, each quoted and escaped; null and undefined are NULL. */
function arrayLiteral(values: Cell[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    const text = value instanceof Date ? value.toISOString() : String(value);
    return `"${text.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
  });
  return `{${items.join(',')}}`;
}

/**
 * `(columns) select * from unnest(…)` to INSERT many rows of the table: each column travels as one array parameter of
 * the column's type, which PostgreSQL reads at a fraction of the cost of the same rows as a JSON document.
 */
export function unnestRows<Row extends object>(table: PgTable, keys: Array<keyof Row & string>, rows: Row[]): SQL {
  const columns = getTableColumns(table);
  const arrays = keys.map((key) => sql`${arrayLiteral(rows.map((row) => row[key] as Cell))}::${sql.raw(columns[key].getSQLType())}[]`);
  return sql`(${sql.raw(keys.map((key) => `"${columns[key].name}"`).join(', '))}) select * from unnest(${sql.join(arrays, sql`, `)})`;
}
