import { PAD_STATUS, SERIES_ENTRY } from './lookups.ts';

export interface SeriesEntry {
  number: number;
  status: number;
}

/**
 * A pad's stored series text as the API's series entries: one character a number, "1" not used, "2" used,
 * and (docs/design.md §9) "3" cancelled, "4" lost.
 */
export function seriesFromStatus(from: number, status: string): SeriesEntry[] {
  const entries: SeriesEntry[] = new Array(status.length);
  for (let i = 0; i < status.length; i += 1) {
    const code = status.charCodeAt(i) - 48;
    entries[i] = { number: from + i, status: code >= 2 && code <= 4 ? code : SERIES_ENTRY.NOT_USED };
  }
  return entries;
}

export interface NumberCounts {
  not_used: number;
  used: number;
  cancelled: number;
  lost: number;
}

/** The next number (first not used, docs/design.md §9) and the count of each state, read from the stored series text. */
export function seriesSummary(from: number, status: string): { next_number: number | null; number_counts: NumberCounts } {
  const counts: NumberCounts = { not_used: 0, used: 0, cancelled: 0, lost: 0 };
  let next: number | null = null;
  for (let i = 0; i < status.length; i += 1) {
    const ch = status[i];
    if (ch === '2') counts.used += 1;
    else if (ch === '3') counts.cancelled += 1;
    else if (ch === '4') counts.lost += 1;
    else {
      counts.not_used += 1;
      if (next === null) next = from + i;
    }
  }
  return { next_number: next, number_counts: counts };
}

/**
 * docs/spec.md §4 "Pad series toggle": all used 1, some used 2, none used 3; Cancelled and Lost stay as set.
 * docs/design.md §9: a cancelled or lost number counts as consumed, so a pad with every number consumed is Used.
 */
export function derivePadStatus(series: ReadonlyArray<{ status: number }>, current: number): number {
  if (current === PAD_STATUS.CANCELLED || current === PAD_STATUS.LOST) return current;
  const used = series.reduce((count, entry) => count + (entry.status !== SERIES_ENTRY.NOT_USED ? 1 : 0), 0);
  if (series.length > 0 && used === series.length) return PAD_STATUS.USED;
  if (used > 0) return PAD_STATUS.PARTIALLY_USED;
  return PAD_STATUS.UNUSED;
}

/** Flips one entry between Not Used (1) and Used (2). */
export function toggleEntry(series: ReadonlyArray<SeriesEntry>, number: number): SeriesEntry[] {
  return series.map((entry) =>
    entry.number === number
      ? { number: entry.number, status: entry.status === SERIES_ENTRY.USED ? SERIES_ENTRY.NOT_USED : SERIES_ENTRY.USED }
      : entry,
  );
}

/** The first lost number of a pad's series text (docs/design.md §9: a lost number is refused by every flow), or null. */
export function firstLostNumber(from: number, status: string): number | null {
  const at = status.indexOf('4');
  return at < 0 ? null : from + at;
}
