import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies } from '../../db/schema/reference.ts';
import { expectAdminsOnly, expectStaffOnly } from '../../test/access.ts';
import { createBranch, createCompany, createRoute, sessionsForAllRoles, type Sessions } from '../../test/factories.ts';
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

describe('companies', () => {
  it('when anyone but roles 1 and 2 calls the admin endpoints, then 401 without a token and 403 for roles 3 to 11', async () => {
    const company = await createCompany(t.db);
    const payload = { name: 'Starlite', company_type_id: 1 };
    for (const call of [
      { method: 'GET', url: '/api/get-companies-with-search' },
      { method: 'POST', url: '/api/add-company', payload },
      { method: 'PUT', url: `/api/update-company/${company.id}`, payload },
      { method: 'DELETE', url: `/api/delete-company/${company.id}` },
    ] as const) {
      await expectAdminsOnly(t, s, call);
    }
    await expectStaffOnly(t, s, '/api/get-companies');
    await expectStaffOnly(t, s, '/api/get-company-types');
    const [stored] = await t.db.select().from(companies).where(eq(companies.id, company.id));
    expect(stored.name).toBe(company.name);
  });

  it('when an admin adds, edits and deletes a company, then the answers carry the company type name and the row follows', async () => {
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/add-company',
      headers: s.admin,
      payload: { name: 'Montenegro Lines', company_type_id: '1' },
    });
    expect(add.statusCode).toBe(201);
    const { data } = add.json();
    expect(add.json()).toEqual({
      message: 'Company created successfully',
      data: { id: expect.any(Number), name: 'Montenegro Lines', company_type_id: 1, company_type: { id: 1, name: 'Shipping Line' } },
    });

    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/update-company/${data.id}`,
      headers: s.itAdmin,
      payload: { name: 'Montenegro Travel', company_type_id: 2 },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().data).toMatchObject({ name: 'Montenegro Travel', company_type: { name: 'Travel Agency' } });
    const [stored] = await t.db.select().from(companies).where(eq(companies.id, data.id));
    expect(stored).toMatchObject({ name: 'Montenegro Travel', company_type_id: 2 });

    const del = await t.app.inject({ method: 'DELETE', url: `/api/delete-company/${data.id}`, headers: s.admin });
    expect(del.json()).toEqual({ message: 'Company deleted successfully' });
    expect(await t.db.select().from(companies).where(eq(companies.id, data.id))).toHaveLength(0);
  });

  it('when name or company type is missing or wrong, or the name is taken, then 422 on that field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/add-company',
      headers: s.admin,
      payload: { name: '', company_type_id: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: ['Name is required'], company_type_id: ['Company Type is required'] });
    const unknownType = await t.app.inject({
      method: 'POST',
      url: '/api/add-company',
      headers: s.admin,
      payload: { name: 'X', company_type_id: 99 },
    });
    expect(unknownType.statusCode).toBe(422);
    expect(unknownType.json().errors.company_type_id).toEqual(['The selected company type does not exist.']);
    const existing = await createCompany(t.db, { name: `Cokaliong ${Date.now()}` });
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/add-company',
      headers: s.admin,
      payload: { name: existing.name.toLowerCase(), company_type_id: 1 },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.name).toEqual(['The name has already been taken.']);
    const hugeId = await t.app.inject({
      method: 'POST',
      url: '/api/add-company',
      headers: s.admin,
      payload: { name: 'X', company_type_id: 1e12 },
    });
    expect(hugeId.statusCode).toBe(422);
  });

  it('when routes and a branch belong to a company, then deleting it answers 409 naming them, and it stays', async () => {
    const company = await createCompany(t.db);
    await createRoute(t.db, { company_id: company.id });
    await createRoute(t.db, { company_id: company.id });
    await createBranch(t.db, { company_id: company.id });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/delete-company/${company.id}`, headers: s.admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('2 routes and 1 branch belong to this company. Move them to another company or delete them first.');
    expect(await t.db.select().from(companies).where(eq(companies.id, company.id))).toHaveLength(1);
  });

  it('when searching and filtering by company type, then only matches come back, paged with the envelope', async () => {
    const tag = `Cq${Date.now()}`;
    for (let i = 0; i < 11; i += 1) await createCompany(t.db, { name: `${tag} Agency ${i}`, company_type_id: 2 });
    await createCompany(t.db, { name: `${tag} Shipping`, company_type_id: 1 });
    const all = await t.app.inject({ method: 'GET', url: `/api/get-companies-with-search?search=${tag.toUpperCase()}`, headers: s.admin });
    expect(all.json()).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 12 });
    const agencies = await t.app.inject({
      method: 'GET',
      url: `/api/get-companies-with-search?search=${tag}&company_type_id=2&page=2`,
      headers: s.admin,
    });
    expect(agencies.json()).toMatchObject({ current_page: 2, last_page: 2, total: 11 });
    expect(agencies.json().data).toHaveLength(1);
    const shipping = await t.app.inject({
      method: 'GET',
      url: `/api/get-companies-with-search?search=${tag}&company_type_id=1`,
      headers: s.admin,
    });
    expect(shipping.json().data.map((c: { name: string }) => c.name)).toEqual([`${tag} Shipping`]);
    const noFilter = await t.app.inject({
      method: 'GET',
      url: `/api/get-companies-with-search?search=${tag}&company_type_id=&per_page=5`,
      headers: s.admin,
    });
    expect(noFilter.json()).toMatchObject({ per_page: 5, last_page: 3, total: 12 });
    const types = await t.app.inject({ method: 'GET', url: '/api/get-company-types', headers: s.admin });
    expect(types.json().data).toEqual([
      { id: 1, name: 'Shipping Line' },
      { id: 2, name: 'Travel Agency' },
      { id: 3, name: 'Partner' },
    ]);
  });
});
