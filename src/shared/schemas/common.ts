import { z } from 'zod';
import { MSG, required } from '../messages.ts';
import { EMAIL_PATTERN } from '../email-pattern.ts';
import { id, isoDateTime } from './fields.ts';

export const PROFILE_EMAIL_PATTERN = /^[\w.-]+@([\w-]+\.)+[\w-]{2,4}$/;
export const MOBILE_PATTERN = /^\d{11}$/;
export const PHONE_PATTERN = /^(\+?\d{1,3}[-.\s]?)?\d{3}[-.\s]?\d{3}[-.\s]?\d{4}$/;
export const LETTERS_AND_SPACES = /^[A-Za-z\s]+$/;
export const STRONG_PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;
export const DIGITS = /^\d+$/;

export const MAX_TEXT = 255;

const tooLong = (label: string, max: number) => `${label} may not be longer than ${max} characters`;

export const containsNul = (label: string) => `${label} may not contain a NUL character`;

/**
 * Every text the API takes passes here: PostgreSQL cannot store a NUL byte in text, so a NUL is
 * refused as bad input (422 naming the field) before any query sees it.
 */
export const text = (label: string, error: string = `${label} must be text`) =>
  z.string({ error }).refine((v) => !v.includes('\u0000'), { message: containsNul(label), abort: true });

/** A required, trimmed string whose messages name the field as the spec does. */
export const requiredText = (label: string, max = MAX_TEXT) =>
  text(label, required(label)).trim().min(1, required(label)).max(max, tooLong(label, max));

/** An optional string: empty input becomes null. */
export const optionalText = (label: string, max = MAX_TEXT) =>
  text(label)
    .trim()
    .max(max, tooLong(label, max))
    .nullish()
    .transform((v) => (v ? v : null));

export const emailField = (label = 'Email', message: string = MSG.invalidEmail, pattern = EMAIL_PATTERN) =>
  requiredText(label)
    .regex(pattern, message)
    .transform((v) => v.toLowerCase());

export const idParam = z.object({ id: id() });

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  search: text('Search').trim().max(200).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/** docs/design.md §10 Export: a list answers its matching rows as a file in one of these formats. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The `format` parameter of an exportable list: absent for the JSON page, csv or xlsx for the file of all matching rows. */
export const exportParam = { format: z.enum(EXPORT_FORMATS, { error: 'The format must be csv or xlsx.' }).optional() };

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * Optional column sorting of a list (docs/user-guide.md "Screens", Transactions): `sort` names one of the list's whitelisted columns and
 * `order` is asc (the default) or desc; without `sort` the list keeps its own order. Anything else is a 422.
 */
export const sortParams = <K extends string>(keys: readonly [K, ...K[]]) => ({
  sort: z.enum(keys, { error: `Sort must be one of: ${keys.join(', ')}` }).optional(),
  order: z.enum(SORT_ORDERS, { error: 'Order must be asc or desc' }).optional(),
});

/** Lists count their rows up to this bound and say "10,000+" above it, so no request scans a whole table. */
export const COUNT_CAP = 10_000;

/**
 * Lists count at most this many rows exactly (issue 39); past it `total` is the planner's estimate ("about 4,500"),
 * still bounded by COUNT_CAP, so a count reads no more rows than a few pages show.
 */
export const EXACT_COUNT = 1_000;

export interface Paginated<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  /** True when more rows than COUNT_CAP match: `total` is then the bound, and `last_page` the bound's last page. */
  total_capped: boolean;
  /** True when more rows than EXACT_COUNT match: `total` is then the planner's estimate, not a count. */
  total_is_estimate: boolean;
}

export interface NamedRef {
  id: number;
  name: string;
}

/** The query of a signed, short-lived file address: lets a new tab or frame open it without the bearer token. */
export const signedUrlQuery = z.object({
  user: z.string().max(20).optional(),
  expires: z.string().max(20).optional(),
  signature: z.string().max(100).optional(),
});

/** A signed, short-lived address for the browser to open. */
export const signedUrl = z.object({ url: z.string() }).meta({ id: 'SignedLink' });

export const IDEMPOTENCY_MSG = {
  reused: 'This Idempotency-Key was already used for another action.',
  otherRequest: (key: string) => `Idempotency-Key ${key} was already used for a different request; use a new key`,
  keyFormat: 'The Idempotency-Key must be 8 to 100 letters, digits, dashes or underscores',
} as const;

/**
 * docs/design.md §4: the header a device sends with an action it may send again (an offline queue); the same key
 * gets the stored answer and changes nothing.
 */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\w-]{8,100}$/, IDEMPOTENCY_MSG.keyFormat)
    .optional()
    .describe('A key the device made for this action; a retry with the same key is answered as the first time'),
});

/** The phone's clock when the action was recorded there: a queued action carries it to the server (docs/design.md §5). */
export const deviceTime = isoDateTime('The device time must be an ISO date and time')
  .optional()
  .describe('When the device recorded the action (a badge scan, a queued action); the server keeps its own time too');
