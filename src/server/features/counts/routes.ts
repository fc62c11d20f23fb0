import { can } from '../../../shared/permissions.ts';
import {
  COUNT_MSG,
  countItem,
  countItemSchema,
  countListQuery,
  countParams,
  countRow,
  countSession,
  countStartSchema,
  countVariance,
  lastCount,
  lastCountQuery,
  resolveSchema,
  signOffSchema,
  varianceParams,
} from '../../../shared/schemas/counts.ts';
import { created, dataResponse, listResponse, ok, pageResponse, pdfResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { sendFile } from '../../lib/send-file.ts';
import { certificate } from './documents.ts';
import * as lifecycle from './lifecycle.ts';
import * as readModel from './read-model.ts';

const tags = ['counts'];
const counter = authorize((user) => can(user, 'count.use'));
/** Reading one count and signing it off are also the holder's, whatever their role; lifecycle.ts checks the count. */
const signedIn = authorize();

/** Registers the count endpoints. */
// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function countRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/counts',
    {
      schema: {
        operationId: 'startCount',
        summary: "Starts a physical count of one holder's or one branch's pads",
        tags,
        body: countStartSchema,
        response: created(savedResponse(countSession), 403, 422),
      },
      onRequest: counter,
    },
    async (request, reply) => {
      const data = await lifecycle.start(ctx, currentUser(request), request.body);
      return reply.status(201).send({ message: COUNT_MSG.started(data.id), data });
    },
  );

  app.get(
    '/api/counts',
    {
      schema: {
        operationId: 'listCounts',
        summary: 'Lists the counts the caller may read, newest first',
        tags,
        querystring: countListQuery,
        response: ok(pageResponse(countRow)),
      },
      onRequest: counter,
    },
    async (request) => readModel.list(ctx, currentUser(request), request.query),
  );

  app.get(
    '/api/counts/last',
    {
      schema: {
        operationId: 'getLastCount',
        summary: 'When a holder (a person or a branch) was last counted',
        tags,
        querystring: lastCountQuery,
        response: ok(dataResponse(lastCount), 403, 422),
      },
      onRequest: signedIn,
    },
    async (request) => ({ data: await readModel.lastCount(ctx, currentUser(request), request.query) }),
  );

  app.get(
    '/api/counts/:id',
    {
      schema: {
        operationId: 'getCount',
        summary: 'One count with its pads',
        tags,
        params: countParams,
        response: ok(dataResponse(countSession), 403, 404),
      },
      onRequest: signedIn,
    },
    async (request) => ({ data: await readModel.detail(ctx, currentUser(request), request.params.id) }),
  );

  app.post(
    '/api/counts/:id/items',
    {
      schema: {
        operationId: 'recordCountItem',
        summary: 'Records a pad found (by id or scanned label) with its first unused number, or marks one missing',
        tags,
        params: countParams,
        body: countItemSchema,
        response: ok(savedResponse(countItem), 403, 404, 409, 422, 429),
      },
      onRequest: counter,
    },
    async (request) => {
      const data = await lifecycle.recordItem(ctx, currentUser(request), request.params.id, request.body, request.ip);
      const name = COUNT_MSG.padName(data.pad.route.name, data.pad.number);
      return { message: data.note && data.state === 'found' ? COUNT_MSG.recordedNote(name, data.note) : COUNT_MSG.recorded(name), data };
    },
  );

  app.post(
    '/api/counts/:id/end-scan',
    {
      schema: {
        operationId: 'endCountScan',
        summary: 'Ends the scan: the expected pads not yet scanned are marked missing',
        tags,
        params: countParams,
        response: ok(savedResponse(countSession), 403, 404, 409),
      },
      onRequest: counter,
    },
    async (request) => {
      const { missing, count } = await lifecycle.endScan(ctx, currentUser(request), request.params.id);
      return { message: COUNT_MSG.scanEnded(missing), data: count };
    },
  );

  app.get(
    '/api/counts/:id/variances',
    {
      schema: {
        operationId: 'listCountVariances',
        summary: 'The variances of a count and their resolutions',
        tags,
        params: countParams,
        response: ok(listResponse(countVariance), 403, 404),
      },
      onRequest: signedIn,
    },
    async (request) => ({ data: await readModel.variances(ctx, currentUser(request), request.params.id) }),
  );

  app.post(
    '/api/counts/:id/variances/:vid/resolve',
    {
      schema: {
        operationId: 'resolveCountVariance',
        summary: 'Resolves a variance by recording usage, opening a loss incident, or accepting it with a reason',
        tags,
        params: varianceParams,
        body: resolveSchema,
        response: ok(savedResponse(countVariance), 403, 404, 409, 422),
      },
      onRequest: counter,
    },
    async (request) => ({
      message: COUNT_MSG.resolved,
      data: await lifecycle.resolve(ctx, currentUser(request), request.params.id, request.params.vid, request.body),
    }),
  );

  app.post(
    '/api/counts/:id/sign-off',
    {
      schema: {
        operationId: 'signOffCount',
        summary: "The holder's sign-off, signed in or with their badge scanned on the counter's phone",
        tags,
        params: countParams,
        body: signOffSchema,
        response: ok(savedResponse(countSession), 403, 404, 409, 422, 429),
      },
      onRequest: signedIn,
    },
    async (request) => ({
      message: COUNT_MSG.signedOff,
      data: await lifecycle.signOff(ctx, currentUser(request), request.params.id, request.body, request.ip),
    }),
  );

  app.post(
    '/api/counts/:id/close',
    {
      schema: {
        operationId: 'closeCount',
        summary: 'Closes a count whose variances are all resolved and that the holder signed off',
        tags,
        params: countParams,
        response: ok(savedResponse(countSession), 403, 404, 409),
      },
      onRequest: counter,
    },
    async (request) => {
      const data = await lifecycle.close(ctx, currentUser(request), request.params.id);
      return { message: COUNT_MSG.closed(data.id), data };
    },
  );

  app.get(
    '/api/counts/:id/certificate',
    {
      schema: {
        operationId: 'getCountCertificatePdf',
        summary: 'The count certificate PDF',
        tags,
        params: countParams,
        response: ok(pdfResponse, 403, 404),
      },
      onRequest: signedIn,
    },
    async (request, reply) =>
      sendFile(reply, await certificate(ctx, currentUser(request), request.params.id), 'pdf', `count-${request.params.id}.pdf`),
  );
}
