import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { routes } from '../../db/schema/reference.ts';
import { expectAdminsOnly, expectStaffOnly } from '../../test/access.ts';
import {
  buildInvoice,
  buildPad,
  createCompany,
  createRoute,
  createUser,
  sessionsForAllRoles,
  type Sessions,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let s: Sessions;

beforeAll(async () => {
  t = await createTestApp();
  s = await sessionsForAllRoles(t);
});
afterAll(async () => {
  await t.close();
});

describe('routes', () => {
  it('when anyone but roles 1 and 2 calls the admin endpoints, then 401 without a token and 403 for roles 3 to 11', async () => {
    const route = await createRoute(t.db);
    const payload = { company_id: route.company_id, name: 'Batangas - Calapan', tin: '123-456-789' };
    for (const call of [
      { method: 'GET', url: '/api/get-routes-with-search' },
      { method: 'POST', url: '/api/add-route', payload },
      { method: 'PUT', url: `/api/update-route/${route.id}`, payload },
      { method: 'DELETE', url: `/api/delete-route/${route.id}` },
    ] as const) {
      await expectAdminsOnly(t, s, call);
    }
    await expectStaffOnly(t, s, '/api/get-routes');
    const [stored] = await t.db.select().from(routes).where(eq(routes.id, route.id));
    expect(stored.name).toBe(route.name);
  });

  it('when an admin adds, edits and deletes a route, then the answers carry the company name and the row follows', async () => {
    const company = await createCompany(t.db, { name: 'Starlite Ferries' });
    const other = await createCompany(t.db, { name: 'Supercat' });
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/add-route',
      headers: s.admin,
      payload: { company_id: company.id, name: 'Batangas - Calapan', tin: '001-234-567-000' },
    });
    expect(add.statusCode).toBe(201);
    const { data } = add.json();
    expect(add.json()).toEqual({
      message: 'Route created successfully',
      data: {
        id: expect.any(Number),
        company_id: company.id,
        name: 'Batangas - Calapan',
        tin: '001-234-567-000',
        company: { id: company.id, name: 'Starlite Ferries' },
      },
    });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/update-route/${data.id}`,
      headers: s.itAdmin,
      payload: { company_id: other.id, name: 'Batangas - Puerto Galera', tin: '999' },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().data).toMatchObject({ name: 'Batangas - Puerto Galera', tin: '999', company: { name: 'Supercat' } });
    const [stored] = await t.db.select().from(routes).where(eq(routes.id, data.id));
    expect(stored).toMatchObject({ company_id: other.id, tin: '999' });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/delete-route/${data.id}`, headers: s.admin });
    expect(del.json()).toEqual({ message: 'Route deleted successfully' });
    expect(await t.db.select().from(routes).where(eq(routes.id, data.id))).toHaveLength(0);
  });

  it('when company, name or TIN is missing, the company is unknown or already runs that route name, then 422 on that field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/add-route',
      headers: s.admin,
      payload: { company_id: null, name: ' ', tin: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ company_id: ['Company is required'], name: ['Name is required'], tin: ['TIN is required'] });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/add-route',
      headers: s.admin,
      payload: { company_id: 987654, name: 'A', tin: '1' },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.company_id).toEqual(['The selected company does not exist.']);
    const existing = await createRoute(t.db, { name: 'Cebu - Tagbilaran' });
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/add-route',
      headers: s.admin,
      payload: { company_id: existing.company_id, name: 'CEBU - TAGBILARAN', tin: '2' },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.name).toEqual(['This company already has a route with this name.']);
    const otherCompany = await createCompany(t.db);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/add-route',
      headers: s.admin,
      payload: { company_id: otherCompany.id, name: 'Cebu - Tagbilaran', tin: '2' },
    });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('when pads and an invoice use a route, then deleting it answers 409 with the counts, and it stays', async () => {
    const route = await createRoute(t.db);
    const user = await createUser(t.db);
    for (let i = 0; i < 12; i += 1) await buildPad(t.db, { route_id: route.id });
    await buildInvoice(t.db, { user_id: user.id, route_id: route.id });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/delete-route/${route.id}`, headers: s.admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('12 pads and 1 invoice use this route, so it cannot be deleted. Edit the route instead.');
    expect(await t.db.select().from(routes).where(eq(routes.id, route.id))).toHaveLength(1);
  });

  it('when searching by route name or TIN, then both match case-insensitively, paged with the envelope', async () => {
    const tag = `rq${Date.now()}`;
    for (let i = 0; i < 10; i += 1) await createRoute(t.db, { name: `${tag} Leg ${i}` });
    await createRoute(t.db, { name: 'Plain Route', tin: `TIN-${tag.toUpperCase()}` });
    const res = await t.app.inject({ method: 'GET', url: `/api/get-routes-with-search?search=${tag.toUpperCase()}`, headers: s.admin });
    expect(res.json()).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 11 });
    expect(res.json().data[0]).toMatchObject({ name: 'Plain Route', company: { name: expect.any(String) } });
    const byTin = await t.app.inject({ method: 'GET', url: `/api/get-routes-with-search?search=tin-${tag}`, headers: s.admin });
    expect(byTin.json().data.map((r: { name: string }) => r.name)).toEqual(['Plain Route']);
    const lookups = await t.app.inject({ method: 'GET', url: '/api/get-routes', headers: s.others[0].headers });
    expect(lookups.json().data.find((r: { name: string }) => r.name === 'Plain Route')).toMatchObject({
      tin: `TIN-${tag.toUpperCase()}`,
      company: { id: expect.any(Number) },
    });
  });
});
