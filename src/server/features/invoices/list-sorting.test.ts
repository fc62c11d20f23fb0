import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../../../shared/lookups.ts';
import {
  buildInvoice,
  buildPads,
  buildReport,
  createBranch,
  createCompany,
  createLocation,
  createRoute,
  createUser,
  signedIn,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: { headers: { authorization: string } };
let ids: { older: number; newer: number; newest: number };

type Listed = { data: Array<Record<string, unknown> & { id: number }>; total: number; per_page: number; last_page: number };
const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
  return { status: res.statusCode, body: res.json() as Listed & { message?: string; errors?: Record<string, string[]> } };
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t, { role_id: ROLE.ADMIN, first_name: 'Ada', last_name: 'Admin' });
  const requester = await createUser(t.db, { role_id: ROLE.BRANCH_HEAD });
  const courier = await createUser(t.db, { role_id: ROLE.DRIVER, first_name: 'Quirino', last_name: 'Velasco' });
  const [alpha, mike, zulu] = await Promise.all(['Alpha Agency', 'Mike Agency', 'Zulu Agency'].map((name) => createBranch(t.db, { name })));
  const marinduque = await createRoute(t.db, { name: 'Marinduque Loop' });
  const other = await createRoute(t.db, { name: 'Calapan Express' });
  const day = (n: number) => new Date(Date.UTC(2026, 0, n, 3));
  const common = { user_id: requester.id, type: INVOICE_TYPE.ISSUED, status: INVOICE_STATUS.IN_TRANSIT };
  const older = await buildInvoice(t.db, { ...common, branch_id: mike.id, route_id: other.id, pad_count: 7, created_at: day(1) });
  const newer = await buildInvoice(t.db, { ...common, branch_id: zulu.id, route_id: marinduque.id, pad_count: 2, created_at: day(2) });
  const newest = await buildInvoice(t.db, {
    ...common,
    branch_id: alpha.id,
    route_id: other.id,
    assigned_user_id: courier.id,
    pad_count: 5,
    created_at: day(3),
  });
  ids = { older: older.id, newer: newer.id, newest: newest.id };
});
afterAll(async () => {
  await t.close();
});

const idsOf = (body: Listed) => body.data.map((row) => row.id);

describe('list sorting and page size', () => {
  it('when no sort is asked, then Transactions and Custodies keep the newest-first order', async () => {
    for (const url of ['/api/get-invoices', '/api/get-in-transit-invoices']) {
      const { status, body } = await get(url);
      expect(status).toBe(200);
      expect(idsOf(body)).toEqual([ids.newest, ids.newer, ids.older]);
    }
  });

  it('when Transactions and Custodies are sorted by To or Pads, then the rows come in that order both ways', async () => {
    for (const base of ['/api/get-invoices', '/api/get-in-transit-invoices']) {
      expect(idsOf((await get(`${base}?sort=to`)).body)).toEqual([ids.newest, ids.older, ids.newer]);
      expect(idsOf((await get(`${base}?sort=to&order=desc`)).body)).toEqual([ids.newer, ids.older, ids.newest]);
      expect(idsOf((await get(`${base}?sort=pads&order=asc`)).body)).toEqual([ids.newer, ids.newest, ids.older]);
      expect(idsOf((await get(`${base}?sort=assigned`)).body)[0]).toBe(ids.newest);
    }
  });

  it('when a page size is asked, then the page holds that many rows and the envelope says so', async () => {
    const { body } = await get('/api/get-invoices?per_page=2&sort=date&order=asc');
    expect(idsOf(body)).toEqual([ids.older, ids.newer]);
    expect(body).toMatchObject({ per_page: 2, total: 3, last_page: 2 });
  });

  it('when sort or order is not one of the list’s own, then every list answers 422 naming the choices', async () => {
    for (const url of [
      '/api/get-invoices?sort=password',
      '/api/get-in-transit-invoices?sort=id;drop',
      '/api/get-pads?sort=remarks',
      '/api/reports?sort=pdf',
    ]) {
      const { status, body } = await get(url);
      expect(status, url).toBe(422);
      expect(JSON.stringify(body)).toContain('Sort must be one of');
    }
    const badOrder = await get('/api/get-invoices?sort=to&order=sideways');
    expect(badOrder.status).toBe(422);
    expect(JSON.stringify(badOrder.body)).toContain('Order must be asc or desc');
  });
});

describe('route and courier search', () => {
  it('when Transactions or Custodies are searched by a route name or the courier’s name, then the matching invoices are found', async () => {
    for (const base of ['/api/get-invoices', '/api/get-in-transit-invoices']) {
      expect(idsOf((await get(`${base}?search=marinduque`)).body)).toEqual([ids.newer]);
      expect(idsOf((await get(`${base}?search=Quirino%20Velasco`)).body)).toEqual([ids.newest]);
      expect(idsOf((await get(`${base}?search=velasco`)).body)).toEqual([ids.newest]);
      expect(idsOf((await get(`${base}?search=Mike`)).body)).toEqual([ids.older]);
    }
  });
});

describe('pads and reports sorting', () => {
  it('when Inventories are sorted by Pad Number or Series, then the pads come in that order and the default stays newest first', async () => {
    const route = await createRoute(t.db, { name: 'Sorting Route' });
    const made = await buildPads(t.db, route.id, 3);
    const search = `&route=${route.id}`;
    const byDefault = await get(`/api/get-pads?per_page=100${search}`);
    expect(idsOf(byDefault.body)).toEqual(made.map((p) => p.id).reverse());
    const byNumber = await get(`/api/get-pads?sort=number&order=asc&per_page=100${search}`);
    expect(byNumber.body.data.map((p) => p.number)).toEqual([...made.map((p) => p.number)].sort((a, b) => a - b));
    const bySeries = await get(`/api/get-pads?sort=series&order=desc&per_page=100${search}`);
    expect(bySeries.body.data.map((p) => p.series_from)).toEqual([...made.map((p) => p.series_from)].sort((a, b) => b - a));
    expect(bySeries.body.total).toBe(3);
  });

  it('when Reports are sorted by Report No. or Total Invoice, then they come in that order', async () => {
    const by = await createUser(t.db, { role_id: ROLE.ACCOUNTING });
    await buildReport(t.db, by.id, { number: 'RPT-2026-000002', total_invoice: 9 });
    await buildReport(t.db, by.id, { number: 'RPT-2026-000001', total_invoice: 4 });
    await buildReport(t.db, by.id, { number: 'RPT-2026-000003', total_invoice: 1 });
    const byNumber = await get('/api/reports?sort=number');
    expect(byNumber.body.data.map((r) => r.number)).toEqual(['RPT-2026-000001', 'RPT-2026-000002', 'RPT-2026-000003']);
    const byTotal = await get('/api/reports?sort=total&order=desc');
    expect(byTotal.body.data.map((r) => r.total_invoice)).toEqual([9, 4, 1]);
  });
});

describe('administration lists sorting', () => {
  it('when Companies, Locations, Branches, Routes and Users are sorted by a column, then the rows come in that order and unknown columns are 422', async () => {
    const tag = `Srt${Date.now()}`;
    await Promise.all(['b', 'c', 'a'].map((c) => createCompany(t.db, { name: `${tag} ${c}` })));
    await Promise.all(['b', 'c', 'a'].map((c) => createLocation(t.db, { name: `${tag} ${c}` })));
    await Promise.all(['b', 'c', 'a'].map((c) => createRoute(t.db, { name: `${tag} ${c}` })));
    await Promise.all(['b', 'c', 'a'].map((c) => createBranch(t.db, { name: `${tag} ${c}` })));
    await Promise.all(['b', 'c', 'a'].map((c) => createUser(t.db, { role_id: ROLE.DRIVER, first_name: `${tag} ${c}` })));
    const names = (body: Listed, key = 'name') => body.data.map((row) => row[key]);
    const abc = [`${tag} a`, `${tag} b`, `${tag} c`];
    for (const url of [
      '/api/get-companies-with-search',
      '/api/get-locations-with-search',
      '/api/get-routes-with-search',
      '/api/get-branches-with-search',
    ]) {
      expect(names((await get(`${url}?search=${tag}&sort=name`)).body), url).toEqual(abc);
      expect(names((await get(`${url}?search=${tag}&sort=name&order=desc`)).body), url).toEqual([...abc].reverse());
      expect((await get(`${url}?sort=password`)).status, url).toBe(422);
    }
    expect(names((await get(`/api/get-users?search=${tag}&sort=first_name`)).body, 'first_name')).toEqual(abc);
    expect((await get('/api/get-users?sort=password_hash')).status).toBe(422);
  });
});
