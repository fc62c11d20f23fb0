import type { FastifyRequest } from 'fastify';
import { can } from '../../../shared/permissions.ts';
import { IMPORT_MSG, MAX_IMPORT_BYTES } from '../../../shared/schemas/imports.ts';
import {
  REPLACEMENT_MSG,
  outageIdParam,
  replacementsImportForm,
  replacementsInput,
  replacementsSchema,
} from '../../../shared/schemas/paper-use-summary.ts';
import { created, dataResponse, ok, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { invalid } from '../../lib/errors.ts';
import { enterReplacements, importReplacements, replacementsOf } from './replacements.ts';

const tags = ['outages'];

/** The one file of the upload, within the go-live import's size; a larger one is refused naming the field. */
async function readFile(request: FastifyRequest): Promise<{ name: string; content: Buffer }> {
  if (!request.isMultipart()) throw invalid('file', IMPORT_MSG.fileRequired);
  let file: { name: string; content: Buffer } | null = null;
  for await (const part of request.parts({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1 } })) {
    if (part.type !== 'file') continue;
    try {
      file = { name: part.filename, content: await part.toBuffer() };
    } catch (error) {
      // -- fastify's multipart errors carry `code`; reading an absent one gives undefined.
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw invalid('file', IMPORT_MSG.fileTooLarge);
      throw error;
    }
  }
  if (!file || file.content.length === 0) throw invalid('file', IMPORT_MSG.fileRequired);
  return file;
}

const savedMessage = (saved: number) => (saved === 0 ? REPLACEMENT_MSG.nothingNew : REPLACEMENT_MSG.saved(saved));

/** Issue 38: the e-invoices that later recorded an outage's paper sales. */
export function replacementRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/outages/:id/replacements',
    {
      schema: {
        operationId: 'listOutageReplacements',
        summary: 'Lists each paper number used during an outage with its replacement e-invoice, or pending',
        tags,
        params: outageIdParam,
        response: ok(dataResponse(replacementsSchema), 403, 404),
      },
      onRequest: authorize((user) => can(user, 'replacement.read')),
    },
    async (request) => ({ data: await replacementsOf(ctx, currentUser(request), request.params.id) }),
  );

  app.post(
    '/api/outages/:id/replacements',
    {
      schema: {
        operationId: 'enterOutageReplacements',
        summary: "Records the e-invoice numbers that replaced an outage's paper numbers (all or none)",
        tags,
        params: outageIdParam,
        body: replacementsInput,
        response: created(savedResponse(replacementsSchema), 403, 404, 422),
      },
      onRequest: authorize((user) => can(user, 'replacement.enter')),
    },
    async (request, reply) => {
      const { saved, data } = await enterReplacements(ctx, currentUser(request), request.params.id, request.body.items);
      return reply.status(201).send({ message: savedMessage(saved), data });
    },
  );

  app.post(
    '/api/outages/:id/replacements/import',
    {
      schema: {
        operationId: 'importOutageReplacements',
        summary: "Imports an outage's replacement e-invoices from a CSV or .xlsx; a bad line stores nothing and is named with its reason",
        tags,
        params: outageIdParam,
        documentedBody: { 'multipart/form-data': replacementsImportForm },
        response: created(savedResponse(replacementsSchema), 403, 404, 422),
      },
      onRequest: authorize((user) => can(user, 'replacement.enter')),
    },
    async (request, reply) => {
      const file = await readFile(request);
      const { saved, data } = await importReplacements(ctx, currentUser(request), request.params.id, file);
      return reply.status(201).send({ message: savedMessage(saved), data });
    },
  );
}
