import { z } from 'zod';

/** Issue 37: the kinds of alert, each computed from the live tables and the ledger (docs/design.md "Alerts"). */
export const ALERT_KINDS = [
  'overdue_return',
  'waiting_acceptance',
  'courier_stale',
  'raaf_due',
  'count_due',
  'low_stock',
  'series_used_up',
  'loss_reported',
  'check_failed',
  'paper_use_exception',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const alertKind = z.enum(ALERT_KINDS);
