import { CUSTODY_MSG } from '../../../shared/schemas/custodies.ts';
import {
  handOverPending,
  handOverSchema,
  inTransitQuery,
  pendingHandOvers,
  returnInvoiceSchema,
  turnoverInvoiceSchema,
  userPadsQuery,
} from '../../../shared/schemas/custodies.ts';
import { invoicePage, invoiceRow } from '../../../shared/schemas/invoices.ts';
import { padRow } from '../../../shared/schemas/pads.ts';
import { created, exportableResponse, messageResponse, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import { idempotencyHeaders, idParam } from '../../../shared/schemas/common.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { sendListExport } from '../../lib/export.ts';
import { idempotent } from '../idempotency/lifecycle.ts';
import { answerHandOver, handOver, openTransfer, pendingHandOvers as listPendingHandOvers } from '../invoices/lifecycle.ts';
import { inTransitExport } from './export-read-model.ts';
import * as service from './service.ts';

const tags = ['custodies'];

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function custodyRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-in-transit-invoices',
    {
      schema: {
        operationId: 'listInTransitInvoices',
        summary: 'Lists the invoices in transit that concern the signed-in user, or exports all that match as CSV or .xlsx',
        tags,
        querystring: inTransitQuery,
        response: ok(exportableResponse(invoicePage, 'The in-transit invoices')),
      },
      onRequest: authorize(),
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (!format) return service.listInTransit(ctx, currentUser(request), query);
      return sendListExport(reply, ctx, format, inTransitExport, currentUser(request), query);
    },
  );

  app.get(
    '/api/get-user-pads',
    {
      schema: {
        operationId: 'listUserPads',
        summary: 'Lists the pads the signed-in user holds',
        tags,
        querystring: userPadsQuery,
        response: ok(pageResponse(padRow)),
      },
      onRequest: authorize(),
    },
    async (request) => service.listUserPads(ctx, currentUser(request), request.query),
  );

  app.post(
    '/api/create-return-invoice',
    {
      schema: {
        operationId: 'createReturnInvoice',
        summary: 'Opens a return of pads to the branch',
        tags,
        body: returnInvoiceSchema,
        response: created(savedResponse(invoiceRow), 403, 409),
      },
      onRequest: authorize(),
    },
    async (request, reply) => {
      const data = await openTransfer(ctx, currentUser(request), { kind: 'return', ...request.body });
      return reply.status(201).send({ message: CUSTODY_MSG.returnCreated, data });
    },
  );

  app.post(
    '/api/create-turnover-invoice',
    {
      schema: {
        operationId: 'createTurnoverInvoice',
        summary: 'Opens a turnover of pads to another holder',
        tags,
        body: turnoverInvoiceSchema,
        response: created(savedResponse(invoiceRow), 403, 409),
      },
      onRequest: authorize(),
    },
    async (request, reply) => {
      const data = await openTransfer(ctx, currentUser(request), { kind: 'turnover', ...request.body });
      return reply.status(201).send({ message: CUSTODY_MSG.turnoverCreated, data });
    },
  );

  app.post(
    '/api/hand-over-invoice/:id',
    {
      schema: {
        operationId: 'handOverInvoice',
        summary: 'Hands over the pads of a return or turnover invoice, or puts the hand-over in wait for its receiver',
        tags,
        params: idParam,
        headers: idempotencyHeaders,
        body: handOverSchema,
        response: ok(savedResponse(invoiceRow), 403, 409, 429),
      },
      onRequest: authorize(),
    },
    async (request, reply) => {
      const actor = currentUser(request);
      const answer = await idempotent(
        ctx,
        actor.id,
        request.headers['idempotency-key'],
        { method: request.method, operation: `hand-over:${request.params.id}`, input: { params: request.params, body: request.body } },
        async (txCtx) => {
          const { invoice, pendingFor } = await handOver(txCtx, actor, request.params.id, request.body, request.ip);
          return {
            status: 200 as const,
            body: { message: pendingFor ? handOverPending(pendingFor) : CUSTODY_MSG.handedOver, data: invoice },
          };
        },
      );
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.get(
    '/api/get-pending-hand-overs',
    {
      schema: {
        operationId: 'listPendingHandOvers',
        summary: 'Lists the hand-overs waiting for the signed-in user to accept, and those waiting on the receiver',
        tags,
        response: ok(pendingHandOvers),
      },
      onRequest: authorize(),
    },
    async (request) => listPendingHandOvers(ctx, currentUser(request)),
  );

  app.post(
    '/api/accept-hand-over/:id',
    {
      schema: {
        operationId: 'acceptHandOver',
        summary: 'The receiver accepts a hand-over waiting for him; the custody moves to him',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: authorize(),
    },
    async (request) => {
      await answerHandOver(ctx, currentUser(request), request.params.id, true);
      return { message: CUSTODY_MSG.acceptedHandOver };
    },
  );

  app.post(
    '/api/decline-hand-over/:id',
    {
      schema: {
        operationId: 'declineHandOver',
        summary: 'The receiver declines a hand-over waiting for him; the custody stays with the giver',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: authorize(),
    },
    async (request) => {
      await answerHandOver(ctx, currentUser(request), request.params.id, false);
      return { message: CUSTODY_MSG.declinedHandOver };
    },
  );
}
