import { z } from 'zod';
import { MSG, invalidFormat, required } from '../messages.ts';
import { DIGITS, listQuery, type NamedRef, type Paginated } from './common.ts';

const MAX_ID = 2_147_483_647;
export const MAX_PADS_PER_REQUEST = 1000;
export const MAX_RETURN_DAYS = 3650;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Messages of the invoice flows that the spec leaves unworded. */
export const INVOICE_MSG = {
  requested: 'Request invoice created successfully',
  issued: 'Invoice issued successfully',
  accepted: 'Invoice accepted successfully',
  deleted: 'Invoice deleted successfully',
  notFound: 'Invoice not found.',
  routeMissing: 'The selected Route does not exist.',
  headOfficeOnly: 'Requests can only be sent to the head office.',
  headOfficeMissing: 'The head office branch does not exist yet. Ask an administrator to add it.',
  notARequest: 'Only a Request invoice can be issued.',
  alreadyIssued: 'This request has already been issued.',
  requesterMismatch: 'The requester does not match the request.',
  routeMismatch: 'The route does not match the request.',
  selectPads: 'Please select at least one pad',
  tooManyPads: (n: number) => `You may issue at most ${n} ${n === 1 ? 'pad' : 'pads'} for this request.`,
  padsNotAvailable: 'Some of the selected pads are not available for this route.',
  padsTaken: 'Some of the selected pads were just taken by another invoice. Please choose again.',
  assigneeInvalid: 'The selected user cannot be assigned.',
  notInTransit: 'This invoice is no longer in transit.',
  onlyPendingDelete: 'Only pending invoices can be deleted.',
  endBeforeStart: 'End Date must be on or after Start Date',
  badDate: 'Use the date format YYYY-MM-DD',
  userInactive: 'This user is inactive and cannot be assigned.',
  courierConfirmed: 'Assigned user confirmed.',
  courierMismatch: 'This QR code does not belong to the user assigned to this invoice.',
  noCourier: 'This invoice has no assigned user.',
} as const;

const id = () => z.coerce.number().int().positive().max(MAX_ID);
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const optionalId = () => z.preprocess(emptyToUndefined, id().optional());

/** An id picked from a select: numbers or numeric strings, the spec's "{label} is required" otherwise. */
const refId = (label: string) =>
  z.coerce
    .number({ error: required(label) })
    .int(required(label))
    .positive(required(label))
    .max(MAX_ID, `The selected ${label} is invalid.`);

/** A count typed into a text box: required, digits only, within bounds; sent as a number or a string. */
const wholeNumber = (label: string, min: number, max: number) =>
  z
    .union([z.number(), z.string()], { error: required(label) })
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    .pipe(
      z
        .string()
        .min(1, { message: required(label), abort: true })
        .max(12, { message: invalidFormat(label), abort: true })
        .regex(DIGITS, invalidFormat(label))
        .transform(Number)
        .pipe(z.number().min(min, `${label} must be at least ${min}`).max(max, `${label} may not be greater than ${max}`)),
    );

const dateParam = (label: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(DATE, `${label}: ${INVOICE_MSG.badDate}`)
      .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), `${label}: ${INVOICE_MSG.badDate}`)
      .optional(),
  );

export const invoiceListQuery = listQuery
  .extend({
    invoice_type: optionalId(),
    invoice_status: optionalId(),
    issuance_status: optionalId(),
    start_date: dateParam('Start Date'),
    end_date: dateParam('End Date'),
  })
  .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
    message: INVOICE_MSG.endBeforeStart,
    path: ['end_date'],
  });
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const requestInvoiceSchema = z.object({
  branch_id: optionalId(),
  route_id: refId('Route'),
  pads: wholeNumber('Number of Pads', 1, MAX_PADS_PER_REQUEST),
});
export type RequestInvoiceInput = z.input<typeof requestInvoiceSchema>;

export const issueInvoiceSchema = z.object({
  invoice_id: refId('Invoice'),
  branch_id: optionalId(),
  route_id: optionalId(),
  pads: z
    .array(id(), { error: INVOICE_MSG.selectPads })
    .min(1, INVOICE_MSG.selectPads)
    .max(MAX_PADS_PER_REQUEST, INVOICE_MSG.tooManyPads(MAX_PADS_PER_REQUEST)),
  assigned_user_id: refId('Assign to'),
  expected_return: wholeNumber('Expected Return (Days)', 1, MAX_RETURN_DAYS),
  user_id: optionalId(),
});
export type IssueInvoiceInput = z.input<typeof issueInvoiceSchema>;

/** A scanned badge number as it arrives: the spec's client-side checks, repeated on the server. */
export const scannedCode = z
  .string({ error: MSG.emptyQr })
  .trim()
  .min(1, { message: MSG.emptyQr, abort: true })
  .max(32, { message: MSG.qrInvalidBadge, abort: true })
  .regex(DIGITS, MSG.qrNotNumber);

export const assignedUserParams = z.object({ code: z.string().max(64) });

export const invoiceAssignedUserQuery = z.object({
  invoice_id: refId('Invoice'),
  decoded_user_id: z.string().max(64).optional(),
});

export interface PersonRef {
  id: number;
  full_name: string;
}

export interface RouteRef {
  id: number;
  name: string;
  tin: string;
  company: { id: number; name: string };
}

/** One invoice as lists and the details view show it (spec §3 Invoice). */
export interface InvoiceRow {
  id: number;
  invoice_type_id: number;
  invoice_type: NamedRef;
  invoice_status_id: number;
  invoice_status: NamedRef;
  user_id: number;
  user: PersonRef & { branch_id: number | null; branch: NamedRef | null };
  created_by: number;
  creator: PersonRef;
  from_branch_id: number | null;
  from_branch: NamedRef | null;
  branch_id: number | null;
  branch: NamedRef | null;
  route_id: number | null;
  route: RouteRef | null;
  assigned_user_id: number | null;
  assigned_user: PersonRef | null;
  assigned_to: string | null;
  /** How many pads: requested for a Request, carried for the other types. */
  pads: number;
  request_invoice_id: number | null;
  expected_return_date: string | null;
  accepted_by: number | null;
  accepted_at: string | null;
  created_at: string;
}

export interface ActivityRow {
  id: number;
  invoice_id: number;
  invoice_status_id: number;
  invoice_status: NamedRef;
  description: string;
  location: string | null;
  user: PersonRef | null;
  assigned_user: PersonRef | null;
  created_at: string;
}

export interface InvoiceDetail extends InvoiceRow {
  /** The Issued invoice that fulfilled this request, if any. */
  issued_invoice_id: number | null;
  /** Oldest first; an Issued invoice's history starts with its request's. */
  activities: ActivityRow[];
  /** APP_TIMEZONE, so the client counts Expected Return days as the server does. */
  time_zone: string;
}

/** The Transactions list page, with APP_TIMEZONE for the Expected Return column. */
export interface InvoicePage extends Paginated<InvoiceRow> {
  time_zone: string;
}

/** A pad as the invoice pads tables show it. */
export interface InvoicePad {
  id: number;
  route_id: number;
  route: RouteRef;
  number: number;
  series_number: string;
  series_from: number;
  series_to: number;
  pad_status_id: number;
  pad_status: NamedRef;
  issuance_status_id: number;
  issuance_status: NamedRef;
  remarks: string | null;
}

/** Spec §3 "Invoice pad link". */
export interface InvoicePadLink {
  invoice_id: number;
  pad_id: number;
  pad: InvoicePad;
}

export interface AssignedUser {
  id: number;
  full_name: string;
  first_name: string;
  last_name: string;
  role_id: number | null;
  branch_id: number | null;
}

export interface InvoiceAssignedUserCheck {
  status: boolean;
  assigned_user_id: number | null;
  message: string;
  data?: AssignedUser;
}
