import { FORM_TYPES } from './lookups.ts';
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
  const tail = String(Math.trunc(Math.abs(n)))
    .slice(-4)
    .padStart(4, '0');
  return `${head}${suffix}-${tail}`;
}

/**
 * The number ranges of the screens, files and messages, written here only. A pad's series in full, "100251-100300", as
 * staff compare it with the paper pad; only the series circles abbreviate.
 */
export function seriesRange(from: number | string, to: number | string, dash = '-'): string {
  return `${from}${dash}${to}`;
}

/** Numbers used, lost, found or left, "100251-100260", and a single number as itself, "100251". */
export function numberRange(from: number, to: number, dash = '-'): string {
  return from === to ? String(from) : seriesRange(from, to, dash);
}

/** "Number 100251" or "Numbers 100251–100260", as a message names the numbers it acted on. */
export function numbersText(from: number, to: number): string {
  return `${from === to ? 'Number' : 'Numbers'} ${numberRange(from, to, '\u2013')}`;
}

/** Several runs of numbers, as one RAAF cell or inventory line lists them; `separator` is the document's own. */
export function numberRanges(ranges: ReadonlyArray<readonly [number, number]>, separator: string): string {
  return ranges.map(([from, to]) => numberRange(from, to)).join(separator);
}

const formats = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();
const DAY: Intl.DateTimeFormatOptions = { day: '2-digit', month: 'short', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
const DAY_TIME: Intl.DateTimeFormatOptions = { ...DAY, ...TIME };
const ISO_DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
const MONTH: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric' };

/**
 * The one cache of date formatters, per (options, locale, zone): making an Intl.DateTimeFormat costs far more than
 * formatting with one (issue 39). `options` must be a constant of the caller's module, as the cache is keyed by it.
 */
export function zonedFormat(locale: string, options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  let byZone = formats.get(options);
  if (!byZone) {
    byZone = new Map();
    formats.set(options, byZone);
  }
  const key = `${locale}|${timeZone}`;
  let format = byZone.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    byZone.set(key, format);
  }
  return format;
}

/** Each zone's date of the last second asked for: a second lies within one day in every zone, even on old offsets of seconds. */
const lastDays = new Map<string, { second: number; day: string }>();

/**
 * The calendar date (YYYY-MM-DD) of an instant in a time zone. Lists word "today" once per request, and at a busy port's
 * rate ICU's formatting of it cost more than the rest of the row work (issue 39 point 5), so a second is formatted once.
 */
export function dateInZone(instant: Date, timeZone: string): string {
  const second = Math.floor(instant.getTime() / 1000);
  const last = lastDays.get(timeZone);
  if (last?.second === second) return last.day;
  const day = zonedFormat('en-CA', ISO_DAY, timeZone).format(instant);
  lastDays.set(timeZone, { second, day });
  return day;
}

type Instant = Date | string | null | undefined;

/** Newer ICU data abbreviates September "Sept" in en-GB; every other month has three letters, and so does it here. */
const threeLetterMonth = (text: string) => text.replace(' Sept ', ' Sep ');
const asDate = (instant: Instant) => (instant === null || instant === undefined || instant === '' ? null : new Date(instant));

/**
 * An instant's day in APP_TIMEZONE, "05 Nov 2026"; "-" when there is none. The one date formatter of the screens, the PDFs
 * and the mails (docs/design.md §8: every business date is APP_TIMEZONE's).
 */
export function dayText(instant: Instant, timeZone: string): string {
  const at = asDate(instant);
  return at ? threeLetterMonth(zonedFormat('en-GB', DAY, timeZone).format(at)) : '-';
}

/** An instant in APP_TIMEZONE, "05 Nov 2026 17:30"; "-" when there is none. The one date-and-time formatter, as dayText. */
export function dayTimeText(instant: Instant, timeZone: string): string {
  const at = asDate(instant);
  return at ? threeLetterMonth(zonedFormat('en-GB', DAY_TIME, timeZone).format(at).replace(',', '')) : '-';
}

/**
 * An instant as a printed document states it, with its zone named (a paper has no device clock to fall back on):
 * "05 Nov 2026 17:30 (Asia/Manila)"; "-" when there is none.
 */
export function documentTimeText(instant: Instant, timeZone: string): string {
  const text = dayTimeText(instant, timeZone);
  return text === '-' ? text : `${text} (${timeZone})`;
}

/** How a zone is named beside a time, "Manila time" for Asia/Manila, "UTC" for UTC. */
export function zoneName(timeZone: string): string {
  const city = timeZone.split('/').pop() ?? timeZone;
  return timeZone === city ? timeZone : `${city.replace(/_/g, ' ')} time`;
}

/**
 * A time as a screen shows it: dayTimeText in APP_TIMEZONE, with the zone named when the device keeps another one, so
 * "05 Nov 2026 17:30" never reads as the device's own clock.
 */
export function shownDayTime(instant: Instant, timeZone: string, deviceZone: string): string {
  return namedZone(dayTimeText(instant, timeZone), timeZone, deviceZone);
}

/** An instant's clock time as a screen shows it, "14:02", with the zone named as shownDayTime names it. */
export function shownTime(instant: Instant, timeZone: string, deviceZone: string): string {
  const at = asDate(instant);
  return namedZone(at ? zonedFormat('en-GB', TIME, timeZone).format(at) : '-', timeZone, deviceZone);
}

function namedZone(text: string, timeZone: string, deviceZone: string): string {
  return text === '-' || sameZone(timeZone, deviceZone) ? text : `${text} (${zoneName(timeZone)})`;
}

/** Two zone names that keep the same clock now and all year (e.g. "UTC" and "Etc/UTC"). */
function sameZone(a: string, b: string): boolean {
  if (a === b) return true;
  const probes = [new Date(Date.UTC(2026, 0, 15)), new Date(Date.UTC(2026, 6, 15))];
  return probes.every((at) => dayTimeText(at, a) === dayTimeText(at, b));
}

/** A calendar date (YYYY-MM-DD) as "05 Nov 2026"; no time zone applies to it. */
export function calendarDayText(value: string | null): string {
  return value ? dayText(new Date(`${value.slice(0, 10)}T00:00:00Z`), 'UTC') : '-';
}

/** A month (YYYY-MM) as "October 2026"; a month is a calendar value, no zone shifts it. */
export function monthText(month: string): string {
  return zonedFormat('en-US', MONTH, 'UTC').format(new Date(`${month}-01T00:00:00Z`));
}

const counts = new Intl.NumberFormat('en-US');

/** A count with thousands separators, "1,250". */
export function countText(n: number): string {
  return counts.format(n);
}

/** Whole days from today (YYYY-MM-DD) to a YYYY-MM-DD date; negative when past. */
const daysFrom = (today: string, dueDate: string) =>
  Math.round((Date.parse(`${dueDate.slice(0, 10)}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);

/** docs/spec.md §2 Expected Return column, at an instant in the app's zone. */
export function expectedReturnText(dueDate: string | null | undefined, now: Date, timeZone: string): string {
  return expectedReturnTextOn(dateInZone(now, timeZone), dueDate);
}

/** The Expected Return column on a given day (YYYY-MM-DD in the app's zone), for a list that words every row on one day. */
export function expectedReturnTextOn(today: string, dueDate: string | null | undefined): string {
  if (!dueDate) return '-';
  const days = daysFrom(today, dueDate);
  if (days < 0) return 'Overdue';
  if (days === 0) return 'Due today';
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** An invoice named with its pads, "Issued #17 with 2 pads", the same words on every screen and in every list. */
export function invoiceWithPads(invoiceType: string, id: number, pads: number): string {
  return `${invoiceType} #${id} with ${pads} ${pads === 1 ? 'pad' : 'pads'}`;
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

/** Who holds a pad, as the Held by column says it: "Juan Cruz (Calapan Agency)", a branch's own stock by its name, else "-". */
export function heldByText(holder: { user: string | null; branch: string | null }): string {
  if (holder.user) return holder.branch ? `${holder.user} (${holder.branch})` : holder.user;
  return holder.branch ?? '-';
}

/** "Company - Route - TIN" as the spec's Route columns show it. */
export function routeLabel(
  route: { name?: string | null; tin?: string | null; company?: { name?: string | null } | null } | null | undefined,
): string {
  if (!route) return '-';
  return [route.company?.name, route.name, route.tin].filter(Boolean).join(' - ');
}

/** docs/design.md §10: a pad's registered series as Find receipt and Pad Details show it. */
export function registeredSeriesText(ref: { atp_number: string; atp_date: string; form_type: keyof typeof FORM_TYPES } | null): string {
  return ref ? `ATP ${ref.atp_number} of ${ref.atp_date} · ${FORM_TYPES[ref.form_type]}` : 'Not in a registered series';
}
