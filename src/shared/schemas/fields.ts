import { z } from 'zod';
import { invalidFormat, required } from '../messages.ts';

/** The largest value of PostgreSQL's integer: ids, pad numbers. A bigger one names no row. */
export const MAX_ID = 2_147_483_647;
/** The largest value of PostgreSQL's smallint: the ids of the lookup tables (statuses, types). */
export const MAX_LOOKUP_ID = 32_767;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** A whole number from 1 to `max`, as JSON or a query string carries it; the document states both bounds. */
const positiveInteger = (max: number, message?: string, tooLarge: string | undefined = message) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(max, tooLarge);

/** An id as JSON or a query string carries it; every failure says `message` when one is given. */
export const id = (message?: string, tooLarge: string | undefined = message) => positiveInteger(MAX_ID, message, tooLarge);

/** The id of a lookup row (a status, a type): the database keeps them in a smallint, so a larger one is bad input. */
export const lookupId = (message?: string) => positiveInteger(MAX_LOOKUP_ID, message);

/** An id picked in a select: empty, zero, junk or too large all say `message`, as the spec's forms do. */
export const pickedId = (message: string, tooLarge: string = message) => z.preprocess(emptyToUndefined, id(message, tooLarge));

/** A reference picked in a form: "{label} is required" whatever is wrong with it. */
export const refId = (label: string) => pickedId(required(label));

/** A lookup picked in a form (Company Type, Status): "{label} is required" whatever is wrong with it, 32768 included. */
export const refLookupId = (label: string) => z.preprocess(emptyToUndefined, lookupId(required(label)));

/** An optional id filter of a list query; an empty value means no filter. */
export const optionalId = z.preprocess(emptyToUndefined, id().optional());

/** An optional lookup filter of a list query (a type, a status); an empty value means no filter. */
export const optionalLookupId = z.preprocess(emptyToUndefined, lookupId().optional());

/** Ids written "1,2,3" in one query parameter, each within the integer range; the answer is the distinct ids. */
export const idList = (message: string, maxIds: number) =>
  z
    .string({ error: message })
    .regex(new RegExp(`^\\d{1,10}(,\\d{1,10}){0,${maxIds - 1}}$`), message)
    .transform((value, ctx) => {
      const ids = [...new Set(value.split(',').map(Number))];
      if (ids.some((n) => n < 1 || n > MAX_ID)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return ids;
    });

export interface WholeNumberMessages {
  required: string;
  notWhole: string;
  tooSmall: string;
  tooLarge: string;
}

/**
 * A whole number typed into a text box or sent as JSON (a number or a digit string), within [min, max].
 * The default messages are "{label} is required", "Invalid {label} format", "… must be at least min" and
 * "… may not be greater than max"; a feature passes its own wording beside its schema.
 */
export const wholeNumber = (label: string, options: { min: number; max: number; messages?: Partial<WholeNumberMessages> }) => {
  const { min, max } = options;
  const messages: WholeNumberMessages = {
    required: required(label),
    notWhole: invalidFormat(label),
    tooSmall: `${label} must be at least ${min}`,
    tooLarge: `${label} may not be greater than ${max}`,
    ...options.messages,
  };
  return z.union([z.number(), z.string()], { error: messages.required }).transform((value, ctx) => {
    const digits = typeof value === 'number' ? String(value) : value.trim();
    const problem =
      digits === ''
        ? messages.required
        : !/^\d+$/.test(digits)
          ? messages.notWhole
          : Number(digits) < min
            ? messages.tooSmall
            : Number(digits) > max
              ? messages.tooLarge
              : null;
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return Number(digits);
  });
};

export interface DateMessages {
  format: string;
  invalid: string;
  range: string;
}

/** True for a real day of the calendar: 2026-02-30 would roll over to March, so it is not one. */
export const isCalendarDate = (value: string) => {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
};

/**
 * The days a date field takes. PostgreSQL has no year 0 and JavaScript reads years past 9999 as six digits, so both
 * ends are bounded; before 1900 the time zones' local mean times make a day's start odd, and no receipt pad is that old.
 */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '9999-12-31';
/** The same bound as a pattern, so the OpenAPI document states it. */
const DATE_PATTERN = '^(19\\d{2}|[2-9]\\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';

/** True for a day from MIN_DATE to MAX_DATE written YYYY-MM-DD (the calendar check comes before it). */
export const isDateInRange = (value: string) => value >= MIN_DATE && value <= MAX_DATE;

/** A calendar date written YYYY-MM-DD; messages name the field ("Start Date is not a valid date"). */
export const isoDate = (label: string, messages: Partial<DateMessages> = {}) =>
  z
    .string({ error: messages.format ?? `${label} must be a date (YYYY-MM-DD)` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: messages.format ?? `${label} must be a date (YYYY-MM-DD)`, abort: true })
    .refine(isCalendarDate, messages.invalid ?? `${label} is not a valid date`)
    /* Not aborting, so an object's own rules (Series To before From) still speak beside a bad day; the range speaks only of a real day. */
    .refine(
      (value) => !isCalendarDate(value) || isDateInRange(value),
      messages.range ?? `${label} must be between ${MIN_DATE} and ${MAX_DATE}`,
    )
    .meta({ format: 'date', pattern: DATE_PATTERN });

/** A date and time with its offset (ISO 8601) whose day lies within MIN_DATE..MAX_DATE, as a date's does. */
export const isoDateTime = (message: string) =>
  z.iso.datetime({ offset: true, error: message, abort: true }).refine((value) => isDateInRange(value.slice(0, 10)), message);

/** An optional date filter; an empty value means no filter. */
export const optionalDate = (label: string, messages: Partial<DateMessages> = {}) =>
  z.preprocess(emptyToUndefined, isoDate(label, messages).optional());

/** A query with `start_date` and `end_date`: the end may not come before the start; the message sits on end_date. */
export const dateRange = <T extends z.ZodType<{ start_date?: string; end_date?: string }>>(schema: T, message: string) =>
  schema.refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, { message, path: ['end_date'] });
