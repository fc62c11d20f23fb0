import { dateInZone } from '../../../../shared/format.ts';

/** The business date `days` after (or before, when negative) a business date (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Whole days from business date `from` to `to`. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The ISO week of a business date, e.g. "2026-W48": the period of a weekly reminder. */
export function isoWeek(date: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  const weekday = at.getUTCDay() || 7;
  at.setUTCDate(at.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(at.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((at.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${at.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The business date an instant falls on, or that a stored first-told instant does, in APP_TIMEZONE. */
export const dayOf = (at: Date, timeZone: string) => dateInZone(at, timeZone);
