import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  headers = (await signedIn(t, { role_id: 1 })).headers;
});
afterAll(async () => {
  await t.close();
});

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
}
interface Operation {
  parameters?: Array<{ in: 'path' | 'query'; name: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Hostile values: a NUL byte, huge, negative, non-numeric, an impossible date, fractions, overflow, wrong shapes. */
const HOSTILE: unknown[] = [
  'a\u0000b',
  'x'.repeat(20_000),
  -1,
  '-1',
  'abc',
  '2026-02-30',
  1.5,
  '99999999999999999999',
  1e308,
  null,
  [],
  { nested: 'a\u0000' },
];
/** The subset a URL can carry. */
const HOSTILE_IN_URL = [
  'a\u0000b',
  'x'.repeat(5_000),
  '-1',
  'abc',
  '2026-02-30',
  '1.5',
  '99999999999999999999',
  '1e308',
  '[object Object]',
];
/** Sessions are ended by logout; it takes no input anyway. */
const SKIPPED = new Set(['POST /api/logout']);

function plausible(name: string, schema: JsonSchema | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (name.endsWith('date')) return '2026-01-01';
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'array') return [];
  if (type === 'boolean') return true;
  if (type === 'object') return {};
  return 'x';
}

describe('input fuzz', () => {
  it('when every route that takes input gets hostile values in every field and parameter as an admin, then none answers 5xx (docs/SECURITY.md "Bad input and database faults")', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const failures: string[] = [];
    let routes = 0;
    let requests = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const verb = method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE';
        if (SKIPPED.has(`${verb} ${template}`)) continue;
        const params = op.parameters ?? [];
        const properties = op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
        if (params.length === 0 && Object.keys(properties).length === 0) continue;
        routes += 1;
        const basePath: Record<string, string> = Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, '1']));
        const baseQuery: Record<string, string> = {};
        const baseBody: Record<string, unknown> = Object.fromEntries(
          Object.entries(properties).map(([name, s]) => [name, plausible(name, s)]),
        );

        const send = async (path: Record<string, string>, query: Record<string, string>, body: unknown) => {
          const url = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name]));
          const search = new URLSearchParams(query).toString();
          const res = await t.app.inject({
            method: verb,
            url: search ? `${url}?${search}` : url,
            headers,
            ...(verb === 'GET' || verb === 'DELETE'
              ? {}
              : { payload: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } }),
          });
          requests += 1;
          if (res.statusCode >= 500)
            failures.push(
              `${verb} ${url}${search ? `?${search.slice(0, 80)}` : ''} ${JSON.stringify(body).slice(0, 120)} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
        };

        for (const param of params) {
          for (const value of HOSTILE_IN_URL) {
            if (param.in === 'path') await send({ ...basePath, [param.name]: value }, baseQuery, baseBody);
            else await send(basePath, { ...baseQuery, [param.name]: value }, baseBody);
          }
        }
        for (const field of Object.keys(properties)) {
          for (const value of HOSTILE) await send(basePath, baseQuery, { ...baseBody, [field]: value });
        }
        if (Object.keys(properties).length > 0) {
          for (const body of [null, [], 'a\u0000b', 42]) await send(basePath, baseQuery, body);
        }
      }
    }
    console.info(`input fuzz: ${routes} routes, ${requests} requests, ${failures.length} answered 5xx`);
    expect(failures).toEqual([]);
    expect(routes).toBeGreaterThan(50);
  });
});
