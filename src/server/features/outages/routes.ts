import type { FastifyRequest } from 'fastify';
import { can } from '../../../shared/permissions.ts';
import { signedUrlQuery } from '../../../shared/schemas/common.ts';
import { MAX_ATTACHMENT_BYTES } from '../../../shared/schemas/incidents.ts';
import {
  OUTAGE_MSG,
  evidenceParams,
  outageClose,
  outageEvidenceForm,
  outageInput,
  outageListQuery,
  outageParams,
  outageRowSchema,
  outageSchema,
  outageUpdate,
} from '../../../shared/schemas/outages.ts';
import { created, dataResponse, errorAnswer, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { invalid } from '../../lib/errors.ts';
import { SECURITY } from '../../lib/openapi.ts';
import { paperResponse, readMultipart, sendPaper, signedOrSignedIn } from '../../lib/uploaded-papers.ts';
import * as service from './service.ts';

const tags = ['outages'];
const reader = authorize((user) => can(user, 'outage.read'));
const manager = authorize((user) => can(user, 'outage.manage'));
/** The files of a multipart body (its text fields are ignored). */
async function readFiles(request: FastifyRequest): Promise<service.UploadedEvidence[]> {
  if (!request.isMultipart()) throw invalid('files', OUTAGE_MSG.noFiles);
  const { files } = await readMultipart(request, {
    fileTooLarge: (fileName) => OUTAGE_MSG.fileTooLarge(fileName, MAX_ATTACHMENT_BYTES / 1024 / 1024),
    tooManyFiles: OUTAGE_MSG.tooManyFiles,
  });
  return files;
}

/** Issue 38: outages of e-invoicing establishments, their evidence, and closing them. */
// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function outageRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/outages',
    {
      schema: {
        operationId: 'listOutages',
        summary: 'Lists outages by establishment, open or closed, touching a period (days in APP_TIMEZONE)',
        tags,
        querystring: outageListQuery,
        response: ok(pageResponse(outageRowSchema), 403),
      },
      onRequest: reader,
    },
    async (request) => service.list(ctx, currentUser(request), request.query),
  );

  app.post(
    '/api/outages',
    {
      schema: {
        operationId: 'declareOutage',
        summary: 'Declares a time an e-invoicing establishment could not issue e-invoices (no end: still going on)',
        tags,
        body: outageInput,
        response: created(savedResponse(outageSchema), 403, 409, 422),
      },
      onRequest: manager,
    },
    async (request, reply) =>
      reply.status(201).send({ message: OUTAGE_MSG.declared, data: await service.declare(ctx, currentUser(request), request.body) }),
  );

  app.get(
    '/api/outages/:id',
    {
      schema: {
        operationId: 'getOutage',
        summary: 'One outage with its evidence, its linked paper uses and whether its times are frozen',
        tags,
        params: outageParams,
        response: ok(dataResponse(outageSchema), 403, 404),
      },
      onRequest: reader,
    },
    async (request) => ({ data: await service.get(ctx, currentUser(request), request.params.id) }),
  );

  app.put(
    '/api/outages/:id',
    {
      schema: {
        operationId: 'updateOutage',
        summary: "Corrects an outage's window, cause and details (refused once a certified RAAF relies on it)",
        tags,
        params: outageParams,
        body: outageUpdate,
        response: ok(savedResponse(outageSchema), 403, 404, 409, 422),
      },
      onRequest: manager,
    },
    async (request) => ({
      message: OUTAGE_MSG.updated,
      data: await service.update(ctx, currentUser(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/outages/:id/close',
    {
      schema: {
        operationId: 'closeOutage',
        summary: 'Closes an open outage at its end time',
        tags,
        params: outageParams,
        body: outageClose,
        response: ok(savedResponse(outageSchema), 403, 404, 409, 422),
      },
      onRequest: manager,
    },
    async (request) => ({
      message: OUTAGE_MSG.closed,
      data: await service.close(ctx, currentUser(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/outages/:id/evidence',
    {
      schema: {
        operationId: 'addOutageEvidence',
        summary: 'Adds evidence files (PDF, PNG or JPEG) to an outage',
        tags,
        params: outageParams,
        documentedBody: { 'multipart/form-data': outageEvidenceForm },
        response: created(savedResponse(outageSchema), 403, 404, 422),
      },
      onRequest: manager,
    },
    async (request, reply) => {
      const files = await readFiles(request);
      const data = await service.addEvidence(ctx, currentUser(request), request.params.id, files);
      return reply.status(201).send({ message: OUTAGE_MSG.evidenceAdded(files.length), data });
    },
  );

  app.get(
    '/api/outages/:id/evidence/:evidence_id',
    {
      schema: {
        operationId: 'getOutageEvidence',
        summary: 'One evidence file of an outage',
        tags,
        security: SECURITY.bearerOrSignedLink,
        params: evidenceParams,
        querystring: signedUrlQuery,
        response: { 200: paperResponse, 401: errorAnswer(401), 403: errorAnswer(403), 404: errorAnswer(404) },
      },
      onRequest: signedOrSignedIn,
    },
    async (request, reply) =>
      sendPaper(reply, await service.evidenceFile(ctx, request.params.id, request.params.evidence_id, request.user, request.query)),
  );
}
