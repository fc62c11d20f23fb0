import { z } from 'zod';
import { exportParam, listQuery } from './common.ts';
import { registeredSeriesRef } from './registered-series.ts';
import { id, optionalId } from './fields.ts';

export const LEDGER_MSG = {
  monthFormat: 'Month must be YYYY-MM',
  holderRequired: 'Choose a person (user_id) or a branch (branch_id)',
  holderBoth: 'Choose either a person or a branch, not both',
  numberFormat: 'Receipt number must be a whole number',
  userMissing: 'User not found.',
  branchMissing: 'Branch not found.',
  certifyOwn: 'Only the accountable person may certify this report.',
  monthNotEnded: 'A month can be certified only after it has ended.',
  alreadyCertified: 'This report has already been certified for that month.',
  certificateMissing: 'Certificate not found.',
  alreadyReviewed: 'This certificate has already been reviewed.',
  rollupBranch: 'The branch roll-up needs a branch (branch_id), not a person.',
  unbalanced: 'This report does not balance (Beginning + Receipt - Issued differs from Ending); run ledger:verify.',
  certified: 'Report certified.',
  reviewed: 'Certificate reviewed.',
} as const;

/** docs/design.md §8: months run from the ledger's first month (or the installation's) to the current month. */
export const monthOutsideLedger = (first: string, last: string) =>
  `Choose a month from ${first} to ${last}: the ledger has no other months.`;

/** The holder's certification under the RAAF (COA Appendix 67), printed on the PDF and shown before Certify. */
export const RAAF_CERTIFICATION_TEXT =
  'I hereby certify that the foregoing is a true statement of all accountable forms received, issued and transferred by me during the period above-stated and that the beginning and ending balances are correct.';

export const monthField = z.string({ error: LEDGER_MSG.monthFormat }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, LEDGER_MSG.monthFormat);

const holderShape = { user_id: optionalId, branch_id: optionalId };

/** Exactly one of user_id and branch_id names the holder. */
function oneHolder(value: { user_id?: number; branch_id?: number }, context: z.core.$RefinementCtx) {
  if (value.user_id === undefined && value.branch_id === undefined)
    context.addIssue({ code: 'custom', message: LEDGER_MSG.holderRequired, path: ['user_id'] });
  if (value.user_id !== undefined && value.branch_id !== undefined)
    context.addIssue({ code: 'custom', message: LEDGER_MSG.holderBoth, path: ['branch_id'] });
}

export const reportFormat = z.enum(['json', 'pdf', 'csv']).default('json');

/** `rollup=true` asks for the branch roll-up (docs/design.md §10): the branch's stock and its staff in one report. */
const rollupField = z.enum(['true', 'false'], { error: 'Roll-up must be true or false' }).optional();

export const raafQuery = z
  .object({ month: monthField, format: reportFormat, ...holderShape, rollup: rollupField })
  .superRefine(oneHolder)
  .superRefine((value, context) => {
    if (value.rollup === 'true' && value.branch_id === undefined)
      context.addIssue({ code: 'custom', message: LEDGER_MSG.rollupBranch, path: ['branch_id'] });
  });
export type RaafQuery = z.infer<typeof raafQuery>;

export const certifyRaafSchema = z.object({ month: monthField, ...holderShape }).superRefine(oneHolder);
export type CertifyRaafInput = z.infer<typeof certifyRaafSchema>;

export const raafSummaryQuery = z.object({ month: monthField, format: reportFormat });

export const certificateListQuery = listQuery.extend({ month: monthField.optional(), ...exportParam });
export type CertificateListQuery = z.infer<typeof certificateListQuery>;

export const findReceiptQuery = z.object({
  number: z.coerce
    .number({ error: LEDGER_MSG.numberFormat })
    .int(LEDGER_MSG.numberFormat)
    .min(1, LEDGER_MSG.numberFormat)
    .max(1e15, LEDGER_MSG.numberFormat),
  route_id: optionalId,
});

export const padHistoryParams = z.object({ id: id() });

const person = z.object({ id: z.number(), full_name: z.string() });
const named = z.object({ id: z.number(), name: z.string() });

/**
 * docs/design.md §8 and §9 event kinds. custody_out/custody_in move a booklet whose numbers are all consumed
 * (quantity 0); cancel_reverted and found undo a cancellation or a loss; voided ends a deleted pad.
 */
export const EVENT_KINDS = [
  'received',
  'opening',
  'transfer_out',
  'transfer_in',
  'used',
  'used_reverted',
  'cancelled',
  'lost',
  'cancel_reverted',
  'found',
  'custody_out',
  'custody_in',
  'voided',
] as const;
export type EventKindName = (typeof EVENT_KINDS)[number];

const incidentRef = z.object({ id: z.number(), number: z.string(), status: z.enum(['reported', 'confirmed', 'rejected']) });

export const padEventSchema = z
  .object({
    id: z.number(),
    kind: z.enum(EVENT_KINDS),
    from_number: z.number(),
    to_number: z.number(),
    qty: z.number(),
    holder_user: person.nullable(),
    holder_branch: named.nullable(),
    counterparty_user: person.nullable(),
    counterparty_branch: named.nullable(),
    invoice_id: z.number().nullable(),
    actor: person.nullable(),
    reason: z.string().nullable(),
    /** Who approved a cancellation or confirmed a loss or a find, when not the actor. */
    approver: person.nullable(),
    /** The loss incident a lost or found event belongs to. */
    incident: incidentRef.nullable(),
    /** For a cancellation: whether all copies of the spoiled receipt are retained. */
    copies_retained: z.boolean().nullable(),
    recorded_at: z.string(),
    business_date: z.string(),
  })
  .meta({ id: 'PadEvent' });
export type PadEvent = z.infer<typeof padEventSchema>;

export const holderSchema = z.object({ user: person.nullable(), branch: named.nullable() }).meta({ id: 'Holder' });
export const inTransitInvoiceSchema = z.object({ id: z.number(), invoice_type: named, assigned_user: person.nullable() }).nullable();

export const padRefSchema = z.object({ id: z.number(), number: z.number(), series_number: z.string() }).meta({ id: 'PadRef' });

/** What a number's last outcome was: the state, the reason, who recorded it and when (and the incident of a loss). */
export const numberOutcomeSchema = z.object({
  state: z.enum(['not_used', 'used', 'cancelled', 'lost']),
  reason: z.string().nullable(),
  actor: person.nullable(),
  recorded_at: z.string().nullable(),
  copies_retained: z.boolean().nullable(),
  incident: incidentRef.nullable(),
});

/** A pad that was deleted: find-receipt still answers "voided on … by …". */
export const voidedSchema = z.object({ at: z.string(), by: person.nullable() });

export const padHistorySchema = z
  .object({
    pad: padRefSchema.extend({ route: z.object({ id: z.number(), name: z.string(), tin: z.string(), company: named }) }),
    /** The first not-used number (null when none is left or the pad is gone). */
    next_number: z.number().nullable(),
    number_counts: z.object({ not_used: z.number(), used: z.number(), cancelled: z.number(), lost: z.number() }),
    voided: voidedSchema.nullable(),
    holder: holderSchema,
    in_transit_invoice: inTransitInvoiceSchema,
    events: z.array(padEventSchema),
  })
  .meta({ id: 'PadHistory' });
export type PadHistory = z.infer<typeof padHistorySchema>;

export const receiptFindingSchema = z
  .object({
    route: z.object({ id: z.number(), name: z.string(), tin: z.string(), company: named }),
    pad: padRefSchema,
    status: z.enum(['not_used', 'used', 'cancelled', 'lost']),
    /** The reason, actor, time and incident behind the status. */
    outcome: numberOutcomeSchema,
    next_number: z.number().nullable(),
    voided: voidedSchema.nullable(),
    holder: holderSchema,
    in_transit_invoice: inTransitInvoiceSchema,
    /** docs/design.md §10: the registered series (ATP, form type) the pad lies inside. */
    registered_series: registeredSeriesRef.nullable(),
    events: z.array(padEventSchema),
  })
  .meta({ id: 'ReceiptFinding' });
export type ReceiptFinding = z.infer<typeof receiptFindingSchema>;

const rangeList = z.array(z.tuple([z.number(), z.number()]));
const columnGroup = z.object({ qty: z.number(), ranges: rangeList });
const issuedGroup = columnGroup.extend({
  by_kind: z.object({ used: z.number(), cancelled: z.number(), lost: z.number(), transferred: z.number(), voided: z.number().optional() }),
});
const quantities = z.object({ beginning: z.number(), receipt: z.number(), issued: z.number(), ending: z.number() });

export const raafRouteRowSchema = z
  .object({
    route: z.object({ id: z.number(), name: z.string(), tin: z.string(), company: z.string() }),
    beginning: columnGroup,
    receipt: columnGroup,
    issued: issuedGroup,
    ending: columnGroup,
    remarks: z.array(z.string()),
  })
  .meta({ id: 'RaafRouteRow' });
export type RaafRouteRow = z.infer<typeof raafRouteRowSchema>;

export const certificateRefSchema = z
  .object({ id: z.number(), number: z.string(), certified_at: z.string(), reviewed_at: z.string().nullable() })
  .meta({ id: 'RaafCertificateRef' });

export const raafSchema = z
  .object({
    month: z.string(),
    holder: z.object({ type: z.enum(['user', 'branch']), id: z.number(), name: z.string(), branch: named.nullable() }),
    rows: z.array(raafRouteRowSchema),
    totals: quantities,
    balanced: z.literal(true),
    in_transit: z.array(z.object({ invoice_id: z.number(), courier: z.string().nullable(), qty: z.number() })),
    certificate: certificateRefSchema.nullable(),
  })
  .meta({ id: 'Raaf' });
export type Raaf = z.infer<typeof raafSchema>;

export const certificateSchema = certificateRefSchema
  .extend({
    month: z.string(),
    holder: z.object({ type: z.enum(['user', 'branch']), id: z.number(), name: z.string() }),
    certified_by: person,
    reviewed_by: person.nullable(),
    totals: quantities,
    pdf_url: z.string(),
  })
  .meta({ id: 'RaafCertificate' });
export type RaafCertificate = z.infer<typeof certificateSchema>;

export const raafSummarySchema = z
  .object({
    month: z.string(),
    rows: z.array(raafRouteRowSchema.omit({ remarks: true })),
    totals: quantities,
    holders: z.array(
      z.object({
        holder: z.object({ type: z.enum(['user', 'branch']), id: z.number(), name: z.string(), branch: named.nullable() }),
        totals: quantities,
        certificate: certificateRefSchema.nullable(),
      }),
    ),
  })
  .meta({ id: 'RaafSummary' });
export type RaafSummary = z.infer<typeof raafSummarySchema>;

/** The branch roll-up: the branch's stock and every user of the branch, summed per route, and each holder's totals. */
export const raafRollupSchema = raafSummarySchema.extend({ rollup: z.literal(true), branch: named }).meta({ id: 'RaafRollup' });
export type RaafRollup = z.infer<typeof raafRollupSchema>;

/** How many of a failed check's printed lines are stored and shown; `npm run ledger:verify` prints them all. */
export const LEDGER_CHECK_PROBLEM_LINES = 20;

export const LEDGER_CHECK_SOURCES = ['schedule', 'command'] as const;
export type LedgerCheckSource = (typeof LEDGER_CHECK_SOURCES)[number];

/** The newest run of the ledger verifier (docs/design.md §8), scheduled or by `npm run ledger:verify`: when, what it checked, what it found. */
export const ledgerCheckSchema = z
  .object({
    id: z.number(),
    /** `full`: every pad and event; `incremental`: the quick check of the pads whose chain grew since it was last verified. */
    mode: z.enum(['full', 'incremental']),
    source: z.enum(LEDGER_CHECK_SOURCES),
    /** Who or what ran it: the scheduled job's instance, or the command's OS user and host. */
    ran_by: z.string(),
    started_at: z.string(),
    finished_at: z.string(),
    ok: z.boolean(),
    pads: z.number(),
    events: z.number(),
    certificates: z.number(),
    problems: z.number(),
    /** The first LEDGER_CHECK_PROBLEM_LINES lines of what was found, pad by pad, then certificate by certificate. */
    problem_lines: z.array(z.string()),
  })
  .meta({ id: 'LedgerCheck' });

/** How far a running check has got (issue 39): pads and events checked so far, of how many pads. */
export const ledgerCheckProgressSchema = z
  .object({
    mode: z.enum(['full', 'incremental']),
    started_at: z.string(),
    pads: z.number(),
    pads_total: z.number(),
    events: z.number(),
  })
  .meta({ id: 'LedgerCheckProgress' });
export type LedgerCheckProgress = z.infer<typeof ledgerCheckProgressSchema>;

export const latestLedgerCheckSchema = z
  .object({
    /** Null until the first check has run. */
    check: ledgerCheckSchema.nullable(),
    /** LEDGER_VERIFY_EVERY_DAYS: how often the full check runs on its own. */
    every_days: z.number(),
    /** A check running on the instance that answers, as far as it has got; absent when none runs there. */
    running: ledgerCheckProgressSchema.optional(),
  })
  .meta({ id: 'LatestLedgerCheck' });

/** How much of its pads a running check has checked, in whole percent. */
export const ledgerCheckPercent = (progress: LedgerCheckProgress): number =>
  progress.pads_total > 0 ? Math.min(100, Math.floor((100 * progress.pads) / progress.pads_total)) : 100;

/** A running check's progress as one line: the command prints it, the ledger-check panel shows it. */
export function ledgerCheckProgressText(progress: LedgerCheckProgress, now: Date): string {
  const seconds = Math.max((now.getTime() - Date.parse(progress.started_at)) / 1000, 0.001);
  const percent = ledgerCheckPercent(progress);
  const number = (n: number) => Math.round(n).toLocaleString('en-US');
  return `${progress.mode === 'full' ? 'Full check' : 'Quick check'} running: ${number(progress.pads)} of ${number(progress.pads_total)} pads (${percent}%), ${number(progress.events)} events, ${number(progress.events / seconds)} events/s`;
}

export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;
export type LatestLedgerCheck = z.infer<typeof latestLedgerCheckSchema>;
