import { z } from 'zod';
import { exportParam, listQuery, optionalText, sortParams } from './common.ts';
import { dateRange, id, optionalDate } from './fields.ts';

/** Most invoices one report may cover; keeps the PDF, the signed preview address and the transaction bounded. */
export const MAX_REPORT_INVOICES = 1000;
export const MAX_REMARKS = 2000;

/** Messages of the reports flows that the spec leaves unworded. */
export const REPORT_MSG = {
  created: 'Report generated successfully',
  linkInvalid: 'This report link is not valid. Open the report again from the Reports screen.',
  linkExpired: 'This report link has expired. Open the report again from the Reports screen.',
  reportNotFound: 'Report not found.',
  previewStale: 'These invoices can no longer be reported together. Select the invoices again.',
  alreadyReported: 'One of these invoices was just put into another report. Select the invoices again.',
  endBeforeStart: 'End Date must not be before Start Date',
  invoiceId: 'Each invoice must be an id',
  selectInvoice: 'Please select at least one invoice',
  tooManyInvoices: `A report may cover at most ${MAX_REPORT_INVOICES} invoices`,
} as const;

export const completedInvoicesQuery = listQuery;

/** The Reports columns the list sorts by. */
export const REPORT_SORTS = ['number', 'total', 'by', 'date'] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];

export const reportListQuery = dateRange(
  listQuery.extend({
    ...sortParams(REPORT_SORTS),
    ...exportParam,
    start_date: optionalDate('Start Date'),
    end_date: optionalDate('End Date'),
  }),
  REPORT_MSG.endBeforeStart,
);
export type ReportListQuery = z.infer<typeof reportListQuery>;

const invoiceIdsField = z
  .array(id(REPORT_MSG.invoiceId), { error: REPORT_MSG.selectInvoice })
  .min(1, REPORT_MSG.selectInvoice)
  .max(MAX_REPORT_INVOICES, REPORT_MSG.tooManyInvoices)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

export const reportPreviewSchema = z.object({ invoice_ids: invoiceIdsField });

/** `data` is accepted for the spec's payload shape and never used: the server renders the PDF itself. */
export const createReportSchema = z.object({
  invoice_ids: invoiceIdsField,
  remarks: optionalText('Remarks', MAX_REMARKS),
  data: z.unknown().optional(),
});
export type CreateReportInput = z.input<typeof createReportSchema>;

export const reportRow = z
  .object({
    id: z.number(),
    number: z.string(),
    total_invoice: z.number(),
    remarks: z.string().nullable(),
    period_from: z.string().nullable(),
    period_to: z.string().nullable(),
    generated_by_user: z.object({ id: z.number(), full_name: z.string() }),
    created_at: z.string(),
    /** A short-lived signed address where the PDF is served. */
    data: z.string(),
  })
  .meta({ id: 'Report' });
export type ReportRow = z.infer<typeof reportRow>;

export const reportPreview = z.object({ preview_url: z.string() }).meta({ id: 'ReportPreviewLink' });
export type ReportPreview = z.infer<typeof reportPreview>;
