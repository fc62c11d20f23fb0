import { z } from 'zod';
import { ISSUANCE_STATUS, PAD_STATUS, SERIES_ENTRY } from '../lookups.ts';
import { MSG } from '../messages.ts';
import { listQuery, sortParams, text } from './common.ts';
import { MAX_ID, id, refId, wholeNumber } from './fields.ts';
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
  tooManyNumbers: `One request may generate at most ${MAX_NUMBERS_PER_REQUEST.toLocaleString('en-US')} numbers`,
  tooManyPads: (pads: number) =>
    `This would make ${pads.toLocaleString('en-US')} pads; one request may make at most ${MAX_PADS_PER_ADD.toLocaleString('en-US')}. Use a larger pad size or a shorter range.`,
  routeMissing: 'The selected route does not exist.',
  overlap: (pad: { number: number; series_number: string } | null) =>
    pad ? `These numbers overlap pad ${pad.number} (${pad.series_number}) on this route.` : 'These numbers overlap another pad on this route.',
  generated: (count: number) => `${count} ${count === 1 ? 'pad' : 'pads'} generated successfully`,
  updated: 'Pad updated successfully',
  deleted: 'Pad deleted successfully',
  notFound: 'Pad not found.',
  onInvoice: 'This pad is on an invoice, so it cannot be deleted.',
  locked: 'This pad is on an in-transit invoice and cannot be changed until that invoice is accepted.',
  seriesFixed: 'Series entries cannot be added, removed or renumbered.',
  padNumbersExhausted: `Pad numbers on this route would pass ${MAX_PAD_NUMBER}; renumber its pads first.`,
  numberTaken: (number: number) => `Pad number ${number} already exists on this route.`,
  fieldNotAllowed: (label: string) => `You are not allowed to change the ${label}.`,
  stale: 'Someone else changed this pad after you opened it. Reload the pad and make your change again.',
  notYourBranch: 'You can only edit pads your branch holds.',
  returnInstead: 'This pad is held outside the head office. Only a Return brings it back to Not Issued: use Return on the Custodies screen.',
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
    messages: { notWhole: PAD_MSG.notWhole(label), tooSmall: PAD_MSG.outOfRange(label, min, max), tooLarge: PAD_MSG.outOfRange(label, min, max) },
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

const padStatusId = refId('Pad Status').refine(
  (v) => (Object.values(PAD_STATUS) as number[]).includes(v),
  PAD_MSG.invalidPadStatus,
);
const issuanceStatusId = refId('Issuance Status').refine(
  (v) => (Object.values(ISSUANCE_STATUS) as number[]).includes(v),
  PAD_MSG.invalidIssuanceStatus,
);

const seriesEntry = z.object({
  number: z.coerce.number().int().min(0).max(MAX_SERIES_NUMBER),
  status: z.coerce
    .number()
    .int()
    .refine((v) => v === SERIES_ENTRY.NOT_USED || v === SERIES_ENTRY.USED, 'A series status is 1 (not used) or 2 (used)'),
});

/** docs/spec.md §3: the series may arrive as a JSON string. */
export const seriesField = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}, z.array(seriesEntry, { error: 'The series must be a list of entries' }).max(100_000));

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
  updated_at: z.iso.datetime({ offset: true, error: 'The pad version must be the updated_at the pad was loaded with' }).optional(),
});
export type UpdatePadInput = z.output<typeof updatePadSchema>;

/** The Inventories columns a pad list sorts by. */
export const PAD_SORTS = ['route', 'number', 'series', 'pad_status', 'issuance_status'] as const;
export type PadSort = (typeof PAD_SORTS)[number];

export const padListQuery = listQuery.extend({
  ...sortParams(PAD_SORTS),
  route: id().optional(),
});
export type PadListQuery = z.output<typeof padListQuery>;

export const availablePadsQuery = listQuery.extend({
  route_id: id().optional(),
});
export type AvailablePadsQuery = z.output<typeof availablePadsQuery>;

export const padRoute = z.object({ id: z.number(), name: z.string(), tin: z.string(), company_id: z.number(), company: namedRef });
export type PadRoute = z.infer<typeof padRoute>;

/** A pad as every pad endpoint returns it (docs/spec.md §3). */
export const padRow = z.object({
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
  series: z.array(z.object({ number: z.number(), status: z.number() })),
  holder_user_id: z.number().nullable(),
  holder_branch_id: z.number().nullable(),
  locked_by_invoice_id: z.number().nullable(),
  /** The version an edit sends back (update-pad's updated_at). */
  updated_at: z.string(),
}).meta({ id: 'Pad' });
export type Pad = z.infer<typeof padRow>;

export const generatedPads = z.object({
  route_id: z.number(),
  pads_created: z.number(),
  pad_size: z.number(),
  first_pad_number: z.number(),
  last_pad_number: z.number(),
  series_from: z.number(),
  series_to: z.number(),
}).meta({ id: 'GeneratedPads' });
export type GeneratedPads = z.infer<typeof generatedPads>;
