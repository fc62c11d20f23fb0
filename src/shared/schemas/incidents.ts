import { z } from 'zod';
import { required } from '../messages.ts';
import { deviceTime, exportParam, listQuery, text } from './common.ts';
import { id, isDateInRange, optionalDate } from './fields.ts';
import { MAX_SERIES_NUMBER } from './pads.ts';
import { INCIDENT_STATUSES } from '../lookups.ts';

/** The papers a loss is proved with (COA Circular 84-233; BIR practice). Each is a multipart file field of this name. */
export const ATTACHMENT_KINDS = ['affidavit', 'police_report', 'tax_office_receipt', 'other'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];
export const ATTACHMENT_LABELS: Record<AttachmentKind, string> = {
  affidavit: 'Affidavit of loss',
  police_report: 'Police report',
  tax_office_receipt: 'Tax office receiving copy',
  other: 'Other document',
};
/** The date field that goes with a kind of attachment, where the paper carries one. */
export const ATTACHMENT_DATE_FIELDS = { affidavit: 'affidavit_notarised_on', tax_office_receipt: 'tax_office_received_on' } as const;

export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENTS = 6;
/** Attachment types, told by the file's first bytes, never by its name or declared type. */
export const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export const MAX_INCIDENT_PADS = 100;

export const INCIDENT_MSG = {
  reported: (number: string) => `Loss incident ${number} reported`,
  confirmed: (number: string) => `Loss incident ${number} confirmed; the Notice of Loss was sent`,
  rejected: (number: string) => `Loss incident ${number} rejected`,
  foundRecorded: 'Found numbers recorded; a second user (Custodian or Accounting) must confirm them.',
  foundConfirmed: 'Found numbers are back in stock',
  notFound: 'Loss incident not found.',
  attachmentMissing: 'Attachment not found.',
  padsRequired: 'Choose at least one pad',
  padsFormat: 'Pads must be a list of { pad_id, from?, to? }',
  tooManyPads: `At most ${MAX_INCIDENT_PADS} pads per incident`,
  placeRequired: required('Place'),
  occurredRequired: required('Approximate date and time'),
  occurredFormat: 'Approximate date and time must be a date and time',
  occurredFuture: 'Approximate date and time cannot be in the future',
  circumstancesRequired: required('Circumstances'),
  mayNotReport: 'You can only report a loss of pads you hold or carry.',
  notYourPad: (padNumber: number) => `You do not hold or carry pad ${padNumber}.`,
  nothingLeft: (padNumber: number) => `Pad ${padNumber} has no unused numbers in that range to lose.`,
  alreadyReported: (number: number, incident: string) => `Number ${number} is already on loss incident ${incident}.`,
  notReported: 'Only a reported incident can be confirmed or rejected.',
  notConfirmed: 'Numbers can be found only on a confirmed incident.',
  ownReport: 'You reported this loss; another approver must confirm or reject it.',
  ownFound: 'You recorded these found numbers; a second user must confirm them.',
  foundDone: 'These found numbers have already been confirmed.',
  notLostHere: (number: number) => `Number ${number} is not lost on this incident.`,
  reinstatePadFirst: (padNumber: number, state: 'cancelled' | 'lost') =>
    `Pad ${padNumber} is ${state} as a whole. Reinstate the pad first (set its status back on Edit Pad), then record its numbers found.`,
  fileTooLarge: (name: string) => `${name} is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB`,
  fileType: (name: string) => `${name} is not a PDF, PNG or JPEG file`,
  tooManyFiles: `At most ${MAX_ATTACHMENTS} attachments`,
  unknownFileField: (field: string) => `Unknown attachment field ${field}`,
  noAffidavitReasonRequired: 'No affidavit of loss is attached: give the reason, e.g. "Affidavit to follow".',
} as const;

/** What the Notice of Loss prints when a loss is confirmed before its affidavit is attached. */
export const AFFIDAVIT_TO_FOLLOW = 'Affidavit to follow';

/** POST loss-incidents/{id}/confirm: without an affidavit of loss among the papers, the approver says why (printed on the notice). */
export const confirmLossSchema = z.object({
  no_affidavit_reason: text('Reason')
    .trim()
    .max(500, 'Reason must be at most 500 characters')
    .nullish()
    .transform((v) => v || null),
});
export type ConfirmLossInput = z.output<typeof confirmLossSchema>;

/** One pad of an incident: the whole pad, or from..to of it. */
export const incidentPadInput = z
  .object({
    pad_id: id(INCIDENT_MSG.padsFormat),
    from: z.number().int().min(0).max(MAX_SERIES_NUMBER).optional(),
    to: z.number().int().min(0).max(MAX_SERIES_NUMBER).optional(),
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.to >= v.from, { message: 'To must not be less than From', path: ['to'] });

/** Multipart carries `pads` as a JSON string; JSON bodies carry the list. */
const padsField = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      const parsed: unknown = JSON.parse(value);
      return parsed;
    } catch {
      return value;
    }
  },
  z
    .array(incidentPadInput, { error: INCIDENT_MSG.padsFormat })
    .min(1, INCIDENT_MSG.padsRequired)
    .max(MAX_INCIDENT_PADS, INCIDENT_MSG.tooManyPads),
);

/** The UTC day of a date and time as JavaScript reads it, or null when it reads none. */
const dayOf = (value: string) => {
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
};

/** The fields of POST loss-incidents (multipart text fields, or a JSON body when there are no files). */
export const lossIncidentSchema = z.object({
  pads: padsField,
  place: text('Place', INCIDENT_MSG.placeRequired).trim().min(1, INCIDENT_MSG.placeRequired).max(255),
  occurred_at: z
    .string({ error: INCIDENT_MSG.occurredRequired })
    .trim()
    .min(1, INCIDENT_MSG.occurredRequired)
    .refine((v) => {
      const day = dayOf(v);
      return day !== null && isDateInRange(day);
    }, INCIDENT_MSG.occurredFormat)
    .refine((v) => Date.parse(v) <= Date.now() + 5 * 60_000, INCIDENT_MSG.occurredFuture),
  circumstances: text('Circumstances', INCIDENT_MSG.circumstancesRequired).trim().min(1, INCIDENT_MSG.circumstancesRequired).max(4000),
  affidavit_notarised_on: optionalDate('Notarisation date'),
  tax_office_received_on: optionalDate('Tax office receiving date'),
  device_at: deviceTime,
});
export type LossIncidentInput = z.output<typeof lossIncidentSchema>;

/** The papers of one kind: PDF, PNG or JPEG files under the kind's field name. */
const paperFiles = (kind: AttachmentKind) =>
  z
    .array(z.string().meta({ format: 'binary' }))
    .max(MAX_ATTACHMENTS)
    .optional()
    .describe(ATTACHMENT_LABELS[kind]);

/** POST loss-incidents as multipart/form-data, as /api/docs describes it: the fields with `pads` as JSON text, each paper under its kind. */
export const lossIncidentForm = lossIncidentSchema.extend({
  pads: z.string().describe('The pads as JSON text: [{ "pad_id": 12 }, { "pad_id": 13, "from": 1301, "to": 1310 }]'),
  ...Object.fromEntries(ATTACHMENT_KINDS.map((kind) => [kind, paperFiles(kind)])),
});

export const incidentListQuery = listQuery.extend({
  ...exportParam,
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(INCIDENT_STATUSES).optional()),
});
export type IncidentListQuery = z.output<typeof incidentListQuery>;

export const incidentParams = z.object({ id: id() });
export const attachmentParams = z.object({ id: id(), attachment_id: id() });
export const foundParams = z.object({ id: id(), found_id: id() });

/** POST loss-incidents/{id}/found: the first of the two users records numbers found. */
export const foundSchema = z
  .object({
    pad_id: id(),
    from: z.number().int().min(0).max(MAX_SERIES_NUMBER),
    to: z.number().int().min(0).max(MAX_SERIES_NUMBER),
    reason: text('Reason', required('Reason')).trim().min(1, required('Reason')).max(500),
  })
  .refine((v) => v.to >= v.from, { message: 'To must not be less than From', path: ['to'] });
export type FoundInput = z.output<typeof foundSchema>;

const person = z.object({ id: z.number(), full_name: z.string() });

export const incidentCreatedSchema = z.object({ id: z.number(), number: z.string(), status: z.enum(INCIDENT_STATUSES) });

export const incidentRowSchema = z.object({
  id: z.number(),
  number: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  place: z.string(),
  occurred_at: z.string(),
  reported_by: person,
  reported_at: z.string(),
  /** How many numbers the incident covers. */
  qty: z.number(),
  /** e.g. "Pad 12 (1201–1250); Pad 13 (1251–1260)". */
  summary: z.string(),
});
export type IncidentRow = z.infer<typeof incidentRowSchema>;

export const incidentPadSchema = z.object({
  pad: z.object({
    id: z.number(),
    number: z.number(),
    series_number: z.string(),
    route: z.object({ id: z.number(), name: z.string(), tin: z.string(), company: z.string() }),
  }),
  from: z.number(),
  to: z.number(),
  qty: z.number(),
});

export const attachmentSchema = z.object({
  id: z.number(),
  kind: z.enum(ATTACHMENT_KINDS),
  file_name: z.string(),
  content_type: z.enum(ATTACHMENT_TYPES),
  size: z.number(),
  /** The notarisation date of an affidavit, the receiving date of the tax office's copy. */
  document_date: z.string().nullable(),
  uploaded_by: person,
  uploaded_at: z.string(),
  /** A signed, short-lived address that opens the file in a new tab. */
  url: z.string(),
});

export const foundRecordSchema = z.object({
  id: z.number(),
  pad_id: z.number(),
  from: z.number(),
  to: z.number(),
  reason: z.string(),
  status: z.enum(['pending', 'confirmed']),
  recorded_by: person,
  recorded_at: z.string(),
  confirmed_by: person.nullable(),
  confirmed_at: z.string().nullable(),
});

export const incidentSchema = incidentRowSchema.extend({
  circumstances: z.string(),
  decided_by: person.nullable(),
  decided_at: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  /** Why the loss was confirmed without an affidavit of loss, as the Notice of Loss prints it. */
  no_affidavit_reason: z.string().nullable(),
  pads: z.array(incidentPadSchema),
  attachments: z.array(attachmentSchema),
  found: z.array(foundRecordSchema),
  /** After confirmation: a signed, short-lived address of the Notice of Loss PDF (GET loss-incidents/{id}/notice). */
  notice_url: z.string().nullable(),
});
export type Incident = z.infer<typeof incidentSchema>;
