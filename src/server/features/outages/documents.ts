import type { PaperUseSummary } from '../../../shared/schemas/paper-use-summary.ts';
import type { AppContext } from '../../context.ts';
import { renderPaperUseSummaryPdf } from '../../lib/pdf/paper-use-summary-pdf.ts';
import { operatorIdentity } from '../settings/read-model.ts';

/** Issue 38: the summary list as a PDF under the operator's current letterhead, times in APP_TIMEZONE. */
export const paperUseSummaryPdf = async (ctx: AppContext, summary: PaperUseSummary) =>
  renderPaperUseSummaryPdf(summary, new Date(), await operatorIdentity(ctx.db), ctx.config.timeZone);
