import { z } from 'zod';
import { listQuery, optionalText, requiredText } from './common.ts';
import { seriesRange } from '../format.ts';
import { FORM_TYPES, type FormType } from '../lookups.ts';
import { isoDate, optionalDate, optionalId, refId, wholeNumber } from './fields.ts';

/** The largest receipt number (pads.ts MAX_SERIES_NUMBER; not imported, as pads.ts imports this file). */
const MAX_SERIES = 999_999_999_999_999;
const seriesNumber = (label: string) => wholeNumber(label, { min: 0, max: MAX_SERIES });

// -- FORM_TYPES is keyed by FormType and not empty; z.enum wants the non-empty tuple.
export const FORM_TYPE_KEYS = Object.keys(FORM_TYPES) as [FormType, ...FormType[]];

/** Issue 38: what a registered series is for once its establishment issues e-invoices (registered_series_role_ck). */
export const SERIES_ROLES = ['regular', 'contingency', 'converted', 'supplementary', 'retired'] as const;
export type SeriesRole = (typeof SERIES_ROLES)[number];
export const SERIES_ROLE_LABELS: Record<SeriesRole, string> = {
  regular: 'Regular (uncovered places)',
  contingency: 'Contingency (outages)',
  converted: 'Converted receipts (until consumed)',
  supplementary: 'Supplementary',
  retired: 'Retired (to surrender)',
};

export const SERIES_MSG = {
  roleChanged: (role: SeriesRole) => `Series role changed to ${SERIES_ROLE_LABELS[role]}`,
  sameRole: (role: SeriesRole) => `The series is already ${SERIES_ROLE_LABELS[role]}.`,
  role: `Role must be one of: ${SERIES_ROLES.join(', ')}`,
  retiredNotIssuable: (padNumber: number, atp: string) =>
    `Pad ${padNumber} is in a retired series (ATP ${atp}): retired series are to be surrendered, not issued.`,
  created: 'Registered series saved',
  updated: 'Registered series updated',
  notFound: 'Registered series not found.',
  routeMissing: 'Route not found.',
  branchMissing: 'Establishment not found.',
  toBeforeFrom: 'Series To must not be less than Series From',
  formType: `Form type must be one of: ${Object.values(FORM_TYPES).join(', ')}`,
  overlap: (atp: string, range: string) => `These numbers overlap registered series ${range} (ATP ${atp}) of this route.`,
  outsideRegistry: (from: number, to: number) =>
    `Numbers ${seriesRange(from, to, '\u2013')} are not inside any registered series of this route: register the ATP under Registered series.`,
  refusedOutsideRegistry: (from: number, to: number) =>
    `Numbers ${seriesRange(from, to, '\u2013')} are not inside any registered series of this route, and this installation requires one (REQUIRE_REGISTERED_SERIES).`,
  deliveryBeforeAtp: 'The delivery date may not come before the ATP date',
} as const;

/** POST registered-series and PUT registered-series/{id}. */
export const registeredSeriesInput = z
  .object({
    route_id: refId('Route'),
    branch_id: refId('Establishment'),
    form_type: z.enum(FORM_TYPE_KEYS, { error: SERIES_MSG.formType }),
    atp_number: requiredText('ATP Number', 60),
    atp_date: isoDate('ATP Date'),
    printer: requiredText('Printer', 200),
    delivery_date: optionalDate('Delivery Date').nullable(),
    series_from: seriesNumber('Series From'),
    series_to: seriesNumber('Series To'),
    remarks: optionalText('Remarks', 500),
  })
  .superRefine((v, ctx) => {
    if (v.series_to < v.series_from) ctx.addIssue({ code: 'custom', message: SERIES_MSG.toBeforeFrom, path: ['series_to'] });
    if (v.delivery_date && v.delivery_date < v.atp_date)
      ctx.addIssue({ code: 'custom', message: SERIES_MSG.deliveryBeforeAtp, path: ['delivery_date'] });
  });
export type RegisteredSeriesInput = z.output<typeof registeredSeriesInput>;

export const registeredSeriesQuery = listQuery.extend({
  route_id: optionalId,
  /** Issue 38: `retired` lists the series to surrender. */
  role: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SERIES_ROLES, { error: SERIES_MSG.role }).optional()),
});

/** PUT registered-series/{id}/role: the new role and why; the change is kept with who made it and when. */
export const seriesRoleInput = z.object({
  role: z.enum(SERIES_ROLES, { error: SERIES_MSG.role }),
  reason: requiredText('Reason', 500),
});
export type SeriesRoleInput = z.output<typeof seriesRoleInput>;

/** What a pad and a receipt carry of their series (get-pad, find-receipt). */
export const registeredSeriesRef = z
  .object({ id: z.number(), atp_number: z.string(), atp_date: z.string(), form_type: z.enum(FORM_TYPE_KEYS) })
  .meta({ id: 'RegisteredSeriesRef' });
export type RegisteredSeriesRef = z.infer<typeof registeredSeriesRef>;

export const registeredSeriesSchema = z
  .object({
    id: z.number(),
    route: z.object({ id: z.number(), name: z.string(), tin: z.string(), company: z.string() }),
    branch: z.object({ id: z.number(), name: z.string() }),
    form_type: z.enum(FORM_TYPE_KEYS),
    atp_number: z.string(),
    atp_date: z.string(),
    printer: z.string(),
    delivery_date: z.string().nullable(),
    series_from: z.number(),
    series_to: z.number(),
    series_number: z.string(),
    remarks: z.string().nullable(),
    /** How many pads lie inside it. */
    pads: z.number(),
    /** Issue 38: what it is for after go-live; `retired` is not issued. */
    role: z.enum(SERIES_ROLES),
  })
  .meta({ id: 'RegisteredSeries' });
export type RegisteredSeries = z.infer<typeof registeredSeriesSchema>;

/** One change of a series' role, newest first in `role_history`. */
export const seriesRoleChangeSchema = z.object({
  id: z.number(),
  role: z.enum(SERIES_ROLES),
  previous_role: z.enum(SERIES_ROLES),
  reason: z.string(),
  changed_by: z.object({ id: z.number(), name: z.string() }),
  changed_at: z.string(),
});
export type SeriesRoleChange = z.infer<typeof seriesRoleChangeSchema>;

/** GET registered-series/{id}: the series with every change of its role. */
export const registeredSeriesDetailSchema = registeredSeriesSchema
  .extend({ role_history: z.array(seriesRoleChangeSchema) })
  .meta({ id: 'RegisteredSeriesDetail' });
export type RegisteredSeriesDetail = z.infer<typeof registeredSeriesDetailSchema>;

export const UNUSED_MSG = {
  future: 'Choose a date up to today: the inventory is of what was unused at the end of that day.',
  branchMissing: 'Branch not found.',
} as const;

/** GET unused-forms: the unused numbers at the end of `date` in APP_TIMEZONE, of every establishment or one. */
export const unusedFormsQuery = z.object({
  date: isoDate('Date'),
  branch_id: optionalId,
  format: z.enum(['json', 'pdf', 'csv']).default('json'),
});
export type UnusedFormsQuery = z.infer<typeof unusedFormsQuery>;

const ranges = z.array(z.tuple([z.number(), z.number()]));
const holderRef = z.object({ type: z.enum(['user', 'branch']), id: z.number(), name: z.string(), branch: z.string().nullable() });

/** One registered series (or the route's unregistered numbers) of one establishment, with who holds its unused numbers. */
export const unusedSeriesSchema = z.object({
  registered_series: registeredSeriesRef.nullable(),
  /** Issue 38: the series' role (what its booklets are for after go-live); null outside every registered series. */
  role: z.enum(SERIES_ROLES).nullable(),
  route: z.object({ id: z.number(), name: z.string(), tin: z.string(), company: z.string() }),
  qty: z.number(),
  ranges,
  holders: z.array(
    z.object({
      holder: holderRef,
      qty: z.number(),
      ranges,
      /** docs/design.md §10: the holder is not of this establishment. */
      outside_establishment: z.boolean(),
    }),
  ),
});

export const unusedFormsSchema = z
  .object({
    date: z.string(),
    establishments: z.array(
      z.object({
        /** null: numbers outside every registered series held by no branch's people (rare: a user without a branch). */
        branch: z.object({ id: z.number(), name: z.string() }).nullable(),
        qty: z.number(),
        series: z.array(unusedSeriesSchema),
      }),
    ),
    in_transit: z.array(
      z.object({
        invoice_id: z.number(),
        courier: z.string().nullable(),
        pads: z.array(z.object({ id: z.number(), number: z.number(), route: z.string(), series_number: z.string() })),
      }),
    ),
    total: z.number(),
  })
  .meta({ id: 'UnusedForms' });
export type UnusedForms = z.infer<typeof unusedFormsSchema>;
