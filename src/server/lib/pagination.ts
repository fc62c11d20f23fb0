import type { Paginated } from '../../shared/schemas/common.ts';

export const offsetOf = (page: number, perPage: number) => (page - 1) * perPage;

/** The spec's list envelope (data, current_page, last_page, per_page) plus total. */
export function paginated<T>(data: T[], total: number, page: number, perPage: number): Paginated<T> {
  return { data, current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}

/** A search term as an ILIKE pattern, with the wildcard characters of the term escaped. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
