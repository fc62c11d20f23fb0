import { CUSTODY_MSG } from '../../../shared/schemas/custodies.ts';
import {
  handOverSchema,
  inTransitQuery,
  returnInvoiceSchema,
  turnoverInvoiceSchema,
  userPadsQuery,
} from '../../../shared/schemas/custodies.ts';
import { invoicePage, invoiceRow } from '../../../shared/schemas/invoices.ts';
import { padRow } from '../../../shared/schemas/pads.ts';
import { created, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { handOver, openTransfer } from '../invoices/lifecycle.ts';
import * as service from './service.ts';

const tags = ['custodies'];

export function custodyRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-in-transit-invoices',
    {
      schema: {
        operationId: 'listInTransitInvoices',
        summary: 'Lists the invoices in transit that concern the signed-in user',
        tags,
        querystring: inTransitQuery,
        response: ok(invoicePage),
      },
      onRequest: authorize(),
    },
    async (request) => service.listInTransit(ctx, currentUser(request), request.query),
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
        summary: 'Hands over the pads of a return or turnover invoice',
        tags,
        params: idParam,
        body: handOverSchema,
        response: ok(savedResponse(invoiceRow), 403, 409),
      },
      onRequest: authorize(),
    },
    async (request) => ({
      message: CUSTODY_MSG.handedOver,
      data: await handOver(ctx, currentUser(request), request.params.id, request.body),
    }),
  );
}
