import { z } from 'zod';
import { exportFileName } from '../../../shared/list-columns.ts';
import { can } from '../../../shared/permissions.ts';
import { summaryQuery, summarySchema } from '../../../shared/schemas/paper-use-summary.ts';
import { XLSX_CONTENT_TYPE, dataResponse, ok } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { sendExport } from '../../lib/export.ts';
import { sendFile } from '../../lib/send-file.ts';
import { paperUseSummaryPdf } from './documents.ts';
import { paperUseSummary, summaryColumns, summaryLines, summarySource } from './summary.ts';

const FILE_BASE = 'Paper use summary';

/** JSON, or with `format` the same summary as a PDF, a CSV or an .xlsx. */
const summaryResponse = {
  description:
    'The summary list: JSON without `format`; with `format=pdf` the PDF, with `format=csv` (UTF-8 with BOM, RFC 4180) or `format=xlsx` a file of its lines.',
  content: {
    'application/json': { schema: dataResponse(summarySchema) },
    'application/pdf': { schema: z.string().meta({ format: 'binary' }) },
    'text/csv': { schema: z.string() },
    [XLSX_CONTENT_TYPE]: { schema: z.string().meta({ format: 'binary' }) },
  },
};

/** Issue 38: the summary list of an establishment's paper beside e-invoicing. */
export function paperUseSummaryRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/paper-use',
    {
      schema: {
        operationId: 'getPaperUseSummary',
        summary: "Summarises an establishment's paper use in a period: outages, exceptions, replacements, totals against the ledger",
        tags: ['outages'],
        querystring: summaryQuery,
        response: ok(summaryResponse, 403),
      },
      onRequest: authorize((user) => can(user, 'paperUse.summary')),
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const summary = await paperUseSummary(ctx, currentUser(request), query);
      const timeZone = ctx.config.timeZone;
      if (format === 'pdf')
        return sendFile(reply, await paperUseSummaryPdf(ctx, summary), 'pdf', exportFileName(FILE_BASE, new Date(), timeZone, 'pdf'));
      if (format === 'csv' || format === 'xlsx')
        return sendExport(
          reply,
          timeZone,
          format,
          FILE_BASE,
          summaryColumns(summary, timeZone),
          summarySource(summaryLines(summary, timeZone)),
        );
      return { data: summary };
    },
  );
}
