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
import { ERROR_RESPONSES, created, dataResponse, errorResponse, listResponse, messageResponse, namedRef, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import { can } from '../../../shared/permissions.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as lifecycle from './lifecycle.ts';
import * as service from './service.ts';

const tags = ['invoices'];
/** Badge lookups are throttled per client so check digits cannot be guessed by brute force. */
const badgeLookupLimit = { rateLimit: { max: 60, timeWindow: '1 minute' } };

export function invoiceRoutes(app: App, ctx: AppContext) {
  app.get('/api/get-invoices', { schema: { tags, querystring: invoiceListQuery, response: ok(invoicePage) }, onRequest: authorize() }, async (request) =>
    service.list(ctx, currentUser(request), request.query),
  );

  app.get('/api/get-invoice/:id', { schema: { tags, params: idParam, response: ok(dataResponse(invoiceDetail)) }, onRequest: authorize() }, async (request) => ({
    data: await service.detail(ctx, currentUser(request), request.params.id),
  }));

  app.get(
    '/api/invoice-pads/:id',
    { schema: { tags, params: idParam, querystring: listQuery, response: ok(pageResponse(invoicePadLink)) }, onRequest: authorize() },
    async (request) => service.padLinks(ctx, currentUser(request), request.params.id, request.query),
  );

  app.get(
    '/api/pads-belong-to-invoice/:id',
    { schema: { tags, params: idParam, querystring: listQuery, response: ok(pageResponse(invoicePad)) }, onRequest: authorize() },
    async (request) => service.pads(ctx, currentUser(request), request.params.id, request.query),
  );

  app.get('/api/head-office-branch', { schema: { tags, response: ok(dataResponse(namedRef)) }, onRequest: authorize((user) => can(user, 'directory.read')) }, async () => ({
    data: await service.headOffice(ctx),
  }));

  app.post(
    '/api/create-request-invoice',
    { schema: { tags, body: requestInvoiceSchema, response: created(savedResponse(invoiceRow)) }, onRequest: authorize((user) => can(user, 'invoice.request')) },
    async (request, reply) => {
      const data = await lifecycle.createRequest(ctx, currentUser(request), request.body);
      return reply.status(201).send({ message: INVOICE_MSG.requested, data });
    },
  );

  app.post(
    '/api/issue-invoice',
    { schema: { tags, body: issueInvoiceSchema, response: created(savedResponse(invoiceRow)) }, onRequest: authorize((user) => can(user, 'invoice.issue')) },
    async (request, reply) => {
      const data = await lifecycle.issue(ctx, currentUser(request), request.body);
      return reply.status(201).send({ message: INVOICE_MSG.issued, data });
    },
  );

  app.post('/api/accept-invoice/:id', { schema: { tags, params: idParam, response: ok(savedResponse(invoiceRow)) }, onRequest: authorize() }, async (request) => ({
    message: INVOICE_MSG.accepted,
    data: await lifecycle.accept(ctx, currentUser(request), request.params.id),
  }));

  app.delete('/api/delete-invoice/:id', { schema: { tags, params: idParam, response: ok(messageResponse) }, onRequest: authorize() }, async (request) => {
    await lifecycle.remove(ctx, currentUser(request), request.params.id);
    return { message: INVOICE_MSG.deleted };
  });

  app.get('/api/invoice-types', { schema: { tags, response: ok(listResponse(namedRef)) }, onRequest: authorize() }, async () => ({ data: await service.types(ctx) }));

  app.get('/api/invoice-statuses', { schema: { tags, response: ok(listResponse(namedRef)) }, onRequest: authorize((user) => can(user, 'directory.read')) }, async () => ({ data: await service.statuses(ctx) }));

  app.get(
    '/api/get-assigned-user/:code',
    { schema: { tags, params: assignedUserParams, response: ok(dataResponse(assignedUser)) }, onRequest: authorize((user) => can(user, 'directory.read')), config: badgeLookupLimit },
    async (request) => ({ data: await service.resolveBadge(ctx, request.params.code) }),
  );

  app.get(
    '/api/get-invoice-assigned-user-id',
    {
      schema: {
        tags,
        querystring: invoiceAssignedUserQuery,
        response: { ...ERROR_RESPONSES, 200: invoiceAssignedUserCheck, 422: z.union([invoiceAssignedUserCheck, errorResponse]) },
      }, onRequest: authorize(), config: badgeLookupLimit },
    async (request, reply) => {
      const result = await service.checkCourier(ctx, currentUser(request), request.query.invoice_id, request.query.decoded_user_id);
      return reply.status(result.ok ? 200 : 422).send(result.body);
    },
  );
}
