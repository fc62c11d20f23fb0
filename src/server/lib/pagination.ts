import { COUNT_CAP, type Paginated } from '../../shared/schemas/common.ts';

export const offsetOf = (page: number, perPage: number) => (page - 1) * perPage;

/** A list's total: counted, or (past EXACT_COUNT) the planner's estimate (db/list-total.ts). */
export interface ListTotal {
  count: number;
  estimate: boolean;
}

/**
 * The spec's list envelope (data, current_page, last_page, per_page) plus total. A total past COUNT_CAP answers the
 * bound with `total_capped` true, and pages up to it; an estimated total says so in `total_is_estimate`.
 */
export function paginated<T>(data: T[], total: number | ListTotal, page: number, perPage: number): Paginated<T> {
  const { count, estimate } = typeof total === 'number' ? { count: total, estimate: false } : total;
  const capped = count > COUNT_CAP;
  const shown = capped ? COUNT_CAP : count;
  return {
    data,
    current_page: page,
    last_page: Math.max(1, Math.ceil(shown / perPage)),
    per_page: perPage,
    total: shown,
    total_capped: capped,
    total_is_estimate: estimate,
  };
}

/** A search term as an ILIKE pattern, with the wildcard characters of the term escaped. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
