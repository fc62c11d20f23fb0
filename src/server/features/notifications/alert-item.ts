import type { AlertKind } from '../../../shared/schemas/notifications.ts';

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

/** Reads the live tables and answers everything of its kinds that is late right now. */
export type Evaluator = (now: Date) => Promise<AlertItem[]>;
