import { z } from 'zod';
import { can } from '../../../shared/permissions.ts';
import { idParam, signedUrlQuery } from '../../../shared/schemas/common.ts';
import {
  LEDGER_MSG,
  certificateListQuery,
  certificateSchema,
  certifyRaafSchema,
  findReceiptQuery,
  padHistorySchema,
  raafQuery,
  raafSchema,
  raafSummaryQuery,
  raafSummarySchema,
  receiptFindingSchema,
} from '../../../shared/schemas/ledger.ts';
import { ERROR_RESPONSES, dataResponse, listResponse, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendFile } from '../../lib/send-file.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as certificates from './certificates.ts';
import * as padHistory from './pad-history.ts';
import * as raaf from './raaf.ts';

const tags = ['accountability'];
const ledgerReader = authorize((user) => can(user, 'ledger.read'));
/** PDF and CSV travel as bytes; JSON clients get the `{ data }` envelope. */
const fileOrData = <T extends z.ZodType>(data: T) => z.union([dataResponse(data), z.string().describe('application/pdf or text/csv')]);
const renderLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

export function ledgerRoutes(app: App, ctx: AppContext) {
  app.get('/api/pad-history/:id', { schema: { tags, params: idParam, response: { 200: dataResponse(padHistorySchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader }, async (request) => ({
    data: await padHistory.padHistory(ctx, request.params.id),
  }));

  app.get('/api/find-receipt', { schema: { tags, querystring: findReceiptQuery, response: { 200: listResponse(receiptFindingSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader }, async (request) => ({
    data: await padHistory.findReceipt(ctx, request.query),
  }));

  app.get('/api/raaf', { schema: { tags, querystring: raafQuery, response: { 200: fileOrData(raafSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader, config: renderLimit }, async (request, reply) => {
    const { format, ...query } = request.query;
    const report = await raaf.raafFor(ctx, currentUser(request), query);
    const fileName = `raaf-${report.month}-${report.holder.type}-${report.holder.id}`;
    if (format === 'pdf') return sendFile(reply, await raaf.raafPdf(ctx, report), 'pdf', `${fileName}.pdf`);
    if (format === 'csv') return sendFile(reply, Buffer.from(raaf.raafCsv(report.rows)), 'csv', `${fileName}.csv`);
    return { data: report };
  });

  app.post('/api/raaf/certify', { schema: { tags, body: certifyRaafSchema, response: { 201: savedResponse(certificateSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader, config: renderLimit }, async (request, reply) =>
    reply.status(201).send({ message: LEDGER_MSG.certified, data: await certificates.certify(ctx, currentUser(request), request.body) }),
  );

  app.post(
    '/api/raaf/:id/review',
    { schema: { tags, params: idParam, response: { 200: savedResponse(certificateSchema), ...ERROR_RESPONSES } }, onRequest: authorize((user) => can(user, 'raaf.review')) },
    async (request) => ({ message: LEDGER_MSG.reviewed, data: await certificates.review(ctx, currentUser(request), request.params.id) }),
  );

  app.get('/api/raaf-certificates', { schema: { tags, querystring: certificateListQuery, response: { 200: pageResponse(certificateSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader }, async (request) =>
    certificates.listCertificates(ctx, currentUser(request), request.query),
  );

  app.get(
    '/api/raaf-certificates/:id/pdf',
    { schema: { tags, security: [], params: idParam, querystring: signedUrlQuery, response: { 200: z.string().describe('application/pdf'), ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const { number, pdf } = await certificates.certificatePdf(ctx, request.params.id, request.user, request.query);
      return sendFile(reply, pdf, 'pdf', `${number}.pdf`);
    },
  );

  app.get(
    '/api/raaf-summary',
    { schema: { tags, querystring: raafSummaryQuery, response: { 200: fileOrData(raafSummarySchema), ...ERROR_RESPONSES } }, onRequest: authorize((user) => can(user, 'raaf.consolidated')), config: renderLimit },
    async (request, reply) => {
      const summary = await raaf.summary(ctx, request.query.month);
      if (request.query.format === 'csv') return sendFile(reply, Buffer.from(raaf.raafCsv(summary.rows)), 'csv', `raaf-summary-${summary.month}.csv`);
      if (request.query.format === 'pdf') return sendFile(reply, await raaf.summaryPdf(ctx, summary), 'pdf', `raaf-summary-${summary.month}.pdf`);
      return { data: summary };
    },
  );
}
