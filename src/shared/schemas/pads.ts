import { z } from 'zod';
import { countText, numberRange, numbersText } from '../format.ts';
import { pendingWord, type PendingOutcome } from '../pending-outcomes.ts';
import { registeredSeriesRef } from './registered-series.ts';
import { ISSUANCE_STATUS, PAD_STATUS, SERIES_ENTRY } from '../lookups.ts';
import { MSG } from '../messages.ts';
import { deviceTime, exportParam, listQuery, sortParams, text } from './common.ts';
import { MAX_ID, id, isoDateTime, refId, wholeNumber } from './fields.ts';
import { namedRef } from './responses.ts';

/** docs/design.md §5: receipt numbers reach 10^12; this bound keeps every number exact in JavaScript. */
export const MAX_SERIES_NUMBER = 999_999_999_999_999;
/** docs/design.md §5: one request generates at most this many numbers. */
export const MAX_NUMBERS_PER_REQUEST = 1_000_000;
export const MAX_PAD_SIZE = 1_000;
/** One add-pad makes at most this many pads, so a single request keeps the database (and PGlite's one connection) busy for about a second. */
export const MAX_PADS_PER_ADD = 20_000;
export const MAX_PAD_NUMBER = MAX_ID;

export const PAD_MSG = {
  tooManyNumbers: `One request may generate at most ${countText(MAX_NUMBERS_PER_REQUEST)} numbers`,
  tooManyPads: (pads: number) =>
    `This would make ${countText(pads)} pads; one request may make at most ${countText(MAX_PADS_PER_ADD)}. Use a larger pad size or a shorter range.`,
  routeMissing: 'The selected route does not exist.',
  holderFilterForbidden: "Only the head office may list another branch's or person's pads.",
  overlap: (pad: { number: number; series_number: string } | null) =>
    pad
      ? `These numbers overlap pad ${pad.number} (${pad.series_number}) on this route.`
      : 'These numbers overlap another pad on this route.',
  generated: (count: number) => `${count} ${count === 1 ? 'pad' : 'pads'} generated successfully`,
  updated: 'Pad updated successfully',
  deleted: 'Pad deleted successfully',
  notFound: 'Pad not found.',
  onInvoice: 'This pad is on an invoice, so it cannot be deleted.',
  hasHistory: 'This pad has numbers used, cancelled, lost or moved in its history, so it cannot be deleted; its history must stay.',
  locked: 'This pad is on an in-transit invoice and cannot be changed until that invoice is accepted.',
  seriesFixed: 'Series entries cannot be added, removed or renumbered.',
  padNumbersExhausted: `Pad numbers on this route would pass ${MAX_PAD_NUMBER}; renumber its pads first.`,
  numberTaken: (number: number) => `Pad number ${number} already exists on this route.`,
  fieldNotAllowed: (label: string) => `You are not allowed to change the ${label}.`,
  stale: 'Someone else changed this pad after you opened it. Reload the pad and make your change again.',
  notYourBranch: 'You can only edit pads your branch holds.',
  returnInstead:
    'This pad is held outside the head office. Only a Return brings it back to Not Issued: use Return on the Custodies screen.',
  reinstateFirst: (padNumber: number, state: 'cancelled' | 'lost') =>
    `Pad ${padNumber} is ${state} as a whole, so its numbers cannot be marked. Reinstate the pad first (save it with another status), then mark them.`,
  invalidPadStatus: 'The selected pad status is invalid.',
  invalidIssuanceStatus: 'The selected issuance status is invalid.',
  notWhole: (label: string) => `${label} must be a whole number`,
  outOfRange: (label: string, min: number, max: number) => `${label} must be between ${min} and ${max}`,
} as const;

/** A number of the pads forms, in the pads wording. */
const padNumberField = (label: string, min: number, max: number) =>
  wholeNumber(label, {
    min,
    max,
    messages: {
      notWhole: PAD_MSG.notWhole(label),
      tooSmall: PAD_MSG.outOfRange(label, min, max),
      tooLarge: PAD_MSG.outOfRange(label, min, max),
    },
  });

export const addPadSchema = z
  .object({
    route_id: refId('Route'),
    series_from: padNumberField('Series From', 0, MAX_SERIES_NUMBER),
    series_to: padNumberField('Series To', 0, MAX_SERIES_NUMBER),
    pad_size: z.coerce.number().int().min(1).max(MAX_PAD_SIZE).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.series_to <= v.series_from) {
      ctx.addIssue({ code: 'custom', message: MSG.seriesToGreater, path: ['series_to'] });
    } else if (v.series_to - v.series_from + 1 > MAX_NUMBERS_PER_REQUEST) {
      ctx.addIssue({ code: 'custom', message: PAD_MSG.tooManyNumbers, path: ['series_to'] });
    }
  });
export type AddPadInput = z.output<typeof addPadSchema>;

const padStatusId = refId('Pad Status').refine((v) => Object.values(PAD_STATUS).some((id) => id === v), PAD_MSG.invalidPadStatus);
const issuanceStatusId = refId('Issuance Status').refine(
  (v) => Object.values(ISSUANCE_STATUS).some((id) => id === v),
  PAD_MSG.invalidIssuanceStatus,
);

const seriesEntry = z.object({
  number: z.coerce.number().int().min(0).max(MAX_SERIES_NUMBER),
  status: z.coerce
    .number()
    .int()
    .refine(
      (v) => Object.values(SERIES_ENTRY).some((id) => id === v),
      'A series status is 1 (not used), 2 (used), 3 (cancelled) or 4 (lost)',
    ),
});

/** docs/spec.md §3: the series may arrive as a JSON string. */
export const seriesField = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      const parsed: unknown = JSON.parse(value);
      return parsed;
    } catch {
      return value;
    }
  },
  z.array(seriesEntry, { error: 'The series must be a list of entries' }).max(100_000),
);

/** docs/spec.md §7 update-pad. Absent optional fields stay as stored; route and series number are only compared. */
export const updatePadSchema = z.object({
  number: padNumberField('Pad Number', 1, MAX_PAD_NUMBER).optional(),
  pad_status_id: padStatusId,
  issuance_status_id: issuanceStatusId,
  remarks: text('Remarks').trim().max(1000, 'Remarks may not be longer than 1000 characters').nullish(),
  series: seriesField.optional(),
  route_id: id().optional(),
  series_number: text('Series Number').max(64).optional(),
  /** The pad's updated_at as the client loaded it: a change made since then answers 409 instead of being overwritten. */
  updated_at: isoDateTime('The pad version must be the updated_at the pad was loaded with').optional(),
});
export type UpdatePadInput = z.output<typeof updatePadSchema>;

/** The Inventories columns a pad list sorts by. */
export const PAD_SORTS = ['route', 'number', 'series', 'pad_status', 'issuance_status'] as const;
export type PadSort = (typeof PAD_SORTS)[number];

/**
 * The Inventories holder filter (docs/design.md §10): the caller's own pads, their branch's (its stock and its
 * staff's), or all; "My pads" is the default for roles 4–7 (PAD_HOLDER_DEFAULT_ROLES).
 */
export const PAD_HOLDER_FILTERS = ['mine', 'branch'] as const;
export type PadHolderFilter = (typeof PAD_HOLDER_FILTERS)[number];
export const PAD_HOLDER_DEFAULT_ROLES: readonly number[] = [4, 5, 6, 7];

export const padListQuery = listQuery.extend({
  ...sortParams(PAD_SORTS),
  ...exportParam,
  holder: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(PAD_HOLDER_FILTERS, { error: 'Held by must be mine or branch.' }).optional(),
  ),
  route: id().optional(),
  /** Any user's pads, for the head office (`pad.filterAnyHolder`). */
  holder_user: id().optional(),
  /** Any branch's pads (its stock and its staff's), for the head office (`pad.filterAnyHolder`). */
  holder_branch: id().optional(),
});
export type PadListQuery = z.output<typeof padListQuery>;

export const availablePadsQuery = listQuery.extend({
  route_id: id().optional(),
});
export type AvailablePadsQuery = z.output<typeof availablePadsQuery>;

export const padRoute = z.object({ id: z.number(), name: z.string(), tin: z.string(), company_id: z.number(), company: namedRef });
export type PadRoute = z.infer<typeof padRoute>;

/** A pad as every pad endpoint returns it (docs/spec.md §3). */
export const padRow = z
  .object({
    id: z.number(),
    route_id: z.number(),
    route: padRoute,
    number: z.number(),
    series_number: z.string(),
    series_from: z.number(),
    series_to: z.number(),
    pad_status_id: z.number(),
    pad_status: namedRef,
    issuance_status_id: z.number(),
    issuance_status: namedRef,
    remarks: z.string().nullable(),
    /** Each number's state: 1 not used, 2 used (the spec's values), 3 cancelled, 4 lost (docs/design.md §9). */
    series: z.array(z.object({ number: z.number(), status: z.number() })),
    /** The first not-used number, where usage continues (docs/design.md §9 sequence); null when none is left. */
    next_number: z.number().nullable(),
    /** How many numbers are in each state. */
    number_counts: z.object({ not_used: z.number(), used: z.number(), cancelled: z.number(), lost: z.number() }),
    holder_user_id: z.number().nullable(),
    holder_branch_id: z.number().nullable(),
    /** The holder as the Held by column says it (docs/design.md §10). */
    held_by: z.string(),
    locked_by_invoice_id: z.number().nullable(),
    /** docs/design.md §9: the cancellations and losses of its numbers waiting for approval (those numbers may not be used). */
    pending_outcomes: z.array(
      z.object({ from: z.number(), to: z.number(), outcome: z.enum(['cancelled', 'lost']), requested_by: z.string() }),
    ),
    /** docs/design.md §10: the registered series (ATP) the pad lies inside. */
    registered_series: registeredSeriesRef.nullable(),
    /** The version an edit sends back (update-pad's updated_at). */
    updated_at: z.string(),
  })
  .meta({ id: 'Pad' });
export type Pad = z.infer<typeof padRow>;

export const generatedPads = z
  .object({
    route_id: z.number(),
    pads_created: z.number(),
    pad_size: z.number(),
    first_pad_number: z.number(),
    last_pad_number: z.number(),
    series_from: z.number(),
    series_to: z.number(),
    /** docs/design.md §10: set when some of the pads lie outside every registered series of the route. */
    warning: z.string().nullable(),
  })
  .meta({ id: 'GeneratedPads' });
export type GeneratedPads = z.infer<typeof generatedPads>;

/** Why a number was cancelled or lost: the short list of docs/design.md §9; "Other" needs the free text. */
export const OUTCOME_REASONS = {
  cancelled: ['Spoiled (torn, stained, misprinted)', 'Voided: wrong entry', 'Voided: sale cancelled', 'Skipped in sequence', 'Other'],
  lost: ['Misplaced', 'Stolen', 'Destroyed (fire, water)', 'Lost in transit', 'Other'],
} as const;
export const OTHER_REASON = 'Other';

export const USAGE_MSG = {
  recorded: (from: number, to: number) => `${numbersText(from, to)} marked used`,
  outsidePad: 'These numbers are not on this pad.',
  toBeforeFrom: 'To must not be less than From',
  reasonForSkip: (next: number) =>
    `Usage continues at ${next}; give a reason to skip the numbers before From (they are cancelled with it).`,
  consumed: (number: number, state: string) => `Number ${number} is already ${state}.`,
  lost: (number: number) => `Number ${number} is reported lost; it cannot be used, issued or transferred.`,
  notYourPad: 'You can only record usage on pads you or your branch hold.',
  oneBookletAtATime: (padNumber: number) => `Use one booklet at a time: you also hold pad ${padNumber} of this route, partly used.`,
  tooMany: `One request may cover at most ${MAX_PAD_SIZE} numbers`,
  outcomeByAction: 'Numbers are cancelled or reported lost through their own actions, not by editing the series.',
  pending: (number: number, request: PendingOutcome) =>
    `Number ${number} has a ${pendingWord(request.outcome)} (${numberRange(request.from, request.to, '\u2013')}, asked by ${request.requested_by}): it cannot be used or asked for again until the Branch Head or Supervisor decides.`,
} as const;

/** A range of a pad's numbers as typed (From, To); To defaults to From. */
export const rangeFields = {
  from: padNumberField('From', 0, MAX_SERIES_NUMBER),
  to: padNumberField('To', 0, MAX_SERIES_NUMBER).optional(),
};
export const toNotBeforeFrom = (v: { from: number; to?: number }, ctx: z.core.$RefinementCtx) => {
  if (v.to !== undefined && v.to < v.from) ctx.addIssue({ code: 'custom', message: USAGE_MSG.toBeforeFrom, path: ['to'] });
  else if (v.to !== undefined && v.to - v.from + 1 > MAX_PAD_SIZE)
    ctx.addIssue({ code: 'custom', message: USAGE_MSG.tooMany, path: ['to'] });
};

/** POST pads/{id}/usage: mark from..to used; starting after the next number needs a reason (docs/design.md §9). */
export const padUsageSchema = z
  .object({
    ...rangeFields,
    reason: text('Reason').trim().max(500, 'Reason may not be longer than 500 characters').optional(),
    device_at: deviceTime,
  })
  .superRefine(toNotBeforeFrom)
  .transform((v) => ({ from: v.from, to: v.to ?? v.from, reason: v.reason ? v.reason : undefined, device_at: v.device_at }));
export type PadUsageInput = z.output<typeof padUsageSchema>;

/** The answer of usage, outcome (applied), outcome revert: the pad as get-pad shows it, and a sequence warning if any. */
export const padChangedResponse = z.object({ message: z.string(), data: padRow, warning: z.string().nullable() });
