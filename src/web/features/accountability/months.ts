import { monthText } from '../../../shared/format.ts';

/** "2026-10" for a calendar date (its year and month as given, not shifted by any zone). */
export function monthKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}

/** "October 2026" for "2026-10". */
export const monthLabel = monthText;

/** The month before the one given, as a key: the last ended month, which a holder certifies. */
export function previousMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return monthKey(new Date(year, m - 2, 1));
}

/** The month picker's choices: this month (to date) and the 23 before it, newest first. */
export function monthOptions(current: string): Array<{ value: string; label: string }> {
  const [year, m] = current.split('-').map(Number);
  return Array.from({ length: 24 }, (_, i) => {
    const value = monthKey(new Date(year, m - 1 - i, 1));
    return { value, label: i === 0 ? `${monthLabel(value)} (to date)` : monthLabel(value) };
  });
}
