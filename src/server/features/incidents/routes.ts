import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { idempotencyHeaders, signedUrlQuery } from '../../../shared/schemas/common.ts';
import {
  INCIDENT_MSG,
  attachmentParams,
  confirmLossSchema,
  foundParams,
  foundSchema,
  incidentCreatedSchema,
  incidentListQuery,
  incidentParams,
  incidentRowSchema,
  incidentSchema,
  lossIncidentForm,
  lossIncidentSchema,
} from '../../../shared/schemas/incidents.ts';
import { rejectSchema } from '../../../shared/schemas/outcomes.ts';
import {
  created,
  errorAnswer,
  dataResponse,
  exportableResponse,
  ok,
  pageResponse,
  pdfResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import { sendListExport } from '../../lib/export.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { SECURITY } from '../../lib/openapi.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { AppError, type FieldErrors } from '../../lib/errors.ts';
import { sendFile } from '../../lib/send-file.ts';
import { paperResponse, readMultipart, sendPaper, signedOrSignedIn } from '../../lib/uploaded-papers.ts';
import { idempotent } from '../idempotency/lifecycle.ts';
import { attachment, noticePdf, type UploadedFile } from './documents.ts';
import { incidentListExport } from './export-read-model.ts';
import * as lifecycle from './lifecycle.ts';
import * as readModel from './read-model.ts';

const tags = ['incidents'];
const reader = authorize((user) => can(user, 'incident.read'));
const decider = authorize((user) => can(user, 'incident.decide'));
const finder = authorize((user) => can(user, 'incident.found'));

/** Multipart text fields and files, or a JSON body without files; file size and count are limited by the plugin. */
async function readForm(request: FastifyRequest): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  // -- a JSON body is an object (the route's content type); its fields are validated by the schema next.
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, unknown>, files: [] };
  return readMultipart(request, { fileTooLarge: INCIDENT_MSG.fileTooLarge, tooManyFiles: INCIDENT_MSG.tooManyFiles });
}

/** An attachment as an Idempotency-Key's fingerprint sees it: a retry sends the same bytes under the same name. */
const fileDigest = (file: UploadedFile) => ({
  field: file.field,
  name: file.fileName,
  sha256: createHash('sha256').update(file.content).digest('hex'),
});

function parseFields(fields: Record<string, unknown>) {
  const parsed = lossIncidentSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  throw new AppError('invalid', Object.values(errors)[0]?.[0] ?? MSG.invalidData, 422, errors);
}

/** Registers the loss-incident endpoints. */
// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function incidentRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/loss-incidents',
    {
      schema: {
        operationId: 'reportLoss',
        summary: 'Reports a loss of numbers or whole pads, with papers',
        tags,
        documentedBody: { 'multipart/form-data': lossIncidentForm, 'application/json': lossIncidentSchema },
        headers: idempotencyHeaders,
        response: created(savedResponse(incidentCreatedSchema), 403, 404, 409, 422),
      },
      onRequest: authorize((user) => can(user, 'incident.reportLoss')),
    },
    async (request, reply) => {
      const actor = currentUser(request);
      const { fields, files } = await readForm(request);
      const input = parseFields(fields);
      const keyed = { method: request.method, operation: 'loss-report', input: { fields: input, files: files.map(fileDigest) } };
      const answer = await idempotent(ctx, actor.id, request.headers['idempotency-key'], keyed, async (txCtx) => {
        const data = await lifecycle.report(txCtx, actor, input, files);
        return { status: 201 as const, body: { message: INCIDENT_MSG.reported(data.number), data } };
      });
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.get(
    '/api/loss-incidents',
    {
      schema: {
        operationId: 'listLossIncidents',
        summary: 'Lists loss incidents, searchable by incident or receipt number, or exports all that match as CSV or .xlsx',
        tags,
        querystring: incidentListQuery,
        response: ok(exportableResponse(pageResponse(incidentRowSchema), 'The loss incidents'), 403, 404, 409, 422),
      },
      onRequest: reader,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (format) return sendListExport(reply, ctx, format, incidentListExport, currentUser(request), query);
      return readModel.list(ctx, query);
    },
  );

  app.get(
    '/api/loss-incidents/:id',
    {
      schema: {
        operationId: 'getLossIncident',
        summary: 'Reads one loss incident',
        tags,
        params: incidentParams,
        response: ok(dataResponse(incidentSchema), 403, 404, 409, 422),
      },
      onRequest: authorize((user) => user.role_id !== null),
    },
    async (request) => ({
      data: await readModel.detail(ctx, currentUser(request), request.params.id),
    }),
  );

  app.post(
    '/api/loss-incidents/:id/confirm',
    {
      schema: {
        operationId: 'confirmLossIncident',
        summary: 'Confirms a loss: writes the lost numbers and the Notice of Loss; without an affidavit, with the reason why',
        tags,
        params: incidentParams,
        body: confirmLossSchema.nullish(),
        response: ok(savedResponse(incidentSchema), 403, 404, 409, 422),
      },
      onRequest: decider,
    },
    async (request) => {
      const data = await lifecycle.confirm(ctx, currentUser(request), request.params.id, {
        no_affidavit_reason: request.body?.no_affidavit_reason ?? null,
      });
      return { message: INCIDENT_MSG.confirmed(data.number), data };
    },
  );

  app.post(
    '/api/loss-incidents/:id/reject',
    {
      schema: {
        operationId: 'rejectLossIncident',
        summary: 'Rejects a reported loss with a reason',
        tags,
        params: incidentParams,
        body: rejectSchema,
        response: ok(savedResponse(incidentSchema), 403, 404, 409, 422),
      },
      onRequest: decider,
    },
    async (request) => {
      const data = await lifecycle.reject(ctx, currentUser(request), request.params.id, request.body.reason);
      return { message: INCIDENT_MSG.rejected(data.number), data };
    },
  );

  app.post(
    '/api/loss-incidents/:id/found',
    {
      schema: {
        operationId: 'recordFoundNumbers',
        summary: 'Records numbers of a confirmed loss as found, for a second user to confirm',
        tags,
        params: incidentParams,
        body: foundSchema,
        response: ok(savedResponse(incidentSchema), 403, 404, 409, 422),
      },
      onRequest: finder,
    },
    async (request) => ({
      message: INCIDENT_MSG.foundRecorded,
      data: await lifecycle.recordFound(ctx, currentUser(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/api/loss-incidents/:id/found/:found_id/confirm',
    {
      schema: {
        operationId: 'confirmFoundNumbers',
        summary: 'Confirms numbers found, by a second user',
        tags,
        params: foundParams,
        response: ok(savedResponse(incidentSchema), 403, 404, 409, 422),
      },
      onRequest: finder,
    },
    async (request) => ({
      message: INCIDENT_MSG.foundConfirmed,
      data: await lifecycle.confirmFound(ctx, currentUser(request), request.params.id, request.params.found_id),
    }),
  );

  app.get(
    '/api/loss-incidents/:id/notice',
    {
      schema: {
        operationId: 'getLossNoticePdf',
        summary: 'The Notice of Loss PDF',
        tags,
        security: SECURITY.bearerOrSignedLink,
        params: incidentParams,
        querystring: signedUrlQuery,
        response: ok(pdfResponse, 401, 403, 404, 422),
      },
      onRequest: signedOrSignedIn,
    },
    async (request, reply) => {
      const { number, pdf } = await noticePdf(ctx, request.params.id, request.user, request.query);
      return sendFile(reply, pdf, 'pdf', `Notice-of-Loss-${number}.pdf`);
    },
  );

  app.get(
    '/api/loss-incidents/:id/attachments/:attachment_id',
    {
      schema: {
        operationId: 'getLossIncidentAttachment',
        summary: 'One paper attached to a loss incident',
        tags,
        security: SECURITY.bearerOrSignedLink,
        params: attachmentParams,
        querystring: signedUrlQuery,
        response: { 200: paperResponse, 401: errorAnswer(401), 403: errorAnswer(403), 404: errorAnswer(404) },
      },
      onRequest: signedOrSignedIn,
    },
    async (request, reply) => {
      const file = await attachment(ctx, request.params.id, request.params.attachment_id, request.user, request.query);
      return sendPaper(reply, file);
    },
  );
}
