import { z } from 'zod';
import { requiredText } from './common.ts';
import { id, isoDate, optionalId, refId, wholeNumber } from './fields.ts';
import { OUTAGE_CAUSES } from './outages.ts';

/** The largest receipt number (pads.ts MAX_SERIES_NUMBER). */
const MAX_PAPER_NUMBER = 999_999_999_999_999;
/** Items of one POST outages/{id}/replacements: a JSON body is at most 1 MiB anyway. */
export const MAX_REPLACEMENT_ITEMS = 5000;

/**
 * The header of a replacements import file, in order; `route` is needed only for a paper number two routes used during
 * the outage (a route's name or TIN, as the pads import takes it).
 */
export const REPLACEMENT_COLUMNS = ['paper number', 'e-invoice number', 'date transmitted'] as const;
export const REPLACEMENT_ROUTE_COLUMN = 'route';

export const REPLACEMENT_MSG = {
  saved: (n: number) => (n === 1 ? 'One replacement e-invoice saved' : `${n} replacement e-invoices saved`),
  nothingNew: 'These replacement e-invoices were already recorded',
  outageMissing: 'Outage not found.',
  hasErrors: (n: number) => `${n} ${n === 1 ? 'row has an error' : 'rows have errors'}: nothing was stored`,
  notUsed: (number: number) => `Paper number ${number} was not used during this outage`,
  notUsedOnRoute: (number: number) => `Paper number ${number} was not used on this route during this outage`,
  ambiguous: (number: number, routes: string) =>
    `Paper number ${number} was used on several routes during this outage (${routes}): give the route`,
  alreadyMapped: (number: number, einvoice: string) => `Paper number ${number} already has e-invoice ${einvoice}`,
  twiceInFile: (number: number, line: string) => `Paper number ${number} is already given ${line} with another e-invoice`,
  beforeUse: (number: number, day: string) => `The e-invoice cannot be transmitted before paper number ${number} was used (${day})`,
  future: 'The date transmitted cannot be after today',
  routeUnknown: (value: string) => `No route has the TIN or name "${value}"`,
  missingColumn: (column: string) => `The header has no column "${column}"`,
  unknownColumn: (column: string) => `Unknown column "${column}"`,
  required: (column: string) => `${column} is required`,
  wholeNumber: (column: string) => `${column} must be a whole number`,
  date: (column: string) => `${column} must be a date (YYYY-MM-DD)`,
  tooLong: (column: string, max: number) => `${column} may not be longer than ${max} characters`,
} as const;

const EINVOICE_MAX = 60;

/** One paper number's replacement: the route only when two routes used the number during the outage. */
export const replacementItem = z.object({
  paper_number: wholeNumber('Paper number', { min: 0, max: MAX_PAPER_NUMBER }),
  route_id: optionalId,
  einvoice_number: requiredText('E-invoice number', EINVOICE_MAX),
  transmitted_on: isoDate('Date transmitted'),
});
export type ReplacementItem = z.output<typeof replacementItem>;
export const EINVOICE_NUMBER_MAX = EINVOICE_MAX;

/** POST outages/{id}/replacements: e-invoice numbers entered by hand, all stored or none. */
export const replacementsInput = z.object({
  items: z
    .array(replacementItem, { error: 'Items must be a list' })
    .min(1, 'Give at least one paper number')
    .max(MAX_REPLACEMENT_ITEMS, `At most ${MAX_REPLACEMENT_ITEMS} paper numbers at once`),
});
export type ReplacementsInput = z.output<typeof replacementsInput>;

export const outageIdParam = z.object({ id: id() });

/** POST outages/{id}/replacements/import as multipart/form-data, as /api/docs describes it. */
export const replacementsImportForm = z.object({
  file: z
    .string()
    .meta({ format: 'binary' })
    .describe('A CSV (UTF-8) or .xlsx with the header "paper number,e-invoice number,date transmitted" (and "route" where needed)'),
});

const ref = z.object({ id: z.number(), name: z.string() });

/** One paper number used during an outage, with its replacement e-invoice, or pending. */
export const replacementRowSchema = z.object({
  paper_number: z.number(),
  route: ref,
  pad: z.object({ id: z.number(), number: z.number() }),
  business_date: z.string(),
  einvoice_number: z.string().nullable(),
  transmitted_on: z.string().nullable(),
  entered_by: ref.nullable(),
  status: z.enum(['entered', 'pending']),
});
export type ReplacementRow = z.infer<typeof replacementRowSchema>;

/** GET outages/{id}/replacements. */
export const replacementsSchema = z
  .object({
    outage: z.object({ id: z.number(), branch: ref, starts_at: z.string(), ends_at: z.string().nullable() }),
    numbers: z.array(replacementRowSchema),
    totals: z.object({ numbers: z.number(), entered: z.number(), pending: z.number() }),
  })
  .meta({ id: 'OutageReplacements' });
export type Replacements = z.infer<typeof replacementsSchema>;

export const SUMMARY_FORMATS = ['json', 'pdf', 'csv', 'xlsx'] as const;
export type SummaryFormat = (typeof SUMMARY_FORMATS)[number];

export const SUMMARY_MSG = {
  branchMissing: 'Branch not found.',
  notEstablishment: (branch: string) => `${branch} has no e-invoicing details: set them under the branch first.`,
  toBeforeFrom: 'To may not come before From',
  tooLong: 'The period may be at most 366 days',
} as const;

/** GET paper-use: the summary list of one establishment for the days from..to (APP_TIMEZONE), inclusive. */
export const summaryQuery = z
  .object({
    branch_id: refId('Establishment'),
    from: isoDate('From'),
    to: isoDate('To'),
    format: z.enum(SUMMARY_FORMATS, { error: 'The format must be json, pdf, csv or xlsx.' }).default('json'),
  })
  .refine((q) => q.from <= q.to, { message: SUMMARY_MSG.toBeforeFrom, path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 365 * 86_400_000, { message: SUMMARY_MSG.tooLong, path: ['to'] });
export type SummaryQuery = z.output<typeof summaryQuery>;

const paperRange = z.object({
  route: ref,
  pad: z.object({ id: z.number(), number: z.number() }),
  from: z.number(),
  to: z.number(),
  qty: z.number(),
  used_at: z.string(),
  holder: ref.nullable(),
});

export const summarySchema = z
  .object({
    establishment: z.object({
      branch: ref,
      bir_branch_code: z.string(),
      covered: z.boolean(),
      e_invoicing_since: z.string().nullable(),
      permit_reference: z.string().nullable(),
      invoicing_system: z.string().nullable(),
    }),
    period: z.object({ from: z.string(), to: z.string(), time_zone: z.string() }),
    outages: z.array(
      z.object({
        id: z.number(),
        starts_at: z.string(),
        ends_at: z.string().nullable(),
        cause: z.enum(OUTAGE_CAUSES),
        cause_label: z.string(),
        details: z.string().nullable(),
        notice_reference: z.string().nullable(),
        declared_by: ref,
        ranges: z.array(paperRange),
        qty: z.number(),
        replacements: z.array(z.object({ paper_number: z.number(), route: ref, einvoice_number: z.string(), transmitted_on: z.string() })),
        pending: z.number(),
      }),
    ),
    exceptions: z.array(
      paperRange.extend({
        id: z.number(),
        state: z.enum(['open', 'justified', 'rejected']),
        reason_code: z.string().nullable(),
        reason_label: z.string().nullable(),
        reason_text: z.string().nullable(),
        decided_by: ref.nullable(),
        decided_at: z.string().nullable(),
      }),
    ),
    totals: z.object({
      /** Paper numbers used inside the outages, in the period. */
      outage_numbers: z.number(),
      /** Paper numbers used outside every outage (exceptions, whatever their decision), in the period. */
      exception_numbers: z.number(),
      total: z.number(),
      /** The ledger's `used` numbers at the establishment (its stock and its people's) on the period's days from go-live, still used. */
      ledger_used: z.number(),
      matches: z.boolean(),
    }),
  })
  .meta({ id: 'PaperUseSummary' });
export type PaperUseSummary = z.infer<typeof summarySchema>;
