import { z } from 'zod';
import { calendarDayText } from '../format.ts';
import { required } from '../messages.ts';
import { listQuery, text } from './common.ts';
import { optionalId } from './fields.ts';

/** Issue 38: a paper use is linked to an outage, or an exception: open until Accounting justifies or rejects it. */
export const PAPER_USE_STATES = ['linked', 'open', 'justified', 'rejected'] as const;
export type PaperUseState = (typeof PAPER_USE_STATES)[number];

export const EXCEPTION_STATES = ['open', 'justified', 'rejected'] as const;
export type ExceptionState = (typeof EXCEPTION_STATES)[number];

export const EXCEPTION_DECISIONS = ['justified', 'rejected'] as const;
export type ExceptionDecision = (typeof EXCEPTION_DECISIONS)[number];

/**
 * Why paper was used outside a declared outage, as Accounting records it. The first ones explain a justified use (the
 * outage happened but was declared late or not at all, a customer or a converted booklet needed paper); rejecting one
 * usually says "other" with the text of what went wrong.
 */
export const EXCEPTION_REASONS = [
  'outage_not_declared',
  'system_slow',
  'customer_required_paper',
  'converted_until_consumed',
  'supplementary_document',
  'training_test',
  'other',
] as const;
export type ExceptionReason = (typeof EXCEPTION_REASONS)[number];

export const EXCEPTION_REASON_LABELS: Record<ExceptionReason, string> = {
  outage_not_declared: 'Outage happened but was not declared in time',
  system_slow: 'Invoicing system too slow to serve the queue',
  customer_required_paper: 'Customer required a paper invoice or receipt',
  converted_until_consumed: 'Converted receipt used until consumed (RR 11-2024)',
  supplementary_document: 'Supplementary document, not a sale',
  training_test: 'Training or test',
  other: 'Other',
};

const roleWord = (role: string) => (role === 'retired' ? 'a retired' : `a ${role}`);

export const PAPER_USE_MSG = {
  /** Usage of a regular or retired series at a covered establishment after its go-live (issue 38). */
  roleRefused: (padNumber: number, role: string, since: string) =>
    `Pad ${padNumber} is in ${roleWord(role)} series: ${role} series may not be used at an e-invoicing establishment after its go-live (${calendarDayText(since)}).`,
  noSeries: (padNumber: number, since: string) =>
    `Pad ${padNumber} has no registered series, so it counts as regular and may not be used at an e-invoicing establishment after its go-live (${calendarDayText(since)}). Register its series with a role (contingency, converted or supplementary) first.`,
  notFound: 'Paper-use exception not found.',
  alreadyDecided: (state: ExceptionState) => `This exception has already been ${state}.`,
  decided: (decision: ExceptionDecision) => (decision === 'justified' ? 'Exception justified' : 'Exception rejected'),
  decisionRequired: 'Decision must be justified or rejected',
  reasonNotListed: 'Choose a reason from the list',
  reasonRequired: required('Reason'),
  reasonTextRequired: required('Explanation'),
  stateFilter: 'State must be open, justified or rejected',
  /** A holder's RAAF of a month with an open exception (issue 38). */
  certifyBlocked: (count: number, first: number, month: string) =>
    `${count === 1 ? 'A paper-use exception' : `${count} paper-use exceptions`} of ${month} (first: number ${first}) ${count === 1 ? 'is' : 'are'} still open: Accounting must justify or reject ${count === 1 ? 'it' : 'them'} before this RAAF can be certified.`,
} as const;

/** GET paper-use-exceptions: the exceptions (never linked uses), by state and establishment; undone ones are gone. */
export const exceptionListQuery = listQuery.omit({ search: true }).extend({
  state: z.preprocess((v) => (v === '' ? undefined : v), z.enum(EXCEPTION_STATES, { error: PAPER_USE_MSG.stateFilter }).optional()),
  branch_id: optionalId,
});
export type ExceptionListQuery = z.output<typeof exceptionListQuery>;

/** POST paper-use-exceptions/{id}/decision: a reason from the list and the text that explains it. */
export const exceptionDecisionInput = z.object({
  decision: z.enum(EXCEPTION_DECISIONS, { error: PAPER_USE_MSG.decisionRequired }),
  reason_code: z.enum(EXCEPTION_REASONS, {
    error: (issue) => (issue.input == null || issue.input === '' ? PAPER_USE_MSG.reasonRequired : PAPER_USE_MSG.reasonNotListed),
  }),
  reason_text: text('Explanation', PAPER_USE_MSG.reasonTextRequired)
    .trim()
    .min(1, PAPER_USE_MSG.reasonTextRequired)
    .max(1000, 'Explanation may not be longer than 1000 characters'),
});
export type ExceptionDecisionInput = z.output<typeof exceptionDecisionInput>;

const person = z.object({ id: z.number(), name: z.string() });

export const paperUseExceptionSchema = z
  .object({
    id: z.number(),
    establishment: person,
    pad: z.object({ id: z.number(), number: z.number() }),
    route: z.object({ id: z.number(), label: z.string() }),
    number_from: z.number(),
    number_to: z.number(),
    /** "1000012" or "1000012-1000015". */
    numbers: z.string(),
    series_role: z.string(),
    used_at: z.string(),
    business_date: z.string(),
    holder: person.nullable(),
    recorded_by: person,
    state: z.enum(EXCEPTION_STATES),
    decision: z
      .object({
        reason_code: z.enum(EXCEPTION_REASONS),
        reason_label: z.string(),
        reason_text: z.string().nullable(),
        decided_by: person,
        decided_at: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'PaperUseException' });
export type PaperUseException = z.infer<typeof paperUseExceptionSchema>;
