import type { AlertKind, AlertThresholds } from '../../../shared/schemas/notifications.ts';
import type { AppContext } from '../../context.ts';
import type { People } from './people.ts';

/**
 * One thing that is late, for one person, as an evaluator finds it in the live tables now. The evaluator framework
 * (evaluate.ts) keeps one notification per dedupe key open while an evaluator still answers it, and resolves it when no
 * evaluator does any more.
 */
export interface AlertItem {
  kind: AlertKind;
  recipientUserId: number;
  /** 0 for the first person told; 1, 2 for each escalation (branch head, then Accounting). */
  level: number;
  /** What the alert is about, e.g. { type: 'invoice', id: 12 }: the link and the resolve key are built from it. */
  subject: { type: string; id: number | string };
  /** The period the item is late for ("2026-11" for a RAAF, "2026-11-29" for a daily kind): one notification per period. */
  period: string;
  title: string;
  body: string;
  /** The screen with the thing open, e.g. /invoices?invoice=12. */
  link: string;
}

/** A branch and route's reorder point as Admin or Accounting set it (alert settings). */
export interface ReorderPointSetting {
  branchId: number;
  routeId: number;
  minimum: number;
  leadDays: number;
  /** YYYY-MM-DD: no low-stock alert while the business date is on or before it. */
  snoozedUntil: string | null;
}

/** What every evaluator is given for one run: the clock, the business date and the thresholds in force. */
export interface EvaluationInput {
  now: Date;
  /** The business date of `now` in APP_TIMEZONE (YYYY-MM-DD). */
  today: string;
  thresholds: AlertThresholds;
  reorderPoints: ReorderPointSetting[];
  /** Everyone, read once for the run: `withRoles`, `branchHeads`, `get`. A deactivated recipient is replaced by the framework. */
  people: People;
}

/**
 * Reads the live tables (through the owners' read-models) and answers everything of its kinds that is late right now.
 * Each file of kinds/ exports `evaluator: Evaluator` and is listed once in evaluators.ts.
 * `kinds` are the kinds it answers for: when it returns, the open notifications of those kinds it did not answer are
 * resolved; when it throws, they are left as they were.
 */
export interface Evaluator {
  kinds: readonly AlertKind[];
  evaluate: (ctx: AppContext, input: EvaluationInput) => Promise<AlertItem[]>;
}
