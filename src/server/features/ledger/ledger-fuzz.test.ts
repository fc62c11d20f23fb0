import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: { authorization: string };
let accounting: { authorization: string };

const MONTHS = [
  '0000-01',
  '0000-12',
  '0001-01',
  '1969-12',
  '1970-01',
  '2026-00',
  '2026-13',
  '9999-12',
  '10000-01',
  '-2026-01',
  '2026-1',
  '26-01',
  '2026-01-01',
  '',
  ' ',
  'null',
  "2026-10' or '1'='1",
  '%00',
  '2026-10%00',
  '２０２６-１０',
  'x'.repeat(5000),
];
const IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '2147483647',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  'abc',
  '',
  '%20',
  '0x10',
  "1' or 1=1--",
];
const NUMBERS = [
  '0',
  '-1',
  '1.5',
  '1e15',
  '1e16',
  '9007199254740993',
  '99999999999999999999999',
  'Infinity',
  'NaN',
  'abc',
  '',
  '1e-5',
  '-0',
];

beforeAll(async () => {
  t = await createTestApp();
  const branch = await createBranch(t.db);
  t.ctx.config.headOfficeBranchId = branch.id;
  admin = (await signedIn(t, { role_id: 1, branch_id: branch.id })).headers;
  accounting = (await signedIn(t, { role_id: 8, branch_id: branch.id })).headers;
  const custodian = (await signedIn(t, { role_id: 3, branch_id: branch.id })).headers;
  const route = await createRoute(t.db);
  await t.app.inject({
    method: 'POST',
    url: '/api/add-pad',
    headers: custodian,
    payload: { route_id: route.id, series_from: 1, series_to: 100 },
  });
});
afterAll(async () => {
  await t.close();
});

/** Every ledger route with one hostile value in one place; the answer must be a 2xx or 4xx, never a 5xx. */
function hostileRequests(): Array<{ method: 'GET' | 'POST'; url: string; payload?: object; headers: { authorization: string } }> {
  const q = encodeURIComponent;
  const requests: Array<{ method: 'GET' | 'POST'; url: string; payload?: object; headers: { authorization: string } }> = [];
  for (const month of MONTHS) {
    for (const format of ['json', 'pdf', 'csv']) {
      requests.push({ method: 'GET', url: `/api/raaf?month=${q(month)}&branch_id=1&format=${format}`, headers: admin });
      requests.push({ method: 'GET', url: `/api/raaf-summary?month=${q(month)}&format=${format}`, headers: accounting });
    }
    requests.push({ method: 'GET', url: `/api/raaf?month=${q(month)}&user_id=1`, headers: admin });
    requests.push({ method: 'POST', url: '/api/raaf/certify', payload: { month, branch_id: 1 }, headers: admin });
    requests.push({ method: 'GET', url: `/api/raaf-certificates?month=${q(month)}`, headers: admin });
  }
  for (const id of IDS) {
    requests.push({ method: 'GET', url: `/api/pad-history/${q(id)}`, headers: admin });
    requests.push({ method: 'GET', url: `/api/raaf?month=2026-11&branch_id=${q(id)}`, headers: admin });
    requests.push({ method: 'GET', url: `/api/raaf?month=2026-11&user_id=${q(id)}`, headers: admin });
    requests.push({ method: 'POST', url: '/api/raaf/certify', payload: { month: '2026-10', user_id: id }, headers: admin });
    requests.push({ method: 'POST', url: '/api/raaf/certify', payload: { month: '2026-10', branch_id: Number(id) }, headers: admin });
    requests.push({ method: 'POST', url: `/api/raaf/${q(id)}/review`, headers: accounting });
    requests.push({ method: 'GET', url: `/api/raaf-certificates/${q(id)}/pdf`, headers: admin });
    requests.push({
      method: 'GET',
      url: `/api/raaf-certificates/${q(id)}/pdf?user=${q(id)}&expires=${q(id)}&signature=${q(id)}`,
      headers: { authorization: '' },
    });
    requests.push({ method: 'GET', url: `/api/raaf-certificates?page=${q(id)}&per_page=${q(id)}`, headers: admin });
    requests.push({ method: 'GET', url: `/api/find-receipt?number=5&route_id=${q(id)}`, headers: admin });
  }
  for (const number of NUMBERS) requests.push({ method: 'GET', url: `/api/find-receipt?number=${q(number)}`, headers: admin });
  return requests;
}

describe('hostile input on the ledger routes', () => {
  it('when months of any year, ids and receipt numbers are hostile, then no ledger route answers 5xx', async () => {
    const requests = hostileRequests();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const [i, request] of requests.entries()) {
      const remoteAddress = `10.77.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      const res = await t.app.inject({
        method: request.method,
        url: request.url,
        headers: request.headers,
        remoteAddress,
        ...(request.payload ? { payload: request.payload } : {}),
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500)
        failures.push(
          `${request.method} ${request.url.slice(0, 120)} ${JSON.stringify(request.payload ?? '')}: ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
      else if (res.statusCode >= 400) expect(typeof res.json().message, request.url).toBe('string');
    }
    expect(failures).toEqual([]);
    expect(requests.length).toBeGreaterThan(300);
    expect(statuses.get(422)).toBeGreaterThan(200);
    expect(statuses.get(429)).toBeUndefined();
  });
});
