import { z } from 'zod';
import { can } from '../../../shared/permissions.ts';
import { idParam, signedUrlQuery } from '../../../shared/schemas/common.ts';
import { created, exportableResponse, ok, pageResponse, pdfResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import { invoicePage } from '../../../shared/schemas/invoices.ts';
import {
  REPORT_MSG,
  completedInvoicesQuery,
  createReportSchema,
  reportListQuery,
  reportPreview,
  reportPreviewSchema,
  reportRow,
} from '../../../shared/schemas/reports.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendListExport } from '../../lib/export.ts';
import { sendFile } from '../../lib/send-file.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { SECURITY } from '../../lib/openapi.ts';
import { reportListExport } from './export-read-model.ts';
import * as service from './service.ts';

const tags = ['reports'];
/** Rendering a PDF costs real CPU, so one client may ask for a bounded number per minute. */
const renderLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };
const reportAccess = authorize((user) => can(user, 'report.use'));

const previewQuery = signedUrlQuery.extend({
  ids: z
    .string()
    .max(8 * 1000 + 10)
    .optional(),
});

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function reportRoutes(app: App, ctx: AppContext) {
  const completed = (operationId: string, summary: string) => ({
    schema: { operationId, summary, tags, querystring: completedInvoicesQuery, response: ok(invoicePage) },
    onRequest: reportAccess,
  });
  app.get(
    '/api/get-completed-issued-invoice',
    completed('listCompletedIssuedInvoices', 'Lists completed issue invoices a report can include'),
    async (request) => service.listCompletedInvoices(ctx, currentUser(request), request.query),
  );
  app.get(
    '/api/completed-invoices',
    completed('listCompletedInvoices', 'Lists completed issue invoices a report can include (the same list under its newer name)'),
    async (request) => service.listCompletedInvoices(ctx, currentUser(request), request.query),
  );

  app.post(
    '/api/reports/view',
    {
      schema: {
        operationId: 'createReportPreviewLink',
        summary: 'Checks a selection of invoices and returns a signed preview link',
        tags,
        body: reportPreviewSchema,
        response: ok(reportPreview, 409),
      },
      onRequest: reportAccess,
    },
    async (request) => service.previewLink(ctx, currentUser(request), request.body.invoice_ids),
  );

  app.post(
    '/api/reports',
    {
      schema: {
        operationId: 'createReport',
        summary: 'Saves a report of completed invoices with its PDF',
        tags,
        body: createReportSchema,
        response: created(savedResponse(reportRow), 409),
      },
      onRequest: reportAccess,
      config: renderLimit,
    },
    async (request, reply) => {
      const data = await service.createReport(ctx, currentUser(request), request.body);
      return reply.status(201).send({ message: REPORT_MSG.created, data });
    },
  );

  app.get(
    '/api/reports',
    {
      schema: {
        operationId: 'listReports',
        summary: 'Lists saved reports, or exports all that match as CSV or .xlsx',
        tags,
        querystring: reportListQuery,
        response: ok(exportableResponse(pageResponse(reportRow), 'The saved reports')),
      },
      onRequest: reportAccess,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (!format) return service.listReports(ctx, currentUser(request), query);
      return sendListExport(reply, ctx, format, reportListExport, currentUser(request), query);
    },
  );

  app.get(
    '/api/reports/preview',
    {
      schema: {
        operationId: 'getReportPreviewPdf',
        summary: 'Renders the preview PDF of a selection (signed link)',
        tags,
        security: SECURITY.signedLink,
        querystring: previewQuery,
        response: ok(pdfResponse, 409),
      },
      config: renderLimit,
    },
    async (request, reply) => sendFile(reply, (await service.previewPdf(ctx, request.query)).stream(), 'pdf', 'report-preview.pdf'),
  );

  app.get(
    '/api/reports/:id/pdf',
    {
      schema: {
        operationId: 'getReportPdf',
        summary: "Gets a saved report's PDF",
        tags,
        security: SECURITY.bearerOrSignedLink,
        params: idParam,
        querystring: signedUrlQuery,
        response: ok(pdfResponse),
      },
    },
    async (request, reply) => {
      const { number, pdf } = await service.savedPdf(ctx, request.params.id, request.user, request.query);
      return sendFile(reply, pdf, 'pdf', `${number}.pdf`);
    },
  );
}
