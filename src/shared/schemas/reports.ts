import { z } from 'zod';
import { listQuery, optionalText } from './common.ts';

/** Most invoices one report may cover; keeps the PDF, the signed preview address and the transaction bounded. */
export const MAX_REPORT_INVOICES = 1000;
export const MAX_REMARKS = 2000;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const isoDate = (label: string) =>
  z
    .string()
    .trim()
    .regex(DATE_PATTERN, `${label} must be a date (YYYY-MM-DD)`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), `${label} is not a valid date`);

const optionalDate = (label: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), isoDate(label).optional());

export const completedInvoicesQuery = listQuery;

export const reportListQuery = listQuery
  .extend({ start_date: optionalDate('Start Date'), end_date: optionalDate('End Date') })
  .refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, {
    message: 'End Date must not be before Start Date',
    path: ['end_date'],
  });
export type ReportListQuery = z.infer<typeof reportListQuery>;

const invoiceId = z.coerce
  .number({ error: 'Each invoice must be an id' })
  .int('Each invoice must be an id')
  .positive('Each invoice must be an id')
  .max(2_147_483_647, 'Each invoice must be an id');

const invoiceIdsField = z
  .array(invoiceId, { error: 'Please select at least one invoice' })
  .min(1, 'Please select at least one invoice')
  .max(MAX_REPORT_INVOICES, `A report may cover at most ${MAX_REPORT_INVOICES} invoices`)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

export const reportPreviewSchema = z.object({ invoice_ids: invoiceIdsField });

/** `data` is accepted for the spec's payload shape and never used: the server renders the PDF itself. */
export const createReportSchema = z.object({
  invoice_ids: invoiceIdsField,
  remarks: optionalText('Remarks', MAX_REMARKS),
  data: z.unknown().optional(),
});
export type CreateReportInput = z.input<typeof createReportSchema>;

interface Ref {
  id: number;
  name: string;
}

/** A row of the Generate Report modal: the fields of an invoice list row. */
export interface CompletedInvoiceRow {
  id: number;
  invoice_type_id: number;
  invoice_type: Ref;
  invoice_status_id: number;
  invoice_status: Ref;
  user_id: number;
  user: { id: number; full_name: string; branch_id: number | null; branch: Ref | null };
  from_branch_id: number | null;
  from_branch: Ref | null;
  branch_id: number | null;
  branch: Ref | null;
  route_id: number | null;
  route: { id: number; name: string; tin: string; company: Ref } | null;
  assigned_user: { id: number; full_name: string } | null;
  assigned_to: string | null;
  pads: number;
  expected_return_date: string | null;
  accepted_at: string | null;
  created_at: string;
}

export interface ReportRow {
  id: number;
  number: string;
  total_invoice: number;
  remarks: string | null;
  period_from: string | null;
  period_to: string | null;
  generated_by_user: { id: number; full_name: string };
  created_at: string;
  /** A short-lived signed address where the PDF is served. */
  data: string;
}

export interface ReportPreview {
  preview_url: string;
}
