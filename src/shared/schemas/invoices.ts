import { z } from 'zod';
import { MSG, required } from '../messages.ts';
import { DIGITS, exportParam, listQuery, sortParams } from './common.ts';
import { namedRef, pageResponse } from './responses.ts';
import { padRow } from './pads.ts';
import { dateRange, id, optionalDate, optionalId, optionalLookupId, pickedId, wholeNumber } from './fields.ts';

export const MAX_PADS_PER_REQUEST = 1000;
export const MAX_RETURN_DAYS = 3650;

/** Messages of the invoice flows that the spec leaves unworded. */
export const INVOICE_MSG = {
  slipOnlyTransfers: 'A transmittal slip is printed for Issued, Return and Turnover invoices only.',
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
  assigneeInvalid: 'The selected user cannot be assigned: only active users with a role carry pads.',
  notInTransit: 'This invoice is no longer in transit.',
  onlyPendingDelete: 'Only pending invoices can be deleted.',
  endBeforeStart: 'End Date must be on or after Start Date',
  badDate: 'Use the date format YYYY-MM-DD',
  userInactive: 'This user is inactive and cannot be assigned.',
  courierConfirmed: 'Assigned user confirmed.',
  courierMismatch: 'This QR code does not belong to the user assigned to this invoice.',
  noCourier: 'This invoice has no assigned user.',
  notHeld: (names: string[]) => `Only pads in your custody can be moved; not in your custody: ${names.join(', ')}.`,
  alreadyInTransit: (names: string[]) => `Already in transit: ${names.join(', ')}. Reload and choose again.`,
  padsJustMoved: 'Some of these pads were just moved by another request. Reload and choose again.',
  branchMissing: 'The selected branch does not exist.',
  ownBranch: 'Choose a branch other than your own.',
  handOverNotInTransit: 'Only custody in transit can be handed over.',
  handOverForbidden: 'Only the assigned courier or a custodian can hand over this custody.',
  sameCourier: 'This user already has the custody. Choose the person taking it over.',
  changedHands: 'This custody changed hands meanwhile. Reload and try again.',
  acceptReturnForbidden: 'Only Accounting can accept a return.',
  acceptTurnoverForbidden: 'Only the custodian, head, supervisor or ticketing officer of the destination branch can accept a turnover.',
} as const;

/** An id picked from a select: "{label} is required", or "The selected {label} is invalid." past the largest id. */
const refId = (label: string) => pickedId(required(label), `The selected ${label} is invalid.`);

const dateParam = (label: string) =>
  optionalDate(label, { format: `${label}: ${INVOICE_MSG.badDate}`, invalid: `${label}: ${INVOICE_MSG.badDate}` });

/** The invoice list columns Transactions and Custodies sort by, named as the web's column keys. */
export const INVOICE_SORTS = ['type', 'pads', 'route', 'by', 'to', 'status', 'date', 'expected', 'assigned'] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];

export const invoiceListQuery = dateRange(
  listQuery.extend({
    ...sortParams(INVOICE_SORTS),
    ...exportParam,
    invoice_type: optionalLookupId,
    invoice_status: optionalLookupId,
    issuance_status: optionalLookupId,
    start_date: dateParam('Start Date'),
    end_date: dateParam('End Date'),
  }),
  INVOICE_MSG.endBeforeStart,
);
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const requestInvoiceSchema = z.object({
  branch_id: optionalId,
  route_id: refId('Route'),
  pads: wholeNumber('Number of Pads', { min: 1, max: MAX_PADS_PER_REQUEST }),
});
export type RequestInvoiceInput = z.input<typeof requestInvoiceSchema>;

export const issueInvoiceSchema = z.object({
  invoice_id: refId('Invoice'),
  branch_id: optionalId,
  route_id: optionalId,
  pads: z
    .array(id(), { error: INVOICE_MSG.selectPads })
    .min(1, INVOICE_MSG.selectPads)
    .max(MAX_PADS_PER_REQUEST, INVOICE_MSG.tooManyPads(MAX_PADS_PER_REQUEST)),
  assigned_user_id: refId('Assign to'),
  expected_return: wholeNumber('Expected Return (Days)', { min: 1, max: MAX_RETURN_DAYS }),
  user_id: optionalId,
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
  decoded_user_id: z.string({ error: MSG.emptyQr }).max(64),
});

export const personRef = z.object({ id: z.number(), full_name: z.string() }).meta({ id: 'PersonRef' });
export type PersonRef = z.infer<typeof personRef>;
export const routeRef = z.object({ id: z.number(), name: z.string(), tin: z.string(), company: namedRef }).meta({ id: 'RouteRef' });
export type RouteRef = z.infer<typeof routeRef>;

/** Shown when a Return or Turnover carries pads of several routes and so has no single route. */
export const MIXED_ROUTES = 'Mixed routes';

/**
 * One invoice as every list and details view shows it (docs/spec.md §3 Invoice): Transactions, Custodies and
 * Reports answer this same shape. `by`, `to`, `route_label` and `expected_return_text` are the screens'
 * column texts, decided once on the server (Expected Return counted in APP_TIMEZONE).
 */
export const invoiceRow = z
  .object({
    id: z.number(),
    invoice_type_id: z.number(),
    invoice_type: namedRef,
    invoice_status_id: z.number(),
    invoice_status: namedRef,
    user_id: z.number(),
    user: personRef.extend({ branch_id: z.number().nullable(), branch: namedRef.nullable() }),
    created_by: z.number(),
    creator: personRef,
    from_branch_id: z.number().nullable(),
    from_branch: namedRef.nullable(),
    branch_id: z.number().nullable(),
    branch: namedRef.nullable(),
    route_id: z.number().nullable(),
    route: routeRef.nullable(),
    assigned_user_id: z.number().nullable(),
    assigned_user: personRef.nullable(),
    assigned_to: z.string().nullable(),
    /** How many pads: requested for a Request, carried for the other types. */
    pads: z.number(),
    request_invoice_id: z.number().nullable(),
    expected_return_date: z.string().nullable(),
    accepted_by: z.number().nullable(),
    accepted_at: z.string().nullable(),
    created_at: z.string(),
    /** The branch the pads leave from, or "-". */
    by: z.string(),
    /** The destination branch, or "-". */
    to: z.string(),
    /** "Company - Route - TIN", or "Mixed routes" for a transfer of several routes. */
    route_label: z.string(),
    /** "-", "Overdue", "Due today" or "N days", counted in APP_TIMEZONE. */
    expected_return_text: z.string(),
  })
  .meta({ id: 'InvoiceRow' });
export type InvoiceRow = z.infer<typeof invoiceRow>;

export const activityRow = z
  .object({
    id: z.number(),
    invoice_id: z.number(),
    invoice_status_id: z.number(),
    invoice_status: namedRef,
    description: z.string(),
    location: z.string().nullable(),
    user: personRef.nullable(),
    assigned_user: personRef.nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'InvoiceActivity' });
export type ActivityRow = z.infer<typeof activityRow>;

export const invoiceDetail = invoiceRow
  .extend({
    /** The Issued invoice that fulfilled this request, if any. */
    issued_invoice_id: z.number().nullable(),
    /** Oldest first; an Issued invoice's history starts with its request's. */
    activities: z.array(activityRow),
    /** APP_TIMEZONE, the zone every date of the invoice is shown in. */
    time_zone: z.string(),
  })
  .meta({ id: 'Invoice' });
export type InvoiceDetail = z.infer<typeof invoiceDetail>;

/** A page of invoices (Transactions, Custodies, the Generate Report modal), with APP_TIMEZONE for its dates. */
export const invoicePage = pageResponse(invoiceRow).extend({ time_zone: z.string() }).meta({ id: 'InvoicePage' });
export type InvoicePage = z.infer<typeof invoicePage>;

/** A pad as the invoice pads tables show it. */
export const invoicePad = padRow
  .pick({
    id: true,
    route_id: true,
    number: true,
    series_number: true,
    series_from: true,
    series_to: true,
    pad_status_id: true,
    pad_status: true,
    issuance_status_id: true,
    issuance_status: true,
    remarks: true,
  })
  .extend({ route: routeRef })
  .meta({ id: 'InvoicePad' });
export type InvoicePad = z.infer<typeof invoicePad>;

/** docs/spec.md §3 "Invoice pad link". */
export const invoicePadLink = z.object({ invoice_id: z.number(), pad_id: z.number(), pad: invoicePad }).meta({ id: 'InvoicePadLink' });
export type InvoicePadLink = z.infer<typeof invoicePadLink>;

export const assignedUser = z
  .object({
    id: z.number(),
    full_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    role_id: z.number().nullable(),
    branch_id: z.number().nullable(),
  })
  .meta({ id: 'AssignedUser' });
export type AssignedUser = z.infer<typeof assignedUser>;

/** Spec get-invoice-assigned-user-id: 200 when the badge is the courier's, 422 with the same shape otherwise. */
export const invoiceAssignedUserCheck = z
  .object({
    status: z.boolean(),
    assigned_user_id: z.number().nullable(),
    message: z.string(),
    data: assignedUser.optional(),
  })
  .meta({ id: 'CourierCheck' });
export type InvoiceAssignedUserCheck = z.infer<typeof invoiceAssignedUserCheck>;
