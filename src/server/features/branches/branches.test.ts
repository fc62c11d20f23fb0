import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { branches } from '../../db/schema/reference.ts';
import { expectAdminsOnly, expectStaffOnly } from '../../test/access.ts';
import {
  buildInvoice,
  buildPad,
  createBranch,
  createCompany,
  createLocation,
  createRoute,
  createUser,
  sessionsForAllRoles,
  type Sessions,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let s: Sessions;
let headOffice: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  headOffice = await createBranch(t.db, { name: 'Head Office' });
  s = await sessionsForAllRoles(t);
});
afterAll(async () => {
  await t.close();
});

describe('branches', () => {
  it('when anyone but roles 1 and 2 calls the admin endpoints, then 401 without a token and 403 for roles 3 to 11', async () => {
    const branch = await createBranch(t.db);
    const payload = { company_id: branch.company_id, name: 'Calapan Agency', location_id: branch.location_id };
    for (const call of [
      { method: 'GET', url: '/api/get-branches-with-search' },
      { method: 'POST', url: '/api/add-branch', payload },
      { method: 'PUT', url: `/api/update-branch/${branch.id}`, payload },
      { method: 'DELETE', url: `/api/delete-branch/${branch.id}` },
    ] as const) {
      await expectAdminsOnly(t, s, call);
    }
    await expectStaffOnly(t, s, '/api/get-branches');
    expect(await t.db.select().from(branches).where(eq(branches.id, branch.id))).toHaveLength(1);
  });

  it('when an admin adds, edits and deletes a branch, then the answers carry company and location names and the row follows', async () => {
    const company = await createCompany(t.db, { name: 'Starlite Ferries' });
    const location = await createLocation(t.db, { name: 'Batangas Port' });
    const otherLocation = await createLocation(t.db, { name: 'Calapan Port' });
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/add-branch',
      headers: s.admin,
      payload: { company_id: company.id, name: 'Batangas Ticketing', location_id: location.id },
    });
    expect(add.statusCode).toBe(201);
    const { data } = add.json();
    expect(add.json()).toEqual({
      message: 'Branch created successfully',
      data: {
        id: expect.any(Number),
        company_id: company.id,
        name: 'Batangas Ticketing',
        location_id: location.id,
        company: { id: company.id, name: 'Starlite Ferries' },
        location: { id: location.id, name: 'Batangas Port' },
      },
    });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/update-branch/${data.id}`,
      headers: s.itAdmin,
      payload: { company_id: company.id, name: 'Calapan Ticketing', location_id: otherLocation.id },
    });
    expect(edit.json().data).toMatchObject({ name: 'Calapan Ticketing', location: { name: 'Calapan Port' } });
    const [stored] = await t.db.select().from(branches).where(eq(branches.id, data.id));
    expect(stored).toMatchObject({ name: 'Calapan Ticketing', location_id: otherLocation.id });
    const del = await t.app.inject({ method: 'DELETE', url: `/api/delete-branch/${data.id}`, headers: s.admin });
    expect(del.json()).toEqual({ message: 'Branch deleted successfully' });
    expect(await t.db.select().from(branches).where(eq(branches.id, data.id))).toHaveLength(0);
  });

  it('when company, name or location is missing or unknown, or the name is taken, then 422 on that field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/add-branch', headers: s.admin, payload: { name: '' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      company_id: ['Company is required'],
      name: ['Name is required'],
      location_id: ['Location is required'],
    });
    const company = await createCompany(t.db);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/add-branch',
      headers: s.admin,
      payload: { company_id: company.id, name: 'A', location_id: 876543 },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.location_id).toEqual(['The selected location does not exist.']);
    const existing = await createBranch(t.db, { name: `Ozamiz Agency ${Date.now()}` });
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/add-branch',
      headers: s.admin,
      payload: { company_id: existing.company_id, name: existing.name.toUpperCase(), location_id: existing.location_id },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.name).toEqual(['The name has already been taken.']);
  });

  it('when users, invoices or pads refer to a branch, or it is the head office, then deleting answers 409 and it stays', async () => {
    const withUsers = await createBranch(t.db);
    await createUser(t.db, { branch_id: withUsers.id });
    await createUser(t.db, { branch_id: withUsers.id });
    const users = await t.app.inject({ method: 'DELETE', url: `/api/delete-branch/${withUsers.id}`, headers: s.admin });
    expect(users.statusCode).toBe(409);
    expect(users.json().message).toBe('2 users belong to this branch. Move them to another branch first.');

    const withHistory = await createBranch(t.db);
    const requester = await createUser(t.db);
    await buildInvoice(t.db, { user_id: requester.id, branch_id: withHistory.id });
    await buildPad(t.db, { route_id: (await createRoute(t.db)).id, holder_branch_id: withHistory.id });
    const history = await t.app.inject({ method: 'DELETE', url: `/api/delete-branch/${withHistory.id}`, headers: s.admin });
    expect(history.statusCode).toBe(409);
    expect(history.json().message).toBe('1 invoice and 1 pad refer to this branch, so it cannot be deleted. Edit the branch instead.');

    const office = await t.app.inject({ method: 'DELETE', url: `/api/delete-branch/${headOffice.id}`, headers: s.admin });
    expect(office.statusCode).toBe(409);
    expect(office.json().message).toContain('head office');
    for (const id of [withUsers.id, withHistory.id, headOffice.id])
      expect(await t.db.select().from(branches).where(eq(branches.id, id))).toHaveLength(1);
  });

  it('when searching by branch name, then matches come back case-insensitively, paged with the envelope', async () => {
    const tag = `Bq${Date.now()}`;
    for (let i = 0; i < 13; i += 1) await createBranch(t.db, { name: `${tag} Outlet ${i}` });
    const first = await t.app.inject({ method: 'GET', url: `/api/get-branches-with-search?search=${tag.toLowerCase()}`, headers: s.admin });
    expect(first.json()).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 13 });
    expect(first.json().data[0]).toMatchObject({
      name: `${tag} Outlet 12`,
      company: { name: expect.any(String) },
      location: { name: expect.any(String) },
    });
    const second = await t.app.inject({ method: 'GET', url: `/api/get-branches-with-search?search=${tag}&page=2`, headers: s.admin });
    expect(second.json().data).toHaveLength(3);
    const beyond = await t.app.inject({ method: 'GET', url: `/api/get-branches-with-search?search=${tag}&page=5`, headers: s.admin });
    expect(beyond.json()).toMatchObject({ data: [], current_page: 5, last_page: 2, total: 13 });
    const bad = await t.app.inject({ method: 'GET', url: '/api/get-branches-with-search?per_page=1000', headers: s.admin });
    expect(bad.statusCode).toBe(422);
  });
});
