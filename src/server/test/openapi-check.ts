import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

interface MediaType {
  schema?: object;
}
interface Response {
  content?: Record<string, MediaType>;
}
interface Operation {
  responses?: Record<string, Response>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

// -- ajv-formats types its default export for Ajv, and Ajv2020 extends Ajv.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOCUMENT_ID = 'padtrack-openapi.json';

/** Fastify's `/api/x/:id` as the document writes it, `/api/x/{id}`. */
export const documentPath = (routeUrl: string) => routeUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const mediaTypeOf = (header: unknown) => (typeof header === 'string' ? header.split(';')[0].trim().toLowerCase() : null);

const textOf = (body: string | Buffer | null) => (body === null ? '' : typeof body === 'string' ? body : body.toString('utf8'));

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/**
 * Checks answers against the served OpenAPI document as a client generated from it would read them: the
 * status must be documented for the operation, the content type must be one the status lists, and a JSON
 * body must fit that content type's schema (components resolved as the document names them).
 */
export function openApiChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
  const compiled = new Map<object, ValidateFunction>();
  const validatorFor = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) {
      // -- a JSON copy of a schema object is an object.
      const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)) as object;
      validate = ajv.compile(rooted);
      compiled.set(schema, validate);
    }
    return validate;
  };

  /** The violations of one answer; empty when it is what the document promises. */
  return function check(answer: {
    method: string;
    routeUrl: string;
    status: number;
    contentType: unknown;
    body: string | Buffer | null;
  }): string[] {
    const where = `${answer.method} ${answer.routeUrl} → ${answer.status}`;
    const operation = document.paths[documentPath(answer.routeUrl)]?.[answer.method.toLowerCase()];
    if (!operation) return [`${where}: the document has no such operation`];
    const responses = operation.responses ?? {};
    const response = responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default;
    if (!response) return [`${where}: status ${answer.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    const empty = answer.body === null || answer.body.length === 0;
    if (!response.content) return empty ? [] : [`${where}: the document promises no body, but one was sent`];
    const mediaType = mediaTypeOf(answer.contentType);
    const media = mediaType ? response.content[mediaType] : undefined;
    if (!mediaType || !media)
      return [
        `${where}: content type ${String(answer.contentType)} is not documented (documented: ${Object.keys(response.content).join(', ')})`,
      ];
    if (mediaType === 'application/pdf' && !textOf(answer.body).startsWith('%PDF-')) return [`${where}: the body is not a PDF`];
    if (!isJson(mediaType) || !media.schema) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(textOf(answer.body));
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const validate = validatorFor(media.schema);
    if (validate(parsed)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}: body${error.instancePath} ${error.message ?? 'does not fit'} (${JSON.stringify(error.params)})`,
    );
  };
}

/**
 * Every answer of the app is checked against the document the app itself serves at /api/docs/json; an answer
 * that breaks it is replaced by a 500 naming the violation (and the violation is written to stderr and kept in
 * `violations`), so the test that received it fails.
 */
export function checkAnswersAgainstDocument(app: FastifyInstance) {
  const violations: string[] = [];
  let check: ReturnType<typeof openApiChecker> | null = null;
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const routeUrl = request.routeOptions.url;
    if (!routeUrl || !routeUrl.startsWith('/api/') || routeUrl.startsWith('/api/docs') || request.method === 'HEAD') return payload;
    const body =
      typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : payload === null || payload === undefined ? null : undefined;
    if (body === undefined) return payload;
    // -- fastify-swagger answers an OpenAPI 3 document, typed for v2 and v3 alike.
    check ??= openApiChecker(app.swagger() as unknown as OpenApiDocument);
    const found = check({ method: request.method, routeUrl, status: reply.statusCode, contentType: reply.getHeader('content-type'), body });
    if (found.length === 0) return payload;
    violations.push(...found);
    process.stderr.write(`OpenAPI violation:\n  ${found.join('\n  ')}\n`);
    reply.code(500).header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ message: `OpenAPI violation: ${found.join('; ')}` });
  });
  return violations;
}
