const SUFFIXES: Array<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** docs/spec.md §9: one decimal and a K/M/B/T suffix, then "-" and the last four digits. */
export function abbreviateSeries(value: number | string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  const found = SUFFIXES.find(([limit]) => Math.abs(n) >= limit);
  if (!found) return String(n);
  const [limit, suffix] = found;
  const head = (Math.trunc((n / limit) * 10) / 10).toFixed(1);
  const tail = String(Math.trunc(Math.abs(n))).slice(-4).padStart(4, '0');
  return `${head}${suffix}-${tail}`;
}

/** A pad's series in full, "100251-100300", as staff compare it with the paper pad; only the series circles abbreviate. */
export function seriesRange(from: number | string, to: number | string): string {
  return `${from}-${to}`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) of an instant in a time zone; one formatter per zone, as making one costs more than formatting. */
export function dateInZone(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** Whole days from today (in the zone) to a YYYY-MM-DD date; negative when past. */
export function daysUntil(dueDate: string, now: Date, timeZone: string): number {
  const today = Date.parse(`${dateInZone(now, timeZone)}T00:00:00Z`);
  const due = Date.parse(`${dueDate.slice(0, 10)}T00:00:00Z`);
  return Math.round((due - today) / 86_400_000);
}

/** docs/spec.md §2 Expected Return column. */
export function expectedReturnText(dueDate: string | null | undefined, now: Date, timeZone: string): string {
  if (!dueDate) return '-';
  const days = daysUntil(dueDate, now, timeZone);
  if (days < 0) return 'Overdue';
  if (days === 0) return 'Due today';
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

export function fullName(user: { first_name?: string | null; middle_name?: string | null; last_name?: string | null }): string {
  return [user.first_name, user.middle_name, user.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
}

/** docs/spec.md §1: greet by first name, or "User". */
export function greetingName(user: { first_name?: string | null } | null | undefined): string {
  return user?.first_name?.trim() || 'User';
}

/** docs/spec.md §9: at most five page numbers around the current page. */
export function pagerWindow(current: number, last: number, size = 5): number[] {
  if (last < 1) return [];
  const page = Math.min(Math.max(current, 1), last);
  let start = Math.max(1, page - Math.floor(size / 2));
  const end = Math.min(last, start + size - 1);
  start = Math.max(1, end - size + 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/** "Company - Route - TIN" as the spec's Route columns show it. */
export function routeLabel(route: { name?: string | null; tin?: string | null; company?: { name?: string | null } | null } | null | undefined): string {
  if (!route) return '-';
  return [route.company?.name, route.name, route.tin].filter(Boolean).join(' - ');
}
