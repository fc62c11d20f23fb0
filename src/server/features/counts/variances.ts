import { seriesRange } from '../../../shared/format.ts';
import type { VarianceKind } from '../../../shared/schemas/counts.ts';

/** What a count knows of one pad: whether the books placed it there, what was seen, and the books' first unused number. */
export interface CountedPad {
  expected: boolean;
  state: 'pending' | 'found' | 'missing';
  series_to: number;
  book_next_number: number | null;
  first_unused: number | null;
  /** The confirmed loss incident of the pad's numbers at the scan (issue 36), and what else the books said of it. */
  book_incident_id?: number | null;
  book_note?: string | null;
}

/** The books' first unused number, or one past the pad when every number is consumed. */
export const bookFirstUnused = (pad: Pick<CountedPad, 'book_next_number' | 'series_to'>) => pad.book_next_number ?? pad.series_to + 1;

/**
 * docs/design.md §9 variances, one per pad at most: a pad the books place with the holder and marked missing (a pad not
 * yet scanned is none until the counter ends the scan, issue 36); a lost booklet found (its loss incident's found settles
 * it); a pad found that the books place elsewhere; else the first unused number seen above the books' (numbers used but
 * not recorded) or below (recorded as used but unused).
 */
export function varianceOf(pad: CountedPad): VarianceKind | null {
  if (pad.expected && pad.state === 'missing') return 'missing';
  if (pad.state === 'found' && (pad.book_incident_id ?? null) !== null) return 'found_lost';
  if (!pad.expected && pad.state === 'found') return 'found_elsewhere';
  if (pad.state !== 'found' || pad.first_unused === null) return null;
  const book = bookFirstUnused(pad);
  if (pad.first_unused > book) return 'unrecorded_use';
  if (pad.first_unused < book) return 'unused_recorded';
  return null;
}

/** The numbers a number variance is about: from the lower of the two first-unused numbers to just below the higher. */
export function varianceRange(pad: CountedPad): { from: number; to: number } | null {
  if (pad.first_unused === null) return null;
  const book = bookFirstUnused(pad);
  if (pad.first_unused === book) return null;
  return { from: Math.min(book, pad.first_unused), to: Math.max(book, pad.first_unused) - 1 };
}

/** A line saying what the variance is, for the screen and the certificate. */
export function varianceDetail(kind: VarianceKind, pad: CountedPad & { book_holder_name: string | null }, holder: string): string {
  const range = varianceRange(pad);
  const numbers = range ? seriesRange(range.from, range.to) : '';
  const note = pad.book_note ? `${pad.book_note}; ` : '';
  switch (kind) {
    case 'missing':
      return `Not found with ${holder}`;
    case 'found_lost':
    case 'found_elsewhere':
      return `Found here: ${note}the books place it with ${pad.book_holder_name ?? 'nobody'}`;
    case 'unrecorded_use':
      return `Numbers ${numbers} used but not recorded (books: first unused ${bookFirstUnused(pad)}; seen ${pad.first_unused})`;
    case 'unused_recorded':
      return `Numbers ${numbers} recorded as used but unused (books: first unused ${bookFirstUnused(pad)}; seen ${pad.first_unused})`;
  }
}
