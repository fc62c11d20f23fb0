import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/test-app.ts';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Routes that answer without a session: sign-in and password flows, health, and signed PDF links. */
const PUBLIC_ROUTES = [
  'POST /api/login',
  'POST /api/register-account',
  'POST /api/forgot-password',
  'POST /api/update-password',
  'GET /api/health',
  'GET /api/reports/preview',
  'GET /api/reports/{id}/pdf',
  'GET /api/raaf-certificates/{id}/pdf',
  'GET /api/user-badge/{id}/pdf',
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let t: TestApp;
let spec: OpenApi;
let routes: Array<{ method: string; path: string }>;

beforeAll(async () => {
  t = await createTestApp();
  const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(docs.statusCode).toBe(200);
  spec = docs.json();
  routes = Object.entries(spec.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => METHODS.includes(method))
      .map((method) => ({ method: method.toUpperCase(), path })),
  );
});
afterAll(async () => {
  await t.close();
});

describe('route contracts', () => {
  it('when an anonymous caller sends an empty body to any non-public route, then it answers 401 Unauthenticated before reading the input', async () => {
    const guarded = routes.filter((route) => !PUBLIC_ROUTES.includes(`${route.method} ${route.path}`));
    expect(guarded.length).toBeGreaterThan(60);
    const answers = [];
    for (const route of guarded) {
      const url = `${route.path.replace(/\{[^}]+\}/g, 'not-a-number')}?page=none&per_page=-1`;
      const response = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: { 'content-type': 'application/json' },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: '' }),
      });
      answers.push({ route: `${route.method} ${route.path}`, status: response.statusCode, body: response.body });
    }
    expect(answers.filter((answer) => answer.status !== 401 || answer.body !== '{"message":"Unauthenticated."}')).toEqual([]);
  });

  it('when the route table is read, then every route listed as public exists, so the list names no stale route', () => {
    const table = routes.map((route) => `${route.method} ${route.path}`);
    expect(table.filter((route) => PUBLIC_ROUTES.includes(route)).sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('when /api/docs/json is read, then every path and method documents a 2xx response with a schema', () => {
    const undocumented = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => METHODS.includes(method))
        .filter(
          ([, operation]) =>
            !Object.entries(operation.responses ?? {}).some(
              ([status, response]) =>
                /^2\d\d$/.test(status) && Object.values(response.content ?? {}).some((media) => media.schema !== undefined),
            ),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(undocumented).toEqual([]);
  });

  it('when the response schemas are read, then no answer can carry a password, a hash or a secret', () => {
    const names = new Set<string>();
    const collect = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'properties' && value && typeof value === 'object') Object.keys(value).forEach((name) => names.add(name));
          collect(value);
        }
      }
    };
    for (const operations of Object.values(spec.paths)) {
      for (const operation of Object.values(operations)) collect(operation.responses);
    }
    collect(spec.components?.schemas);
    expect(names.has('id')).toBe(true);
    expect([...names].filter((name) => /password|hash|secret|badge_version/i.test(name))).toEqual([]);
  });
});
