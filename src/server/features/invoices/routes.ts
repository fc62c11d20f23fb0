import { z } from 'zod';
import { listQuery, idParam } from '../../../shared/schemas/common.ts';
import {
  INVOICE_MSG,
  assignedUser,
  assignedUserParams,
  invoiceAssignedUserCheck,
  invoiceAssignedUserQuery,
  invoiceDetail,
  invoiceListQuery,
  invoicePad,
  invoicePadLink,
  invoicePage,
  invoiceRow,
  issueInvoiceSchema,
  requestInvoiceSchema,
} from '../../../shared/schemas/invoices.ts';
import {
  created,
  dataResponse,
  errorResponse,
  exportableResponse,
  listResponse,
  messageResponse,
  namedRef,
  ok,
  pageResponse,
  pdfResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import { can } from '../../../shared/permissions.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { sendFile } from '../../lib/send-file.ts';
import { sendListExport } from '../../lib/export.ts';
import { invoiceListExport } from './export-read-model.ts';
import * as lifecycle from './lifecycle.ts';
import * as service from './service.ts';

const tags = ['invoices'];
/** Badge lookups are throttled per client so check digits cannot be guessed by brute force. */
const badgeLookupLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function invoiceRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-invoices',
    {
      schema: {
        operationId: 'listInvoices',
        summary: 'Lists the invoices the signed-in user may see, or exports all that match as CSV or .xlsx',
        tags,
        querystring: invoiceListQuery,
        response: ok(exportableResponse(invoicePage, 'The invoices'), 403),
      },
      onRequest: authorize(),
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (!format) return service.list(ctx, currentUser(request), query);
      return sendListExport(reply, ctx, format, invoiceListExport, currentUser(request), query);
    },
  );

  app.get(
    '/api/get-invoice/:id',
    {
      schema: {
        operationId: 'getInvoice',
        summary: 'Gets one invoice with its pads and history',
        tags,
        params: idParam,
        response: ok(dataResponse(invoiceDetail)),
      },
      onRequest: authorize(),
    },
    async (request) => ({
      data: await service.detail(ctx, currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/api/invoice-slip/:id',
    {
      schema: {
        operationId: 'getTransmittalSlipPdf',
        summary: 'The transmittal slip PDF of a transfer invoice',
        tags,
        params: idParam,
        response: ok(pdfResponse, 404, 409),
      },
      onRequest: authorize(),
    },
    async (request, reply) =>
      sendFile(reply, await service.transmittalSlip(ctx, currentUser(request), request.params.id), 'pdf', `slip-${request.params.id}.pdf`),
  );

  app.get(
    '/api/invoice-pads/:id',
    {
      schema: {
        operationId: 'listInvoicePadLinks',
        summary: 'Lists the pad links of an invoice',
        tags,
        params: idParam,
        querystring: listQuery,
        response: ok(pageResponse(invoicePadLink)),
      },
      onRequest: authorize(),
    },
    async (request) => service.padLinks(ctx, currentUser(request), request.params.id, request.query),
  );

  app.get(
    '/api/pads-belong-to-invoice/:id',
    {
      schema: {
        operationId: 'listInvoicePads',
        summary: 'Lists the pads that belong to an invoice',
        tags,
        params: idParam,
        querystring: listQuery,
        response: ok(pageResponse(invoicePad)),
      },
      onRequest: authorize(),
    },
    async (request) => service.pads(ctx, currentUser(request), request.params.id, request.query),
  );

  app.get(
    '/api/head-office-branch',
    {
      schema: {
        operationId: 'getHeadOfficeBranch',
        summary: 'Gets the head office branch',
        tags,
        response: ok(dataResponse(namedRef), 409),
      },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({
      data: await service.headOffice(ctx),
    }),
  );

  app.post(
    '/api/create-request-invoice',
    {
      schema: {
        operationId: 'createRequestInvoice',
        summary: 'Requests pads from the head office',
        tags,
        body: requestInvoiceSchema,
        response: created(savedResponse(invoiceRow), 409),
      },
      onRequest: authorize((user) => can(user, 'invoice.request')),
    },
    async (request, reply) => {
      const data = await lifecycle.createRequest(ctx, currentUser(request), request.body);
      return reply.status(201).send({ message: INVOICE_MSG.requested, data });
    },
  );

  app.post(
    '/api/issue-invoice',
    {
      schema: {
        operationId: 'issueInvoice',
        summary: 'Issues pads to a holder',
        tags,
        body: issueInvoiceSchema,
        response: created(savedResponse(invoiceRow), 404, 409),
      },
      onRequest: authorize((user) => can(user, 'invoice.issue')),
    },
    async (request, reply) => {
      const data = await lifecycle.issue(ctx, currentUser(request), request.body);
      return reply.status(201).send({ message: INVOICE_MSG.issued, data });
    },
  );

  app.post(
    '/api/accept-invoice/:id',
    {
      schema: {
        operationId: 'acceptInvoice',
        summary: 'Accepts the pads of an invoice',
        tags,
        params: idParam,
        response: ok(savedResponse(invoiceRow), 403, 409),
      },
      onRequest: authorize(),
    },
    async (request) => ({
      message: INVOICE_MSG.accepted,
      data: await lifecycle.accept(ctx, currentUser(request), request.params.id),
    }),
  );

  app.delete(
    '/api/delete-invoice/:id',
    {
      schema: {
        operationId: 'deleteInvoice',
        summary: 'Deletes an invoice that has not been acted on',
        tags,
        params: idParam,
        response: ok(messageResponse, 403, 409),
      },
      onRequest: authorize(),
    },
    async (request) => {
      await lifecycle.remove(ctx, currentUser(request), request.params.id);
      return { message: INVOICE_MSG.deleted };
    },
  );

  app.get(
    '/api/invoice-types',
    {
      schema: { operationId: 'listInvoiceTypes', summary: 'Lists the invoice types', tags, response: ok(listResponse(namedRef)) },
      onRequest: authorize(),
    },
    async () => ({ data: await service.types(ctx) }),
  );

  app.get(
    '/api/invoice-statuses',
    {
      schema: { operationId: 'listInvoiceStatuses', summary: 'Lists the invoice statuses', tags, response: ok(listResponse(namedRef)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.statuses(ctx) }),
  );

  app.get(
    '/api/get-assigned-user/:code',
    {
      schema: {
        operationId: 'resolveBadge',
        summary: 'Finds the user a scanned badge code belongs to',
        tags,
        params: assignedUserParams,
        response: ok(dataResponse(assignedUser)),
      },
      onRequest: authorize((user) => can(user, 'directory.read')),
      config: badgeLookupLimit,
    },
    async (request) => ({
      data: await service.resolveBadge(ctx, { userId: currentUser(request).id, address: request.ip }, request.params.code),
    }),
  );

  app.get(
    '/api/get-invoice-assigned-user-id',
    {
      schema: {
        operationId: 'checkInvoiceCourier',
        summary: 'Checks that a scanned badge belongs to the courier assigned to an invoice',
        tags,
        querystring: invoiceAssignedUserQuery,
        response: {
          ...ok(invoiceAssignedUserCheck, 404),
          422: {
            description: "The badge is not the assigned courier's (the check's answer), or the input is invalid.",
            content: { 'application/json': { schema: z.union([invoiceAssignedUserCheck, errorResponse]) } },
          },
        },
      },
      onRequest: authorize(),
      config: badgeLookupLimit,
    },
    async (request, reply) => {
      const result = await service.checkCourier(
        ctx,
        currentUser(request),
        request.query.invoice_id,
        request.query.decoded_user_id,
        request.ip,
      );
      return reply.status(result.ok ? 200 : 422).send(result.body);
    },
  );
}
