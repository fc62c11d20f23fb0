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
import type { App } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { sendFile } from '../../lib/send-file.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { renderRaafPdf } from '../../lib/pdf/raaf-pdf.ts';
import * as service from './service.ts';

const tags = ['accountability'];
const ledgerReader = authorize((user) => can(user, 'ledger.read'));
/** PDF and CSV travel as bytes; JSON clients get the `{ data }` envelope. */
const fileOrData = <T extends z.ZodType>(data: T) => z.union([dataResponse(data), z.string().describe('application/pdf or text/csv')]);
const renderLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

export function ledgerRoutes(app: App, ctx: AppContext) {
  app.get('/api/pad-history/:id', { schema: { tags, params: idParam, response: { 200: dataResponse(padHistorySchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader }, async (request) => ({
    data: await service.padHistory(ctx, request.params.id),
  }));

  app.get('/api/find-receipt', { schema: { tags, querystring: findReceiptQuery, response: { 200: listResponse(receiptFindingSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader }, async (request) => ({
    data: await service.findReceipt(ctx, request.query),
  }));

  app.get('/api/raaf', { schema: { tags, querystring: raafQuery, response: { 200: fileOrData(raafSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader, config: renderLimit }, async (request, reply) => {
    const { format, ...query } = request.query;
    const raaf = await service.raafFor(ctx, currentUser(request), query);
    const fileName = `raaf-${raaf.month}-${raaf.holder.type}-${raaf.holder.id}`;
    if (format === 'pdf') return sendFile(reply, await renderRaafPdf({ raaf, certificate: null, timeZone: ctx.config.timeZone, generatedAt: new Date() }), 'pdf', `${fileName}.pdf`);
    if (format === 'csv') return sendFile(reply, Buffer.from(service.raafCsv(raaf.rows)), 'csv', `${fileName}.csv`);
    return { data: raaf };
  });

  app.post('/api/raaf/certify', { schema: { tags, body: certifyRaafSchema, response: { 201: savedResponse(certificateSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader, config: renderLimit }, async (request, reply) =>
    reply.status(201).send({ message: LEDGER_MSG.certified, data: await service.certify(ctx, currentUser(request), request.body) }),
  );

  app.post(
    '/api/raaf/:id/review',
    { schema: { tags, params: idParam, response: { 200: savedResponse(certificateSchema), ...ERROR_RESPONSES } }, onRequest: authorize((user) => can(user, 'raaf.review')) },
    async (request) => ({ message: LEDGER_MSG.reviewed, data: await service.review(ctx, currentUser(request), request.params.id) }),
  );

  app.get('/api/raaf-certificates', { schema: { tags, querystring: certificateListQuery, response: { 200: pageResponse(certificateSchema), ...ERROR_RESPONSES } }, onRequest: ledgerReader }, async (request) =>
    service.listCertificates(ctx, currentUser(request), request.query),
  );

  app.get(
    '/api/raaf-certificates/:id/pdf',
    { schema: { tags, security: [], params: idParam, querystring: signedUrlQuery, response: { 200: z.string().describe('application/pdf'), ...ERROR_RESPONSES } } },
    async (request, reply) => {
      const { number, pdf } = await service.certificatePdf(ctx, request.params.id, request.user, request.query);
      return sendFile(reply, pdf, 'pdf', `${number}.pdf`);
    },
  );

  app.get(
    '/api/raaf-summary',
    { schema: { tags, querystring: raafSummaryQuery, response: { 200: fileOrData(raafSummarySchema), ...ERROR_RESPONSES } }, onRequest: authorize((user) => can(user, 'raaf.consolidated')), config: renderLimit },
    async (request, reply) => {
      const summary = await service.summary(ctx, request.query.month);
      if (request.query.format === 'csv') return sendFile(reply, Buffer.from(service.raafCsv(summary.rows)), 'csv', `raaf-summary-${summary.month}.csv`);
      if (request.query.format === 'pdf') {
        const raaf = { ...summary, holder: { type: 'branch' as const, id: 0, name: 'All holders (consolidated)', branch: null }, rows: summary.rows.map((row) => ({ ...row, remarks: [] })), balanced: true as const, in_transit: [], certificate: null };
        return sendFile(reply, await renderRaafPdf({ raaf, certificate: null, timeZone: ctx.config.timeZone, generatedAt: new Date() }), 'pdf', `raaf-summary-${summary.month}.pdf`);
      }
      return { data: summary };
    },
  );
}
