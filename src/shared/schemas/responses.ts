import { z } from 'zod';

/** The envelopes of docs/design.md §4; routes declare them so /api/docs shows every answer and nothing else is sent. */
export const namedRef = z.object({ id: z.number(), name: z.string() });

export const messageResponse = z.object({ message: z.string() });

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
  });

/** A PDF sent as bytes (never serialised): declared so /api/docs names the content type. */
export const pdfResponse = {
  description: 'A PDF document',
  content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
};

/** What the error handler answers: a message, and for bad input the messages per field. */
export const errorResponse = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() });

/** The 4xx answers every route may give (401 before anything else on guarded routes). */
export const ERROR_RESPONSES = {
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  422: errorResponse,
  429: errorResponse,
} as const;

/** A route's answers when it succeeds with 200. */
export const ok = <T extends z.ZodType | typeof pdfResponse>(schema: T) => ({ 200: schema, ...ERROR_RESPONSES });

/** A route's answers when it creates with 201. */
export const created = <T extends z.ZodType>(schema: T) => ({ 201: schema, ...ERROR_RESPONSES });
