import type { Evaluator } from './alert-item.ts';
import { evaluator as checkFailed } from './kinds/check-failed.ts';
import { evaluator as countDue } from './kinds/count-due.ts';
import { evaluator as invoiceKinds } from './kinds/invoices.ts';
import { evaluator as lossReported } from './kinds/loss-reported.ts';
import { evaluator as paperUseException } from './kinds/paper-use-exception.ts';
import { evaluator as lowStock } from './kinds/low-stock.ts';
import { evaluator as raafDue } from './kinds/raaf-due.ts';
import { evaluator as seriesUsedUp } from './kinds/series-used-up.ts';

/** Every alert evaluator, each once: a kinds/<kind>.ts file exports `evaluator` and adds one line here. */
export const EVALUATORS: readonly Evaluator[] = [
  invoiceKinds,
  lossReported,
  checkFailed,
  paperUseException,
  raafDue,
  countDue,
  lowStock,
  seriesUsedUp,
];
