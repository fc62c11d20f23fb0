import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../shared/lookups.ts';
import {
  buildIssuedInvoice,
  buildReport,
  createBranch,
  createCompany,
  createLocation,
  createRoute,
  sessionsForAllRoles,
  signedIn,
  type Sessions,
} from './test/factories.ts';
import { createTestApp, type TestApp } from './test/test-app.ts';

interface Document {
  paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>>;
}

const MONTH = new Date().toISOString().slice(0, 7);

let t: TestApp;
let doc: Document;
let sessions: Sessions;
let ids: Record<string, number | string>;

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  sessions = await sessionsForAllRoles(t);
  const scene = await buildIssuedInvoice(t.db, { padCount: 2 });
  const company = await createCompany(t.db);
  const location = await createLocation(t.db);
  const report = await buildReport(t.db, scene.custodian.id);
  ids = {
    invoice: scene.invoice.id,
    pad: scene.pads[0].id,
    user: scene.requester.id,
    report: report.id,
    company: company.id,
    route: (await createRoute(t.db, { company_id: company.id })).id,
    branch: (await createBranch(t.db, { location_id: location.id })).id,
    number: scene.pads[0].series_from,
    requesterBranch: scene.toBranch.id,
  };
});
afterAll(async () => {
  await t.close();
});

/** A request for every operation the document lists with the given method, its path and required query filled from the scene. */
function urlsOf(method: string): Array<{ operationId: string; url: string }> {
  const idFor = (path: string) => {
    if (/invoice/.test(path)) return ids.invoice;
    if (/pad/.test(path)) return ids.pad;
    if (/report/.test(path)) return ids.report;
    if (/user/.test(path)) return ids.user;
    if (/compan/.test(path)) return ids.company;
    if (/branch/.test(path)) return ids.branch;
    if (/route/.test(path)) return ids.route;
    return 1;
  };
  const queries: Record<string, string> = {
    '/api/raaf': `month=${MONTH}&user_id=${ids.user}`,
    '/api/raaf-summary': `month=${MONTH}`,
    '/api/find-receipt': `number=${ids.number}`,
    '/api/get-users-by-roles': `roles=${ROLE.DRIVER},${ROLE.CUSTODIAN}`,
    '/api/get-invoice-assigned-user-id': `invoice_id=${ids.invoice}&decoded_user_id=123`,
  };
  return Object.entries(doc.paths)
    .filter(([, operations]) => operations[method])
    .map(([path, operations]) => {
      const filled = path.replace('{code}', '12345').replace(/\{[a-z_]+\}/, String(idFor(path)));
      return { operationId: operations[method].operationId, url: queries[path] ? `${filled}?${queries[path]}` : filled };
    });
}

describe('real traffic checked against the served document', () => {
  it('when every list and detail is read by each role and without a session, then every answer fits the document and none is a 500', async () => {
    const callers = [
      { who: 'anonymous', headers: {} },
      { who: 'admin', headers: sessions.admin },
      { who: 'it admin', headers: sessions.itAdmin },
      ...sessions.others.map(({ role_id, headers }) => ({ who: `role ${role_id ?? 'none'}`, headers })),
    ];
    const reads = [
      ...urlsOf('get'),
      { operationId: 'getRaaf roll-up', url: `/api/raaf?month=${MONTH}&branch_id=${ids.requesterBranch}&rollup=true` },
    ];
    expect(reads.length).toBeGreaterThanOrEqual(50);
    const answers: Array<{ call: string; status: number }> = [];
    for (const caller of callers) {
      for (const { url, operationId } of reads) {
        const res = await t.app.inject({ method: 'GET', url, headers: caller.headers });
        answers.push({ call: `${caller.who} ${operationId}`, status: res.statusCode });
        for (const format of url.startsWith('/api/raaf?') || url.startsWith('/api/raaf-summary?') ? ['pdf', 'csv'] : []) {
          const file = await t.app.inject({ method: 'GET', url: `${url}&format=${format}`, headers: caller.headers });
          answers.push({ call: `${caller.who} ${operationId} as ${format}`, status: file.statusCode });
        }
      }
    }
    expect(t.documentViolations).toEqual([]);
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(200);
    expect(answers.find((answer) => answer.call === 'admin getRaaf as pdf')?.status).toBe(200);
    expect(answers.filter((answer) => answer.call.startsWith('admin getRaaf roll-up')).map((answer) => answer.status)).toEqual([
      200, 200, 200,
    ]);
  });

  it('when an admin makes the main writes, then every answer fits the document', async () => {
    const admin = sessions.admin;
    const send = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: admin, payload });
      return { status: res.statusCode, body: res.json() as { data?: { id: number } } };
    };
    const location = await send('POST', '/api/add-location', { name: 'Pier 4' });
    expect(location.status).toBe(201);
    expect((await send('PUT', `/api/update-location/${location.body.data?.id}`, { name: 'Pier 5' })).status).toBe(200);
    expect((await send('DELETE', `/api/delete-location/${location.body.data?.id}`)).status).toBe(200);
    expect((await send('POST', '/api/add-pad', { route_id: ids.route, series_from: 5001, series_to: 5100, pad_size: 50 })).status).toBe(
      201,
    );
    expect((await send('POST', '/api/add-pad', { route_id: ids.route, series_from: 5001, series_to: 5100, pad_size: 50 })).status).toBe(
      422,
    );
    expect((await send('DELETE', `/api/delete-pad/${ids.pad}`)).status).toBe(409);
    expect((await send('DELETE', `/api/delete-company/${ids.company}`)).status).toBe(409);
    expect((await send('POST', '/api/create-request-invoice', { route_id: ids.route, pad_count: 1 })).status).toBeLessThan(500);
    const role = await send('POST', '/api/add-role', { name: 'Night Clerk' });
    expect(role.status).toBe(201);
    expect((await send('DELETE', `/api/delete-role/${role.body.data?.id}`)).status).toBe(200);
    expect(t.documentViolations).toEqual([]);
  });

  it('when every write gets malformed JSON, an empty JSON body, XML or more than 1 MiB, then it answers the documented 400, 415 or 413', async () => {
    const { headers } = await signedIn(t, { role_id: ROLE.ADMIN });
    const writes = ['post', 'put', 'delete'].flatMap((method) =>
      urlsOf(method).map((call) => ({ ...call, method: method.toUpperCase() as 'POST' })),
    );
    expect(writes.length).toBeGreaterThan(35);
    const answers: Array<{ call: string; status: number }> = [];
    const bodies = [
      { kind: 'malformed', type: 'application/json', payload: '{"name": ', expected: 400 },
      { kind: 'empty', type: 'application/json', payload: '', expected: 400 },
      { kind: 'xml', type: 'application/xml', payload: '<pad><number>1</number></pad>', expected: 415 },
      { kind: 'huge', type: 'application/json', payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }), expected: 413 },
    ];
    for (const { method, url, operationId } of writes) {
      for (const body of bodies) {
        const res = await t.app.inject({ method, url, headers: { ...headers, 'content-type': body.type }, payload: body.payload });
        answers.push({ call: `${operationId} ${body.kind}`, status: res.statusCode });
        if (![401, 403].includes(res.statusCode)) expect(res.statusCode, `${method} ${url} ${body.kind}: ${res.body}`).toBe(body.expected);
      }
    }
    expect(t.documentViolations).toEqual([]);
    expect(answers.filter((answer) => answer.status === 400).length).toBeGreaterThan(60);
    expect(answers.filter((answer) => answer.status === 415).length).toBeGreaterThan(30);
    expect(answers.filter((answer) => answer.status === 413).length).toBeGreaterThan(30);
  });
});
