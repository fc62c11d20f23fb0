import { z } from 'zod';
import { invalidFormat, required } from '../messages.ts';

/** The largest value of PostgreSQL's integer: ids, pad numbers. A bigger one names no row. */
export const MAX_ID = 2_147_483_647;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** An id as JSON or a query string carries it; every failure says `message` when one is given. */
export const id = (message?: string, tooLarge: string | undefined = message) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, tooLarge);

/** An id picked in a select: empty, zero, junk or too large all say `message`, as the spec's forms do. */
export const pickedId = (message: string, tooLarge: string = message) => z.preprocess(emptyToUndefined, id(message, tooLarge));

/** A reference picked in a form: "{label} is required" whatever is wrong with it. */
export const refId = (label: string) => pickedId(required(label));

/** An optional id filter of a list query; an empty value means no filter. */
export const optionalId = z.preprocess(emptyToUndefined, id().optional());

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
}

/** True for a real day of the calendar: 2026-02-30 would roll over to March, so it is not one. */
export const isCalendarDate = (value: string) => {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
};

/** A calendar date written YYYY-MM-DD; messages name the field ("Start Date is not a valid date"). */
export const isoDate = (label: string, messages: Partial<DateMessages> = {}) =>
  z
    .string({ error: messages.format ?? `${label} must be a date (YYYY-MM-DD)` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: messages.format ?? `${label} must be a date (YYYY-MM-DD)`, abort: true })
    .refine(isCalendarDate, messages.invalid ?? `${label} is not a valid date`);

/** An optional date filter; an empty value means no filter. */
export const optionalDate = (label: string, messages: Partial<DateMessages> = {}) =>
  z.preprocess(emptyToUndefined, isoDate(label, messages).optional());

/** A query with `start_date` and `end_date`: the end may not come before the start; the message sits on end_date. */
export const dateRange = <T extends z.ZodType<{ start_date?: string; end_date?: string }>>(schema: T, message: string) =>
  schema.refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, { message, path: ['end_date'] });
