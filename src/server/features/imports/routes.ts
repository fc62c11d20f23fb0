import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import {
  IMPORT_MSG,
  MAX_IMPORT_BYTES,
  importAnswer,
  importFieldsSchema,
  importForm,
  importKindParam,
  importListQuery,
  importRowListSchema,
} from '../../../shared/schemas/imports.ts';
import { errorAnswer, ok, pageResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { AppError, invalid, type FieldErrors } from '../../lib/errors.ts';
import { sendFile } from '../../lib/send-file.ts';
import { template } from './documents.ts';
import { runImport } from './lifecycle.ts';
import { listImports } from './read-model.ts';

const tags = ['imports'];
const importer = authorize((user) => can(user, 'import.use'));

/** The multipart fields and the one file; larger files than MAX_IMPORT_BYTES are refused naming the field. */
async function readUpload(
  request: FastifyRequest,
): Promise<{ fields: Record<string, unknown>; file: { name: string; content: Buffer } | null }> {
  if (!request.isMultipart()) throw invalid('file', IMPORT_MSG.fileRequired);
  const fields: Record<string, unknown> = {};
  let file: { name: string; content: Buffer } | null = null;
  for await (const part of request.parts({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1 } })) {
    if (part.type === 'file') {
      try {
        file = { name: part.filename, content: await part.toBuffer() };
      } catch (error) {
        // -- fastify's multipart errors carry `code`; reading an absent one gives undefined.
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw invalid('file', IMPORT_MSG.fileTooLarge);
        throw error;
      }
    } else fields[part.fieldname] = part.value;
  }
  return { fields, file };
}

function parseFields(fields: Record<string, unknown>) {
  const parsed = importFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  throw new AppError('invalid', Object.values(errors)[0]?.[0] ?? MSG.invalidData, 422, errors);
}

const csvResponse = { description: 'The CSV template (UTF-8 with BOM)', content: { 'text/csv': { schema: z.string() } } };

/** Registers the import endpoints. */
// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function importRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/imports',
    {
      schema: {
        operationId: 'runImport',
        summary: 'Checks (dry run) or applies a go-live file of pads or users',
        tags,
        documentedBody: { 'multipart/form-data': importForm },
        response: {
          ...ok(importAnswer, 403),
          422: {
            description: 'The file has errors (each with its line and column), or the form is invalid; nothing was applied.',
            content: {
              'application/json': {
                schema: z.union([
                  importAnswer,
                  z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() }),
                ]),
              },
            },
          },
        },
      },
      onRequest: importer,
    },
    async (request, reply) => {
      const { fields, file } = await readUpload(request);
      const input = parseFields(fields);
      if (!file || file.content.length === 0) throw invalid('file', IMPORT_MSG.fileRequired);
      const data = await runImport(ctx, currentUser(request).id, {
        kind: input.kind,
        dryRun: input.dry_run,
        fileName: file.name,
        content: file.content,
      });
      const [first] = data.errors;
      if (first?.column === 'file') return reply.status(422).send({ message: first.message, data });
      if (first) return reply.status(422).send({ message: IMPORT_MSG.hasErrors(data.errors.length), data });
      return reply.send({ message: data.applied ? IMPORT_MSG.applied(data.totals.rows) : IMPORT_MSG.dryRunOk(data.totals.rows), data });
    },
  );

  app.get(
    '/api/imports',
    {
      schema: {
        operationId: 'listImports',
        summary: 'Lists past imports, newest first',
        tags,
        querystring: importListQuery,
        response: ok(pageResponse(importRowListSchema), 403),
      },
      onRequest: importer,
    },
    async (request) => listImports(ctx, request.query),
  );

  app.get(
    '/api/imports/templates/:kind',
    {
      schema: {
        operationId: 'getImportTemplate',
        summary: 'Serves the CSV template of an import kind',
        tags,
        params: importKindParam,
        response: { 200: csvResponse, 403: errorAnswer(403) },
      },
      onRequest: importer,
    },
    async (request, reply) =>
      sendFile(reply, Buffer.from(await template(ctx, request.params.kind), 'utf8'), 'csv', `padtrack-${request.params.kind}-template.csv`),
  );
}
