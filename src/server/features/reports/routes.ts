import { z } from 'zod';
import { can } from '../../../shared/permissions.ts';
import { idParam, signedUrlQuery } from '../../../shared/schemas/common.ts';
import { created, ok, pageResponse, pdfResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import { invoicePage } from '../../../shared/schemas/invoices.ts';
import { REPORT_MSG, completedInvoicesQuery, createReportSchema, reportListQuery, reportPreview, reportPreviewSchema, reportRow } from '../../../shared/schemas/reports.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendFile } from '../../lib/send-file.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['reports'];
/** Rendering a PDF costs real CPU, so one client may ask for a bounded number per minute. */
const renderLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };
const reportAccess = authorize((user) => can(user, 'report.use'));

const previewQuery = signedUrlQuery.extend({ ids: z.string().max(8 * 1000 + 10).optional() });

export function reportRoutes(app: App, ctx: AppContext) {
  const completed = { schema: { tags, querystring: completedInvoicesQuery, response: ok(invoicePage) }, onRequest: reportAccess };
  app.get('/api/get-completed-issued-invoice', completed, async (request) => service.listCompletedInvoices(ctx, currentUser(request), request.query));
  app.get('/api/completed-invoices', completed, async (request) => service.listCompletedInvoices(ctx, currentUser(request), request.query));

  app.post('/api/reports/view', { schema: { tags, body: reportPreviewSchema, response: ok(reportPreview) }, onRequest: reportAccess }, async (request) =>
    service.previewLink(ctx, currentUser(request), request.body.invoice_ids),
  );

  app.post('/api/reports', { schema: { tags, body: createReportSchema, response: created(savedResponse(reportRow)) }, onRequest: reportAccess, config: renderLimit }, async (request, reply) => {
    const data = await service.createReport(ctx, currentUser(request), request.body);
    return reply.status(201).send({ message: REPORT_MSG.created, data });
  });

  app.get('/api/reports', { schema: { tags, querystring: reportListQuery, response: ok(pageResponse(reportRow)) }, onRequest: reportAccess }, async (request) =>
    service.listReports(ctx, currentUser(request), request.query),
  );

  app.get('/api/reports/preview', { schema: { tags, security: [], querystring: previewQuery, response: ok(pdfResponse) }, config: renderLimit }, async (request, reply) =>
    sendFile(reply, await service.previewPdf(ctx, request.query), 'pdf', 'report-preview.pdf'),
  );

  app.get('/api/reports/:id/pdf', { schema: { tags, params: idParam, querystring: signedUrlQuery, response: ok(pdfResponse) } }, async (request, reply) => {
    const { number, pdf } = await service.savedPdf(ctx, request.params.id, request.user, request.query);
    return sendFile(reply, pdf, 'pdf', `${number}.pdf`);
  });
}
