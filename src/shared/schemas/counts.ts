import { z } from 'zod';
import { required } from '../messages.ts';
import { listQuery, text } from './common.ts';
import { id, idList, optionalId } from './fields.ts';
import { MAX_SERIES_NUMBER } from './pads.ts';
import { LABEL_MSG } from '../custody-rules.ts';

/**
 * docs/design.md §9 physical counts: what a count finds that the books do not say. A pad the books place with the
 * holder and not found; a pad found that the books place elsewhere; a first unused number higher than the books'
 * (numbers used and not recorded) or lower (numbers recorded as used that are not).
 */
export const VARIANCE_KINDS = ['missing', 'found_elsewhere', 'unrecorded_use', 'unused_recorded', 'found_lost'] as const;
export type VarianceKind = (typeof VARIANCE_KINDS)[number];

export const VARIANCE_LABELS: Record<VarianceKind, string> = {
  missing: 'Pad missing',
  found_elsewhere: 'Pad found elsewhere',
  unrecorded_use: 'Numbers used but not recorded',
  unused_recorded: 'Numbers recorded as used but unused',
  found_lost: 'Lost pad found',
};

/** A variance is settled through the existing actions: range usage, a loss incident, or accepted with a reason. */
export const RESOLUTION_ACTIONS = ['usage', 'incident', 'accept', 'found'] as const;
export type ResolutionAction = (typeof RESOLUTION_ACTIONS)[number];

export const RESOLUTION_LABELS: Record<ResolutionAction, string> = {
  usage: 'Record the usage',
  incident: 'Open a loss incident',
  accept: 'Accept with a reason',
  found: 'Record found',
};

/** Which actions settle which kind: usage only fills the gap of unrecorded numbers, a loss only covers unused numbers. */
export const VARIANCE_ACTIONS: Record<VarianceKind, readonly ResolutionAction[]> = {
  missing: ['incident', 'accept'],
  found_elsewhere: ['accept'],
  unrecorded_use: ['usage', 'incident', 'accept'],
  unused_recorded: ['accept'],
  /** A pad whose numbers a confirmed loss wrote off comes back only through the incident's found, by two people (roles 3, 8). */
  found_lost: ['found', 'accept'],
};

/** What the person who may take a resolution the counter may not is asked to do (docs/design.md §9, issue 36). */
export const RESOLUTION_ASKS: Record<ResolutionAction, string> = {
  usage: 'record the usage',
  incident: 'report the loss',
  accept: 'accept it',
  found: 'record it found',
};

export const COUNT_STATUSES = ['open', 'closed'] as const;
export type CountStatus = (typeof COUNT_STATUSES)[number];

/** Item states: not yet seen, found (scanned or ticked), or marked missing. */
export const COUNT_ITEM_STATES = ['pending', 'found', 'missing'] as const;

/** The words an item's state reads on the count screen and its certificate: a pad never scanned is not yet scanned, not missing. */
export function countItemStateLabel(item: { state: (typeof COUNT_ITEM_STATES)[number]; expected: boolean }): string {
  if (item.state === 'found') return item.expected ? 'Found' : 'Not on the books here';
  return item.state === 'missing' ? 'Missing' : 'Not yet scanned';
}

export const COUNT_MSG = {
  started: (id: number) => `Count #${id} started`,
  /** Issue 36: two routes each have a pad 2, so a pad is always named with its route. */
  padName: (route: string, padNumber: number) => `${route} · Pad ${padNumber}`,
  recorded: (pad: string) => `${pad} recorded`,
  recordedNote: (pad: string, note: string) => `${pad} recorded: ${note}`,
  declaredLost: (incident: string) => `Declared lost on ${incident}`,
  wholePad: (status: string) => `${status} as a whole pad`,
  inTransit: (invoice: string, carrier: string | null) => `On ${invoice} in transit${carrier ? `, carried by ${carrier}` : ''}`,
  askHolder: (name: string, role: string, what: string) => `Ask ${name}, ${role}, to ${what}`,
  askRoles: (roles: string, what: string) => `Ask ${roles} to ${what}`,
  notYetScanned: (n: number) => `${n} ${n === 1 ? 'pad is' : 'pads are'} not yet scanned: end the scan first`,
  scanEnded: (n: number) => `Scan ended: ${n} ${n === 1 ? 'pad' : 'pads'} not found marked missing`,
  scanEndedAlready: 'The scan has already ended.',
  notYourAction: (action: string) => `You may not ${action} here; the variance says who must.`,
  foundReason: (countId: number, reason: string) => `Found by count #${countId}: ${reason}`,
  resolved: 'Variance resolved',
  signedOff: 'Signed off',
  closed: (id: number) => `Count #${id} closed`,
  notFound: 'Count not found.',
  varianceNotFound: 'Variance not found.',
  holderRequired: 'Choose a holder or a branch to count',
  oneHolder: 'Count either a holder or a branch, not both',
  holderMissing: 'That holder or branch does not exist.',
  padRequired: 'Scan or choose a pad',
  padOrCode: 'Send either a pad or a scanned code, not both',
  mayNotCount: 'You may not count this holder.',
  countSelf: 'You cannot count pads you are accountable for; someone else must count them.',
  notCounter: 'Only the counter of this count may change it.',
  closedAlready: 'This count is closed and can no longer change.',
  padUnknown: 'Pad not found.',
  /** Issue 36: a deleted pad's label says what became of it rather than "not found". */
  padVoided: (from: number, to: number, day: string) =>
    `This booklet (numbers ${from}–${to}) was voided on ${day}: it is off the books. Keep it with its void papers; nothing is recorded.`,
  labelUnknown: LABEL_MSG.unknown,
  firstUnusedOff: (from: number, to: number) => `First unused number must lie between ${from} and ${to + 1}`,
  firstUnusedMissing: 'A missing pad has no first unused number',
  resolvedAlready: 'This variance is already resolved.',
  itemResolved: 'This pad has a resolved variance; it cannot be recorded again.',
  actionNotFor: (kind: string, actions: string) => `A variance "${kind}" is resolved by: ${actions}`,
  reasonRequired: required('Reason'),
  unresolved: (n: number) => `${n} ${n === 1 ? 'variance is' : 'variances are'} not resolved yet`,
  notSignedOff: 'The holder must sign off before the count is closed',
  signedAlready: 'The holder has already signed off',
  notHolder: 'Only the holder counted (or, for a branch, its Branch Custodian or Branch Head) signs off.',
  badgeUnknown: 'This badge is not recognised.',
  signatureFormat: 'Signature must be a PNG image',
  incidentPlace: (holder: string) => `Physical count of ${holder}`,
  incidentCircumstances: (countId: number, reason: string) => `Found by count #${countId}: ${reason}`,
  usageReason: (countId: number) => `Found by count #${countId}`,
} as const;

/** POST counts: one holder or one branch. */
export const countStartSchema = z.object({ user_id: id().optional(), branch_id: id().optional() }).superRefine((v, ctx) => {
  if (v.user_id === undefined && v.branch_id === undefined)
    ctx.addIssue({ code: 'custom', message: COUNT_MSG.holderRequired, path: ['user_id'] });
  if (v.user_id !== undefined && v.branch_id !== undefined)
    ctx.addIssue({ code: 'custom', message: COUNT_MSG.oneHolder, path: ['branch_id'] });
});
export type CountStartInput = z.output<typeof countStartSchema>;

/** A scanned label is short printable text; anything else is refused before it is looked at. */
export const labelCode = z
  .string({ error: COUNT_MSG.labelUnknown })
  .trim()
  .min(1, COUNT_MSG.labelUnknown)
  .max(64, COUNT_MSG.labelUnknown)
  .regex(/^[\x21-\x7e]+$/, COUNT_MSG.labelUnknown);

/** POST counts/{id}/items: a pad found (by id or its scanned label) with the first unused number seen, or marked missing. */
export const countItemSchema = z
  .object({
    pad_id: id().optional(),
    code: labelCode.optional(),
    first_unused: z.number().int().min(0).max(MAX_SERIES_NUMBER).optional(),
    missing: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.pad_id === undefined && v.code === undefined) ctx.addIssue({ code: 'custom', message: COUNT_MSG.padRequired, path: ['pad_id'] });
    if (v.pad_id !== undefined && v.code !== undefined) ctx.addIssue({ code: 'custom', message: COUNT_MSG.padOrCode, path: ['code'] });
    if (v.missing && v.first_unused !== undefined)
      ctx.addIssue({ code: 'custom', message: COUNT_MSG.firstUnusedMissing, path: ['first_unused'] });
  });
export type CountItemInput = z.output<typeof countItemSchema>;

export const resolveSchema = z.object({
  action: z.enum(RESOLUTION_ACTIONS, { error: `Action must be one of ${RESOLUTION_ACTIONS.join(', ')}` }),
  reason: text('Reason', COUNT_MSG.reasonRequired).trim().min(1, COUNT_MSG.reasonRequired).max(500),
});
export type ResolveInput = z.output<typeof resolveSchema>;

/** The holder signs off: signed in, or with their badge scanned on the counter's phone; drawing a signature is optional. */
export const signOffSchema = z.object({
  badge: labelCode.optional(),
  signature: z
    .string()
    .max(200_000, COUNT_MSG.signatureFormat)
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, COUNT_MSG.signatureFormat)
    .optional(),
});
export type SignOffInput = z.output<typeof signOffSchema>;

/** GET counts/last: one holder, a person or a branch's own stock. */
export const lastCountQuery = z.object({ user_id: optionalId, branch_id: optionalId }).superRefine((v, ctx) => {
  if (v.user_id === undefined && v.branch_id === undefined)
    ctx.addIssue({ code: 'custom', message: COUNT_MSG.holderRequired, path: ['user_id'] });
  if (v.user_id !== undefined && v.branch_id !== undefined)
    ctx.addIssue({ code: 'custom', message: COUNT_MSG.oneHolder, path: ['branch_id'] });
});
export type LastCountQuery = z.output<typeof lastCountQuery>;

export const countListQuery = listQuery;
export type CountListQuery = z.output<typeof countListQuery>;
export const countParams = z.object({ id: id() });
export const varianceParams = z.object({ id: id(), vid: id() });
export const padLabelQuery = z.object({
  ids: idList('ids must list up to 500 pad ids, e.g. 1,2,3', 500),
  size: z.enum(['a4', '4x6'], { error: 'size must be a4 or 4x6' }).default('a4'),
});
export const padByLabelQuery = z.object({ code: labelCode });

const person = z.object({ id: z.number(), full_name: z.string() });

/** A pad as a count lists it: enough to find the booklet on a shelf. */
export const countPad = z
  .object({
    id: z.number(),
    number: z.number(),
    series_number: z.string(),
    series_from: z.number(),
    series_to: z.number(),
    route: z.object({ id: z.number(), name: z.string() }),
  })
  .meta({ id: 'CountPad' });
export type CountPad = z.infer<typeof countPad>;

export const countHolder = z.object({ type: z.enum(['user', 'branch']), id: z.number(), name: z.string() }).meta({ id: 'CountHolder' });
export type CountHolder = z.infer<typeof countHolder>;

/** When a holder was last counted: the newest closed count of them, or none. */
export const lastCount = z
  .object({ holder: countHolder, last_counted_at: z.string().nullable(), count_id: z.number().nullable() })
  .meta({ id: 'LastCount' });
export type LastCount = z.infer<typeof lastCount>;

export const countItem = z
  .object({
    id: z.number(),
    pad: countPad,
    expected: z.boolean(),
    state: z.enum(COUNT_ITEM_STATES),
    /** The books' first unused number when the pad was counted (null: every number consumed). */
    book_next_number: z.number().nullable(),
    first_unused: z.number().nullable(),
    recorded_at: z.string().nullable(),
    /** What the books say of the pad when it is not ordinary stock (lost, cancelled, in transit), else null. */
    note: z.string().nullable(),
  })
  .meta({ id: 'CountItem' });
export type CountItem = z.infer<typeof countItem>;

export const countResolution = z
  .object({
    action: z.enum(RESOLUTION_ACTIONS),
    reason: z.string(),
    incident_id: z.number().nullable(),
    resolved_by: person,
    resolved_at: z.string(),
  })
  .meta({ id: 'CountResolution' });

export const countVariance = z
  .object({
    /** The count item's id: one variance per pad. */
    id: z.number(),
    kind: z.enum(VARIANCE_KINDS),
    label: z.string(),
    pad: countPad,
    detail: z.string(),
    /** The resolutions the signed-in reader may take themselves. */
    actions: z.array(z.enum(RESOLUTION_ACTIONS)),
    /** The other resolutions of the kind, each with who must act ("Ask Grace Mendoza, the holder, to report the loss"). */
    asks: z.array(z.object({ action: z.enum(RESOLUTION_ACTIONS), text: z.string() })),
    resolution: countResolution.nullable(),
  })
  .meta({ id: 'CountVariance' });
export type CountVariance = z.infer<typeof countVariance>;

export const countSession = z
  .object({
    id: z.number(),
    status: z.enum(COUNT_STATUSES),
    holder: countHolder,
    counter: person,
    started_at: z.string(),
    signed_off_by: person.nullable(),
    signed_off_at: z.string().nullable(),
    closed_at: z.string().nullable(),
    /** The pads the books placed with the holder when the count started. */
    expected: z.array(countPad),
    items: z.array(countItem),
    /** Expected pads not yet scanned: not variances until the counter ends the scan, which marks them missing. */
    not_scanned: z.number(),
    variances_open: z.number(),
  })
  .meta({ id: 'CountSession' });
export type CountSession = z.infer<typeof countSession>;

export const countRow = z
  .object({
    id: z.number(),
    status: z.enum(COUNT_STATUSES),
    holder: countHolder,
    counter: person,
    started_at: z.string(),
    closed_at: z.string().nullable(),
    pads: z.number(),
  })
  .meta({ id: 'CountRow' });
export type CountRow = z.infer<typeof countRow>;
