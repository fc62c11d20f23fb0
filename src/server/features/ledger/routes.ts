import { z } from 'zod';
import { can } from '../../../shared/permissions.ts';
import { idParam, signedUrlQuery } from '../../../shared/schemas/common.ts';
import {
  LEDGER_MSG,
  certificateListQuery,
  certificateSchema,
  certifyRaafSchema,
  findReceiptQuery,
  latestLedgerCheckSchema,
  padHistorySchema,
  raafQuery,
  raafRollupSchema,
  raafSchema,
  raafSummaryQuery,
  raafSummarySchema,
  receiptFindingSchema,
} from '../../../shared/schemas/ledger.ts';
import {
  created,
  dataResponse,
  formatResponse,
  listResponse,
  ok,
  pageResponse,
  pdfResponse,
  exportableResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendListExport } from '../../lib/export.ts';
import { sendFile } from '../../lib/send-file.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { SECURITY } from '../../lib/openapi.ts';
import * as certificates from './certificates.ts';
import * as checks from './checks.ts';
import { certificateListExport } from './export-read-model.ts';
import * as padHistory from './pad-history.ts';
import * as raaf from './raaf.ts';

const tags = ['accountability'];
const ledgerReader = authorize((user) => can(user, 'ledger.read'));
const renderLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function ledgerRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/pad-history/:id',
    {
      schema: {
        operationId: 'getPadHistory',
        summary: "Gets a pad's custody history from the ledger",
        tags,
        params: idParam,
        response: ok(dataResponse(padHistorySchema)),
      },
      onRequest: ledgerReader,
    },
    async (request) => ({
      data: await padHistory.padHistory(ctx, request.params.id),
    }),
  );

  app.get(
    '/api/find-receipt',
    {
      schema: {
        operationId: 'findReceipt',
        summary: 'Finds who held a receipt number and when',
        tags,
        querystring: findReceiptQuery,
        response: ok(listResponse(receiptFindingSchema)),
      },
      onRequest: ledgerReader,
    },
    async (request) => ({
      data: await padHistory.findReceipt(ctx, request.query),
    }),
  );

  app.get(
    '/api/raaf',
    {
      schema: {
        operationId: 'getRaaf',
        summary: "Computes a holder's monthly RAAF, or with rollup=true a branch's roll-up, as JSON, PDF or CSV",
        tags,
        querystring: raafQuery,
        response: ok(formatResponse(dataResponse(z.union([raafSchema, raafRollupSchema])), 'The RAAF (or the branch roll-up)'), 403, 409),
      },
      onRequest: ledgerReader,
      config: renderLimit,
    },
    async (request, reply) => {
      const { format, rollup, ...query } = request.query;
      if (rollup === 'true' && query.branch_id !== undefined) {
        const report = await raaf.rollupFor(ctx, currentUser(request), { month: query.month, branch_id: query.branch_id });
        const fileName = `raaf-rollup-${report.month}-branch-${report.branch.id}`;
        if (format === 'pdf') return sendFile(reply, (await raaf.summaryPdf(ctx, report)).stream(), 'pdf', `${fileName}.pdf`);
        if (format === 'csv') return sendFile(reply, Buffer.from(raaf.raafCsv(report.rows)), 'csv', `${fileName}.csv`);
        return { data: report };
      }
      const report = await raaf.raafFor(ctx, currentUser(request), query);
      const fileName = `raaf-${report.month}-${report.holder.type}-${report.holder.id}`;
      if (format === 'pdf') return sendFile(reply, (await raaf.raafPdf(ctx, report)).stream(), 'pdf', `${fileName}.pdf`);
      if (format === 'csv') return sendFile(reply, Buffer.from(raaf.raafCsv(report.rows)), 'csv', `${fileName}.csv`);
      return { data: report };
    },
  );

  app.post(
    '/api/raaf/certify',
    {
      schema: {
        operationId: 'certifyRaaf',
        summary: "Certifies a holder's RAAF for a month",
        tags,
        body: certifyRaafSchema,
        response: created(savedResponse(certificateSchema), 409),
      },
      onRequest: ledgerReader,
      config: renderLimit,
    },
    async (request, reply) =>
      reply.status(201).send({ message: LEDGER_MSG.certified, data: await certificates.certify(ctx, currentUser(request), request.body) }),
  );

  app.post(
    '/api/raaf/:id/review',
    {
      schema: {
        operationId: 'reviewRaafCertificate',
        summary: 'Marks a RAAF certificate as reviewed',
        tags,
        params: idParam,
        response: ok(savedResponse(certificateSchema), 409),
      },
      onRequest: authorize((user) => can(user, 'raaf.review')),
    },
    async (request) => ({ message: LEDGER_MSG.reviewed, data: await certificates.review(ctx, currentUser(request), request.params.id) }),
  );

  app.get(
    '/api/raaf-certificates',
    {
      schema: {
        operationId: 'listRaafCertificates',
        summary: 'Lists the RAAF certificates the user may read, or exports all that match as CSV or .xlsx',
        tags,
        querystring: certificateListQuery,
        response: ok(exportableResponse(pageResponse(certificateSchema), 'The certificates')),
      },
      onRequest: ledgerReader,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (!format) return certificates.listCertificates(ctx, currentUser(request), query);
      return sendListExport(reply, ctx, format, certificateListExport, currentUser(request), query);
    },
  );

  app.get(
    '/api/raaf-certificates/:id/pdf',
    {
      schema: {
        operationId: 'getRaafCertificatePdf',
        summary: "Gets a RAAF certificate's frozen PDF",
        tags,
        security: SECURITY.bearerOrSignedLink,
        params: idParam,
        querystring: signedUrlQuery,
        response: ok(pdfResponse),
      },
    },
    async (request, reply) => {
      const { number, pdf } = await certificates.certificatePdf(ctx, request.params.id, request.user, request.query);
      return sendFile(reply, pdf, 'pdf', `${number}.pdf`);
    },
  );

  app.get(
    '/api/raaf-summary',
    {
      schema: {
        operationId: 'getRaafSummary',
        summary: 'Computes the consolidated RAAF of all holders as JSON, PDF or CSV',
        tags,
        querystring: raafSummaryQuery,
        response: ok(formatResponse(dataResponse(raafSummarySchema), 'The consolidated RAAF'), 409),
      },
      onRequest: authorize((user) => can(user, 'raaf.consolidated')),
      config: renderLimit,
    },
    async (request, reply) => {
      const summary = await raaf.summary(ctx, request.query.month);
      if (request.query.format === 'csv')
        return sendFile(reply, Buffer.from(raaf.raafCsv(summary.rows)), 'csv', `raaf-summary-${summary.month}.csv`);
      if (request.query.format === 'pdf')
        return sendFile(reply, (await raaf.summaryPdf(ctx, summary)).stream(), 'pdf', `raaf-summary-${summary.month}.pdf`);
      return { data: summary };
    },
  );

  app.get(
    '/api/ledger-checks/latest',
    {
      schema: {
        operationId: 'getLatestLedgerCheck',
        summary: 'Gets the newest ledger check: when it ran, what it checked and what it found',
        tags,
        response: ok(dataResponse(latestLedgerCheckSchema)),
      },
      onRequest: authorize((user) => can(user, 'ledgerCheck.read')),
    },
    async () => ({
      data: {
        check: await checks.latestLedgerCheck(ctx),
        every_days: ctx.config.ledgerVerifyEveryDays,
        running: checks.runningLedgerCheck(ctx),
      },
    }),
  );
}
