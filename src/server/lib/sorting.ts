import { sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { SortOrder } from '../../shared/schemas/common.ts';

/**
 * The ORDER BY of a list sorted by one whitelisted column: that column (or columns) in the
 * asked direction with empty values last, then the id the same way so no row shows on two pages.
 * Without `sort` the list keeps its own default order.
 */
export function sortedBy<K extends string>(
  columns: Record<K, SQLWrapper | AnyColumn | Array<SQLWrapper | AnyColumn>>,
  query: { sort?: K; order?: SortOrder },
  tiebreak: AnyColumn,
  fallback: SQL[],
): SQL[] {
  if (!query.sort) return fallback;
  const direction = sql.raw(query.order === 'desc' ? 'desc' : 'asc');
  const keys = [columns[query.sort]].flat();
  return [...keys.map((key) => sql`${key} ${direction} nulls last`), sql`${tiebreak} ${direction}`];
}
