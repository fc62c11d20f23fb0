import { COUNT_CAP, type Paginated } from '../../shared/schemas/common.ts';

export const offsetOf = (page: number, perPage: number) => (page - 1) * perPage;

/**
 * The spec's list envelope (data, current_page, last_page, per_page) plus total. A count that went past
 * COUNT_CAP (the repos count at most one more) answers the bound with `total_capped` true, and pages up to it.
 */
export function paginated<T>(data: T[], total: number, page: number, perPage: number): Paginated<T> {
  const capped = total > COUNT_CAP;
  const shown = capped ? COUNT_CAP : total;
  return {
    data,
    current_page: page,
    last_page: Math.max(1, Math.ceil(shown / perPage)),
    per_page: perPage,
    total: shown,
    total_capped: capped,
  };
}

/** A search term as an ILIKE pattern, with the wildcard characters of the term escaped. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
