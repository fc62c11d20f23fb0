import { PAD_STATUS, SERIES_ENTRY } from './lookups.ts';

export interface SeriesEntry {
  number: number;
  status: number;
}

/** A pad's stored series text ("1" not used, "2" used, one character a number) as the API's series entries. */
export function seriesFromStatus(from: number, status: string): SeriesEntry[] {
  const entries: SeriesEntry[] = new Array(status.length);
  for (let i = 0; i < status.length; i += 1) {
    entries[i] = { number: from + i, status: status.charCodeAt(i) === 50 ? SERIES_ENTRY.USED : SERIES_ENTRY.NOT_USED };
  }
  return entries;
}

/** docs/spec.md §4 "Pad series toggle": all used 1, some used 2, none used 3; Cancelled and Lost stay as set. */
export function derivePadStatus(series: ReadonlyArray<{ status: number }>, current: number): number {
  if (current === PAD_STATUS.CANCELLED || current === PAD_STATUS.LOST) return current;
  const used = series.reduce((count, entry) => count + (entry.status === SERIES_ENTRY.USED ? 1 : 0), 0);
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
