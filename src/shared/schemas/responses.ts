import { z } from 'zod';

/** The envelopes of docs/design.md §4; routes declare them so /api/docs shows every answer and nothing else is sent. */
export const namedRef = z.object({ id: z.number(), name: z.string() }).meta({ id: 'NamedRef' });

export const messageResponse = z.object({ message: z.string() }).meta({ id: 'Message' });

/** One record or a plain list: `{ data }`. */
export const dataResponse = <T extends z.ZodType>(data: T) => z.object({ data });

/** A whole list: `{ data: [...] }`. */
export const listResponse = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row) });

/** Create and update: `{ message, data }`. */
export const savedResponse = <T extends z.ZodType>(data: T) => z.object({ message: z.string(), data });

/** A page of a list. */
export const pageResponse = <T extends z.ZodType>(row: T) =>
  z.object({
    data: z.array(row),
    current_page: z.number(),
    last_page: z.number(),
    per_page: z.number(),
    total: z.number(),
    total_capped: z.boolean().describe('true when more rows match than the count bound (10,000): total is the bound'),
    total_is_estimate: z
      .boolean()
      .describe('true when more rows match than are counted exactly (1,000): total is the database\'s estimate, shown as "about N"'),
  });

/** The bytes of a generated file (never serialised). */
const fileBytes = z.string().meta({ format: 'binary' });

/** A PDF sent as bytes: declared so /api/docs names the content type. */
export const pdfResponse = {
  description: 'A PDF document',
  content: { 'application/pdf': { schema: fileBytes } },
};

/**
 * An answer whose content type follows the `format` query parameter: JSON by default, the same figures as a
 * PDF or a CSV file on request.
 */
export const formatResponse = <T extends z.ZodType>(json: T, what: string) => ({
  description: `${what}: JSON without \`format\`; with \`format=pdf\` the PDF, with \`format=csv\` a CSV file (UTF-8, one row per line).`,
  content: {
    'application/json': { schema: json },
    'application/pdf': { schema: fileBytes },
    'text/csv': { schema: z.string() },
  },
});

/** The .xlsx content type (Office Open XML spreadsheet). */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * An exportable list's answer (docs/design.md §10): the JSON page without `format`; with `format=csv` or
 * `format=xlsx` the file of every matching row, as an attachment.
 */
export const exportableResponse = <T extends z.ZodType>(json: T, what: string) => ({
  description: `${what}: a JSON page without \`format\`; with \`format=csv\` (UTF-8 with BOM, RFC 4180) or \`format=xlsx\` a file of all matching rows, with the screen's columns.`,
  content: {
    'application/json': { schema: json },
    'text/csv': { schema: z.string() },
    [XLSX_CONTENT_TYPE]: { schema: fileBytes },
  },
});

/** What the error handler answers: a message, and for bad input the messages per field. */
export const errorResponse = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() })
  .meta({ id: 'Error', description: 'What went wrong, in words a user can read; `errors` lists the messages per input field (422).' });

/** The one table of error answers (docs/design.md §4); each route's list is made from it. */
export const ERROR_TABLE = {
  400: 'The request body is not valid JSON (malformed, or empty with a JSON content type).',
  401: 'Not signed in: no valid bearer token (or, where a signed link is accepted, no link either).',
  403: 'Signed in, but not allowed to do this (or the signed link is invalid or expired).',
  404: 'No such record.',
  409: 'Conflict: the record changed state, is in use, or overlaps another.',
  413: 'The request body is larger than 1 MiB.',
  414: 'A path parameter is longer than the router takes (100 characters).',
  415: 'The request body has a content type other than application/json.',
  422: 'Invalid input: `errors` names each field with its messages.',
  429: 'Too many requests: try again after the seconds in `Retry-After`.',
  431: 'The request headers are larger than the server reads (16 KiB); the connection is closed after this answer.',
  500: 'An unexpected server error; details are in the server log only.',
  503: 'The database is not available right now: try again after the seconds in `Retry-After`.',
} as const;

export type ErrorStatus = keyof typeof ERROR_TABLE;

/** The documented answer for one error status, from ERROR_TABLE. */
export const errorAnswer = (status: ErrorStatus) => ({
  description: ERROR_TABLE[status],
  content: { 'application/json': { schema: errorResponse } },
});

const errorAnswers = (statuses: readonly ErrorStatus[]) => Object.fromEntries(statuses.map((status) => [status, errorAnswer(status)]));

/**
 * A route's answers when it succeeds with 200, and the error statuses its own rules give (403, 404, 409, 422
 * from the service). Statuses that follow from the route's definition (401 for a guard, 422 for input, 400/413/415
 * for a body, 429 for a rate limit, 500/503 for all) are added when the route is registered.
 */
export const ok = <T extends z.ZodType | { description: string; content: Record<string, { schema: z.ZodType }> }>(
  schema: T,
  ...errors: ErrorStatus[]
) => ({
  200: schema,
  ...errorAnswers(errors),
});

/** A route's answers when it creates with 201, and the error statuses its own rules give. */
export const created = <T extends z.ZodType>(schema: T, ...errors: ErrorStatus[]) => ({ 201: schema, ...errorAnswers(errors) });
