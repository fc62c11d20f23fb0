import { z } from 'zod';
import { ISSUANCE_STATUS, PAD_STATUS, SERIES_ENTRY } from '../lookups.ts';
import { MSG, required } from '../messages.ts';
import type { SeriesEntry } from '../pad-status.ts';
import { listQuery, requiredId, type NamedRef } from './common.ts';

/** DESIGN §5: receipt numbers reach 10^12; this bound keeps every number exact in JavaScript. */
export const MAX_SERIES_NUMBER = 999_999_999_999_999;
/** DESIGN §5: one request generates at most this many numbers. */
export const MAX_NUMBERS_PER_REQUEST = 1_000_000;
export const MAX_PAD_SIZE = 1_000;
const MAX_INT = 2_147_483_647;
export const MAX_PAD_NUMBER = MAX_INT;

export const PAD_MSG = {
  tooManyNumbers: `One request may generate at most ${MAX_NUMBERS_PER_REQUEST.toLocaleString('en-US')} numbers`,
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
  padNumbersExhausted: `Pad numbers on this route would pass ${MAX_INT}; renumber its pads first.`,
  numberTaken: (number: number) => `Pad number ${number} already exists on this route.`,
  fieldNotAllowed: (label: string) => `You are not allowed to change the ${label}.`,
  invalidPadStatus: 'The selected pad status is invalid.',
  invalidIssuanceStatus: 'The selected issuance status is invalid.',
} as const;

/** A whole number typed into a form or sent as JSON: required, digits only, within max. */
export const wholeNumber = (label: string, max: number, min = 0) =>
  z.union([z.number(), z.string()], { error: required(label) }).transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: required(label) });
      return z.NEVER;
    }
    if (!/^\d+$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a whole number` });
      return z.NEVER;
    }
    const n = Number(text);
    if (n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `${label} must be between ${min} and ${max}` });
      return z.NEVER;
    }
    return n;
  });

export const addPadSchema = z
  .object({
    route_id: requiredId('Route').max(MAX_INT, required('Route')),
    series_from: wholeNumber('Series From', MAX_SERIES_NUMBER),
    series_to: wholeNumber('Series To', MAX_SERIES_NUMBER),
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

const padStatusId = requiredId('Pad Status').refine(
  (v) => (Object.values(PAD_STATUS) as number[]).includes(v),
  PAD_MSG.invalidPadStatus,
);
const issuanceStatusId = requiredId('Issuance Status').refine(
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

/** Spec §3: the series may arrive as a JSON string. */
export const seriesField = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}, z.array(seriesEntry, { error: 'The series must be a list of entries' }).max(100_000));

/** Spec §7 update-pad. Absent optional fields stay as stored; route and series number are only compared. */
export const updatePadSchema = z.object({
  number: wholeNumber('Pad Number', MAX_INT, 1).optional(),
  pad_status_id: padStatusId,
  issuance_status_id: issuanceStatusId,
  remarks: z.string({ error: 'Remarks must be text' }).trim().max(1000, 'Remarks may not be longer than 1000 characters').nullish(),
  series: seriesField.optional(),
  route_id: z.coerce.number().int().positive().max(MAX_INT).optional(),
  series_number: z.string().max(64).optional(),
});
export type UpdatePadInput = z.output<typeof updatePadSchema>;

export const padListQuery = listQuery.extend({
  route: z.coerce.number().int().positive().max(MAX_INT).optional(),
});
export type PadListQuery = z.output<typeof padListQuery>;

export const availablePadsQuery = listQuery.extend({
  route_id: z.coerce.number().int().positive().max(MAX_INT).optional(),
});
export type AvailablePadsQuery = z.output<typeof availablePadsQuery>;

export interface PadRoute {
  id: number;
  name: string;
  tin: string;
  company_id: number;
  company: NamedRef;
}

/** A pad as every pad endpoint returns it (spec §3). */
export interface Pad {
  id: number;
  route_id: number;
  route: PadRoute;
  number: number;
  series_number: string;
  series_from: number;
  series_to: number;
  pad_status_id: number;
  pad_status: NamedRef;
  issuance_status_id: number;
  issuance_status: NamedRef;
  remarks: string | null;
  series: SeriesEntry[];
  holder_user_id: number | null;
  holder_branch_id: number | null;
  locked_by_invoice_id: number | null;
}

export interface GeneratedPads {
  route_id: number;
  pads_created: number;
  pad_size: number;
  first_pad_number: number;
  last_pad_number: number;
  series_from: number;
  series_to: number;
}
