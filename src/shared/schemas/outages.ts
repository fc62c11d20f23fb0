import { z } from 'zod';
import { listQuery, optionalText } from './common.ts';
import { id, isoDateTime, optionalDate, optionalId, refId } from './fields.ts';

/** Why an establishment could not issue e-invoices (outages_cause_ck). */
export const OUTAGE_CAUSES = ['power', 'network', 'invoicing_system', 'tax_bureau_system', 'other'] as const;
export type OutageCause = (typeof OUTAGE_CAUSES)[number];
export const OUTAGE_CAUSE_LABELS: Record<OutageCause, string> = {
  power: 'Power interruption',
  network: 'Network or internet down',
  invoicing_system: 'Invoicing system down',
  tax_bureau_system: 'Tax bureau system down',
  other: 'Other',
};

export const OUTAGE_STATES = ['open', 'closed'] as const;
export type OutageState = (typeof OUTAGE_STATES)[number];

/** Evidence files: PDF, PNG or JPEG told by their first bytes, at most this many per outage. */
export const MAX_OUTAGE_EVIDENCE = 20;

export const OUTAGE_MSG = {
  declared: 'Outage declared',
  updated: 'Outage updated',
  closed: 'Outage closed',
  evidenceAdded: (n: number) => (n === 1 ? 'Evidence file added' : `${n} evidence files added`),
  notFound: 'Outage not found.',
  evidenceMissing: 'Evidence file not found.',
  branchMissing: 'Establishment not found.',
  endBeforeStart: 'The end must come after the start',
  cause: `Cause must be one of: ${OUTAGE_CAUSES.map((c) => OUTAGE_CAUSE_LABELS[c]).join(', ')}`,
  dateTime: (label: string) => `${label} must be a date and time with its offset (e.g. 2027-01-05T09:30:00+08:00)`,
  notCovered: (branch: string) => `${branch} is not an e-invoicing establishment: declare outages only where e-invoices are issued.`,
  overlap: (window: string, id: number) => `This window overlaps outage #${id} (${window}) at the same establishment.`,
  alreadyClosed: 'This outage is already closed: edit its times instead.',
  frozen: (holder: string, month: string) =>
    `The outage's times cannot change: it is relied on by the certified RAAF of ${holder} for ${month}.`,
  closeUnlinks: (holder: string, month: string) =>
    `This end would take paper numbers out of the outage that the certified RAAF of ${holder} for ${month} relies on.`,
  noFiles: 'Attach at least one file (PDF, PNG or JPEG).',
  fileType: (name: string) => `${name} is not a PDF, PNG or JPEG file`,
  fileTooLarge: (name: string, mb: number) => `${name} is larger than ${mb} MB`,
  tooManyFiles: `At most ${MAX_OUTAGE_EVIDENCE} evidence files per outage`,
} as const;

/** The instants the database holds either side of any offset: a day's bound written with -14:00 would fall in year 10000 UTC. */
const EARLIEST = Date.parse('1900-01-02T00:00:00Z');
const LATEST = Date.parse('9999-12-30T00:00:00Z');
const at = (label: string) =>
  isoDateTime(OUTAGE_MSG.dateTime(label)).refine((v) => Date.parse(v) >= EARLIEST && Date.parse(v) <= LATEST, OUTAGE_MSG.dateTime(label));
const cause = z.enum(OUTAGE_CAUSES, { error: OUTAGE_MSG.cause });

const window = {
  starts_at: at('Start'),
  /** null or absent: the outage is still going on. */
  ends_at: at('End').nullish(),
};

const endAfterStart = (v: { starts_at: string; ends_at?: string | null }) => !v.ends_at || Date.parse(v.ends_at) > Date.parse(v.starts_at);

/** POST outages: an establishment declares a time it could not issue e-invoices; no end means it is still going on. */
export const outageInput = z
  .object({
    branch_id: refId('Establishment'),
    ...window,
    cause,
    details: optionalText('Details', 2000),
    notice_reference: optionalText('Notice reference', 120),
  })
  .refine(endAfterStart, { message: OUTAGE_MSG.endBeforeStart, path: ['ends_at'] });
export type OutageInput = z.output<typeof outageInput>;

/** PUT outages/{id}: corrects the window, cause and details; the establishment stays. */
export const outageUpdate = z
  .object({
    ...window,
    cause,
    details: optionalText('Details', 2000),
    notice_reference: optionalText('Notice reference', 120),
  })
  .refine(endAfterStart, { message: OUTAGE_MSG.endBeforeStart, path: ['ends_at'] });
export type OutageUpdate = z.output<typeof outageUpdate>;

/** POST outages/{id}/close. */
export const outageClose = z.object({ ends_at: at('End') });
export type OutageClose = z.output<typeof outageClose>;

/** GET outages: by establishment, open or closed, and outages touching from..to (days in APP_TIMEZONE). */
export const outageListQuery = listQuery
  .omit({ search: true })
  .extend({
    branch_id: optionalId,
    state: z.preprocess((v) => (v === '' ? undefined : v), z.enum(OUTAGE_STATES, { error: 'State must be open or closed' }).optional()),
    from: optionalDate('From'),
    to: optionalDate('To'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'To may not come before From', path: ['to'] });
export type OutageListQuery = z.output<typeof outageListQuery>;

export const outageParams = z.object({ id: id() });
export const evidenceParams = z.object({ id: id(), evidence_id: id() });

/** POST outages/{id}/evidence as multipart/form-data, as /api/docs describes it. */
export const outageEvidenceForm = z.object({
  files: z.array(z.string().meta({ format: 'binary' })).describe('PDF, PNG or JPEG files (photos of the outage, a ticket, a notice)'),
});

const person = z.object({ id: z.number(), name: z.string() });

export const outageEvidenceSchema = z.object({
  id: z.number(),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number(),
  uploaded_by: person,
  created_at: z.string(),
  /** A signed address the browser opens without the bearer token, valid a few minutes. */
  url: z.string(),
});
export type OutageEvidence = z.infer<typeof outageEvidenceSchema>;

export const outageRowSchema = z
  .object({
    id: z.number(),
    branch: person,
    starts_at: z.string(),
    ends_at: z.string().nullable(),
    state: z.enum(OUTAGE_STATES),
    cause: z.enum(OUTAGE_CAUSES),
    cause_label: z.string(),
    details: z.string().nullable(),
    notice_reference: z.string().nullable(),
    declared_by: person,
    closed_by: person.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    evidence_count: z.number(),
    /** Paper uses linked to this outage (not undone), and how many numbers they hold. */
    linked_uses: z.number(),
    linked_numbers: z.number(),
  })
  .meta({ id: 'OutageRow' });
export type OutageRow = z.infer<typeof outageRowSchema>;

export const outageSchema = outageRowSchema
  .extend({
    evidence: z.array(outageEvidenceSchema),
    /** Why the times cannot change any more (a certified RAAF relies on the outage), or null. */
    frozen: z.string().nullable(),
  })
  .meta({ id: 'Outage' });
export type Outage = z.infer<typeof outageSchema>;
