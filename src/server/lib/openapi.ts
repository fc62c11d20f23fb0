import type { FastifyInstance, RouteOptions } from 'fastify';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_TABLE, errorAnswer, type ErrorStatus } from '../../shared/schemas/responses.ts';
import type { Config } from '../config.ts';
import { guardOf } from './auth.ts';

type SecurityRequirements = Array<Record<string, string[]>>;

/** Who may call a route, as its `schema.security` says it in /api/docs. */
export const SECURITY: Record<'none' | 'signedLink' | 'bearerOrSignedLink', SecurityRequirements> = {
  /** Sign-in, password flows, health: anyone. */
  none: [],
  /** Only through a signed, short-lived link (the page opens it in a frame or tab without the token). */
  signedLink: [{ signedLink: [] }],
  /** Either the bearer token or a signed link: two alternatives. */
  bearerOrSignedLink: [{ bearer: [] }, { signedLink: [] }],
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type RouteSchema = {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  security?: Array<Record<string, string[]>>;
  response?: Record<string, unknown>;
};

const hooksOf = (hooks: RouteOptions['onRequest'] | RouteOptions['preHandler']) => (hooks ? (Array.isArray(hooks) ? hooks : [hooks]) : []);

/**
 * The error statuses that follow from a route's definition, so they cannot drift from it: a body can be
 * malformed (400), too large (413) or of another type (415); any input can be invalid (422); a guard answers
 * 401, and 403 (a rule, or a password still to change); a signed link is missing (401) or bad (403); a path id may name nothing
 * (404); a rate limit answers 429; any route may fail (500) or lose its database (503).
 */
export function derivedErrorStatuses(route: RouteOptions): ErrorStatus[] {
  // -- fastify types route.schema loosely; these routes declare Zod schemas of RouteSchema's shape.
  const schema = (route.schema ?? {}) as RouteSchema;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const guards = hooksOf(route.onRequest)
    .map(guardOf)
    .filter((guard) => guard !== null);
  const signed = (schema.security ?? []).some((requirement) => 'signedLink' in requirement);
  const limited = typeof route.config === 'object' && route.config !== null && 'rateLimit' in route.config;
  const statuses = new Set<ErrorStatus>([500, 503]);
  if (methods.some((method) => BODY_METHODS.has(method))) for (const status of [400, 413, 415] as const) statuses.add(status);
  if (schema.body || schema.querystring || schema.params) statuses.add(422);
  if (schema.params) for (const status of [404, 414] as const) statuses.add(status);
  if (guards.length > 0 || signed) statuses.add(401);
  // Every guard answers 403 while the user must change an administrator's password (docs/design.md §5).
  if (guards.length > 0 || signed) statuses.add(403);
  if (limited) statuses.add(429);
  return [...statuses];
}

/** Adds each route's derived error answers (from the one ERROR_TABLE) before Fastify compiles its serializers and the document. */
export function documentErrorStatuses(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    // -- as above: a route's schema is RouteSchema, with `hide` on hidden routes.
    const schema = route.schema as (RouteSchema & { hide?: boolean }) | undefined;
    if (!route.url.startsWith('/api/') || !schema || schema.hide) return;
    const response = (schema.response ??= {});
    for (const status of derivedErrorStatuses(route)) response[status] ??= errorAnswer(status);
  });
}

/** Component names that a part of the document refers to, followed through the components themselves. */
function referencedComponents(document: { paths?: unknown; components?: { schemas?: Record<string, unknown> } }): Set<string> {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
          const name = value.slice('#/components/schemas/'.length);
          if (!seen.has(name)) {
            seen.add(name);
            visit(schemas[name]);
          }
        } else visit(value);
      }
    }
  };
  visit(document.paths);
  return seen;
}

/**
 * A tuple of one item type (the RAAF's From–To pairs) as an array of that type with minItems = maxItems: JSON Schema's
 * prefixItems is valid OpenAPI 3.1, but Spectral and Prism cannot read it, and a client generator needs no more.
 */
function plainTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plainTuples);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, plainTuples(value)]));
  const items = entries.prefixItems;
  if (!Array.isArray(items) || items.length === 0) return entries;
  const first = JSON.stringify(items[0]);
  if (!items.every((item) => JSON.stringify(item) === first)) return entries;
  const { prefixItems: _tuple, ...rest } = entries;
  return { ...rest, items: items[0], minItems: items.length, maxItems: items.length };
}

const zodTransform = createJsonSchemaTransform({});

/** A route's `documentedBody` becomes its requestBody, one schema per content type, in the JSON Schema its Zod schemas make. */
const transform: FastifyDynamicSwaggerOptions['transform'] = (input) => {
  // -- as above, with `documentedBody` on the multipart routes.
  const { documentedBody, ...schema } = (input.schema ?? {}) as RouteSchema & { documentedBody?: Record<string, z.ZodType> };
  const output = zodTransform({ ...input, schema });
  if (!documentedBody) return output;
  const content = Object.fromEntries(
    Object.entries(documentedBody).map(([type, body]) => {
      const { $schema: _dialect, ...json } = z.toJSONSchema(body, { target: 'draft-2020-12', io: 'input' });
      return [type, { schema: json }];
    }),
  );
  return { ...output, schema: { ...output.schema, body: { content } } };
};

const transformObject = createJsonSchemaTransformObject({});

/** Every tag the operations use, declared once at the top of the document as OpenAPI asks, in name order. */
function declaredTags(paths: unknown): Array<{ name: string }> {
  const names = new Set<string>();
  // -- the OpenAPI document's paths object, as fastify-swagger builds it.
  for (const operations of Object.values((paths ?? {}) as Record<string, Record<string, { tags?: string[] }>>))
    for (const operation of Object.values(operations)) for (const tag of operation.tags ?? []) names.add(tag);
  return [...names].sort().map((name) => ({ name }));
}

/** The named models (zod `.meta({ id })`), each emitted once under components.schemas; the unused input or output twin is left out. */
const namedComponents: FastifyDynamicSwaggerOptions['transformObject'] = (documentObject) => {
  // -- the zod transform answers the document untyped; these are the OpenAPI fields read next.
  const document = plainTuples(transformObject(documentObject)) as { paths?: unknown; components?: { schemas?: Record<string, unknown> } };
  const used = referencedComponents(document);
  const schemas = Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => used.has(name)));
  // -- the document the transform was given, back with its tags and only the used schemas.
  return { ...document, tags: declaredTags(document.paths), components: { ...document.components, schemas } } as ReturnType<
    NonNullable<FastifyDynamicSwaggerOptions['transformObject']>
  >;
};

/** The OpenAPI document served at /api/docs/json: what clients generate from. */
export function swaggerOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PadTrack API',
        description: `Receipt pads, invoices, custody and reports. Errors answer \`{ message }\` (422 also \`errors\` per field); the statuses: ${Object.keys(ERROR_TABLE).join(', ')}.`,
        version: '1.0.0',
        contact: { name: 'PadTrack', url: config.appUrl },
      },
      servers: [{ url: config.appUrl, description: 'This PadTrack server (APP_URL)' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/login, as `Authorization: Bearer <token>`.' },
          signedLink: {
            type: 'apiKey',
            in: 'query',
            name: 'signature',
            description:
              'A signed, short-lived link: the `user`, `expires` and `signature` query parameters of an address the API handed out.',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform,
    transformObject: namedComponents,
  };
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The body a route reads itself (multipart/form-data through request.parts()), per content type: documented in
     * /api/docs so a client can be written from it; Fastify never validates it, the handler parses the parts.
     */
    documentedBody?: Record<string, z.ZodType>;
  }
}
