import { canOpenScreen, can, editablePadFields } from '../../../shared/permissions.ts';
import { idempotencyHeaders, idParam } from '../../../shared/schemas/common.ts';
import {
  PAD_MSG,
  USAGE_MSG,
  addPadSchema,
  availablePadsQuery,
  generatedPads,
  padChangedResponse,
  padListQuery,
  padRow,
  padUsageSchema,
  updatePadSchema,
} from '../../../shared/schemas/pads.ts';
import {
  created,
  dataResponse,
  exportableResponse,
  listResponse,
  messageResponse,
  namedRef,
  ok,
  pageResponse,
  pdfResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { sendListExport } from '../../lib/export.ts';
import { idempotent } from '../idempotency/lifecycle.ts';
import { padByLabelQuery, padLabelQuery } from '../../../shared/schemas/counts.ts';
import { sendFile } from '../../lib/send-file.ts';
import * as labels from './documents.ts';
import { padListExport } from './export-read-model.ts';
import * as numbers from './lifecycle.ts';
import * as service from './service.ts';

const tags = ['pads'];
const padReader = authorize((user) => canOpenScreen(user, 'pads'));

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function padRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/pad-labels',
    {
      schema: {
        operationId: 'getPadLabelsPdf',
        summary: "The label sheet PDF of the chosen pads, a QR of each pad's signed label code",
        tags,
        querystring: padLabelQuery,
        response: ok(pdfResponse, 404),
      },
      onRequest: padReader,
    },
    async (request, reply) => sendFile(reply, await labels.labelSheet(ctx, request.query.ids, request.query.size), 'pdf', 'pad-labels.pdf'),
  );

  app.get(
    '/api/pad-by-label',
    {
      schema: {
        operationId: 'getPadByLabel',
        summary: 'The pad a scanned label code stands for',
        tags,
        querystring: padByLabelQuery,
        response: ok(dataResponse(padRow), 404, 429),
      },
      /* Every pad picker scans labels, a courier's Report a loss included; holding a signed label is holding the pad's paper. */
      onRequest: authorize((user) => user.role_id !== null),
    },
    async (request) => ({
      data: await labels.padByLabel(ctx, { userId: currentUser(request).id, address: request.ip }, request.query.code),
    }),
  );

  app.get(
    '/api/pad-statuses',
    {
      schema: { operationId: 'listPadStatuses', summary: 'Lists the pad statuses', tags, response: ok(listResponse(namedRef)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.padStatuses(ctx) }),
  );

  app.get(
    '/api/issuance-statuses',
    {
      schema: { operationId: 'listIssuanceStatuses', summary: 'Lists the issuance statuses', tags, response: ok(listResponse(namedRef)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({
      data: await service.issuanceStatuses(ctx),
    }),
  );

  app.get(
    '/api/get-pads',
    {
      schema: {
        operationId: 'listPads',
        summary: 'Lists pads, a page at a time, or exports all matching pads as CSV or .xlsx',
        tags,
        querystring: padListQuery,
        response: ok(exportableResponse(pageResponse(padRow), 'The pads')),
      },
      onRequest: padReader,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (format) return sendListExport(reply, ctx, format, padListExport, currentUser(request), query);
      return service.listPads(ctx, currentUser(request), query);
    },
  );

  app.get(
    '/api/available-pads',
    {
      schema: {
        operationId: 'listAvailablePads',
        summary: 'Lists the pads available to issue',
        tags,
        querystring: availablePadsQuery,
        response: ok(pageResponse(padRow)),
      },
      onRequest: padReader,
    },
    async (request) => service.listAvailablePads(ctx, request.query),
  );

  app.get(
    '/api/get-pad/:id',
    {
      schema: { operationId: 'getPad', summary: 'Gets one pad', tags, params: idParam, response: ok(dataResponse(padRow)) },
      onRequest: padReader,
    },
    async (request) => ({
      data: await service.getPad(ctx, request.params.id),
    }),
  );

  app.post(
    '/api/add-pad',
    {
      schema: {
        operationId: 'generatePads',
        summary: 'Generates the pads of a series range',
        tags,
        body: addPadSchema,
        response: created(savedResponse(generatedPads), 409),
      },
      onRequest: authorize((user) => can(user, 'pad.create')),
    },
    async (request, reply) => {
      const data = await service.generatePads(ctx, currentUser(request), request.body);
      return reply.status(201).send({ message: PAD_MSG.generated(data.pads_created), data });
    },
  );

  app.put(
    '/api/update-pad/:id',
    {
      schema: {
        operationId: 'updatePad',
        summary: "Updates a pad's editable fields",
        tags,
        params: idParam,
        body: updatePadSchema,
        response: ok(savedResponse(padRow), 409),
      },
      onRequest: authorize((user) => Object.values(editablePadFields(user)).some(Boolean)),
    },
    async (request) => ({
      message: PAD_MSG.updated,
      data: await service.updatePad(ctx, currentUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/delete-pad/:id',
    {
      schema: {
        operationId: 'deletePad',
        summary: 'Deletes a pad that was never issued',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: authorize((user) => can(user, 'pad.delete')),
    },
    async (request) => {
      await service.deletePad(ctx, currentUser(request), request.params.id);
      return { message: PAD_MSG.deleted };
    },
  );

  app.post(
    '/api/pads/:id/usage',
    {
      schema: {
        operationId: 'recordPadUsage',
        summary: "Marks a range of a pad's numbers used",
        tags,
        params: idParam,
        headers: idempotencyHeaders,
        body: padUsageSchema,
        response: ok(padChangedResponse, 403, 404, 409, 422),
      },
      onRequest: authorize((user) => can(user, 'pad.editUsage')),
    },
    async (request, reply) => {
      const actor = currentUser(request);
      const { id } = request.params;
      const keyed = { method: request.method, operation: `usage:${id}`, input: { params: request.params, body: request.body } };
      const answer = await idempotent(ctx, actor.id, request.headers['idempotency-key'], keyed, async (txCtx) => {
        const { pad, warning } = await numbers.recordUsage(txCtx, actor, id, request.body);
        return { status: 200 as const, body: { message: USAGE_MSG.recorded(request.body.from, request.body.to), data: pad, warning } };
      });
      return reply.status(answer.status).send(answer.body);
    },
  );
}
