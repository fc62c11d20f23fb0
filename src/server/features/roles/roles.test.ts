import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { roles } from '../../db/schema/reference.ts';
import { expectAdminsOnly, expectStaffOnly } from '../../test/access.ts';
import { createUser, sessionsForAllRoles, type Sessions } from '../../test/factories.ts';
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

const addRole = async (name: string) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/add-role', headers: s.admin, payload: { name } });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; name: string };
};

describe('roles', () => {
  it('when anyone but roles 1 and 2 calls the admin endpoints, then 401 without a token and 403 for roles 3 to 11', async () => {
    const role = await addRole(`Guarded ${Date.now()}`);
    for (const call of [
      { method: 'GET', url: '/api/get-roles-with-search' },
      { method: 'POST', url: '/api/add-role', payload: { name: 'Porter' } },
      { method: 'PUT', url: `/api/update-role/${role.id}`, payload: { name: 'Porter' } },
      { method: 'DELETE', url: `/api/delete-role/${role.id}` },
    ] as const) {
      await expectAdminsOnly(t, s, call);
    }
    await expectStaffOnly(t, s, '/api/get-roles');
    expect(await t.db.select().from(roles).where(eq(roles.id, role.id))).toHaveLength(1);
  });

  it('when get-roles is called without page, then every role comes back by id; with page or search, then a page', async () => {
    const all = await t.app.inject({ method: 'GET', url: '/api/get-roles', headers: s.others[7].headers });
    const data = all.json().data as Array<{ id: number; name: string; is_system: boolean }>;
    expect(data.slice(0, 11).map((r) => r.name)).toEqual([
      'Admin',
      'IT Admin',
      'Custodian',
      'Branch Custodian',
      'Branch Head',
      'Supervisor',
      'Ticketing Officer',
      'Accounting',
      'Auditor',
      'Driver',
      'Messenger',
    ]);
    expect(data[0]).toEqual({ id: 1, name: 'Admin', is_system: true });
    const paged = await t.app.inject({ method: 'GET', url: '/api/get-roles?page=2', headers: s.admin });
    expect(paged.json()).toMatchObject({ current_page: 2, per_page: 10, total: data.length });
    const searched = await t.app.inject({ method: 'GET', url: '/api/get-roles?search=ADMIN', headers: s.admin });
    expect(searched.json().data.map((r: { name: string }) => r.name)).toEqual(['Admin', 'IT Admin']);
  });

  it('when an admin adds, renames and deletes a role, then the answers and the stored rows follow', async () => {
    const role = await addRole('  Porter  ');
    expect(role).toEqual({ id: expect.any(Number), name: 'Porter', is_system: false });
    expect(role.id).toBeGreaterThan(11);
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/api/update-role/${role.id}`,
      headers: s.itAdmin,
      payload: { name: 'Deck Porter' },
    });
    expect(rename.json()).toEqual({ message: 'Role updated successfully', data: { id: role.id, name: 'Deck Porter', is_system: false } });
    const [stored] = await t.db.select().from(roles).where(eq(roles.id, role.id));
    expect(stored.name).toBe('Deck Porter');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/delete-role/${role.id}`, headers: s.admin });
    expect(del.json()).toEqual({ message: 'Role deleted successfully' });
    expect(await t.db.select().from(roles).where(eq(roles.id, role.id))).toHaveLength(0);
  });

  it('when a system role is renamed, then it keeps its id and its rules', async () => {
    const rename = await t.app.inject({ method: 'PUT', url: '/api/update-role/10', headers: s.admin, payload: { name: 'Courier Driver' } });
    expect(rename.json().data).toEqual({ id: 10, name: 'Courier Driver', is_system: true });
    await t.app.inject({ method: 'PUT', url: '/api/update-role/10', headers: s.admin, payload: { name: 'Driver' } });
  });

  it('when the name is missing or already taken in any case, then 422 on name', async () => {
    const empty = await t.app.inject({ method: 'POST', url: '/api/add-role', headers: s.admin, payload: { name: '' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toEqual(['Name is required']);
    const taken = await t.app.inject({ method: 'POST', url: '/api/add-role', headers: s.admin, payload: { name: 'auditor' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.name).toEqual(['The name has already been taken.']);
    const role = await addRole(`Clerk ${Date.now()}`);
    const renameTaken = await t.app.inject({
      method: 'PUT',
      url: `/api/update-role/${role.id}`,
      headers: s.admin,
      payload: { name: 'MESSENGER' },
    });
    expect(renameTaken.statusCode).toBe(422);
    expect(renameTaken.json().errors.name).toEqual(['The name has already been taken.']);
    const sameName = await t.app.inject({
      method: 'PUT',
      url: `/api/update-role/${role.id}`,
      headers: s.admin,
      payload: { name: role.name.toUpperCase() },
    });
    expect(sameName.statusCode).toBe(200);
  });

  it('when a system role or a role with users is deleted, then 409 says why and the role stays', async () => {
    const system = await t.app.inject({ method: 'DELETE', url: '/api/delete-role/9', headers: s.admin });
    expect(system.statusCode).toBe(409);
    expect(system.json().message).toBe(
      'Auditor is a system role that the access rules depend on, so it cannot be deleted. Rename it instead.',
    );
    const role = await addRole(`Purser ${Date.now()}`);
    await createUser(t.db, { role_id: role.id });
    await createUser(t.db, { role_id: role.id });
    const used = await t.app.inject({ method: 'DELETE', url: `/api/delete-role/${role.id}`, headers: s.admin });
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe('2 users have this role. Give them another role first.');
    expect(await t.db.select().from(roles).where(eq(roles.id, 9))).toHaveLength(1);
    expect(await t.db.select().from(roles).where(eq(roles.id, role.id))).toHaveLength(1);
  });

  it('when roles are searched on the Roles screen, then pages of matches come back with the envelope', async () => {
    const tag = `Wq${Date.now()}`;
    for (let i = 0; i < 11; i += 1) await addRole(`${tag} Crew ${i}`);
    const first = await t.app.inject({ method: 'GET', url: `/api/get-roles-with-search?search=${tag.toLowerCase()}`, headers: s.itAdmin });
    expect(first.json()).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 11 });
    expect(first.json().data[0].name).toBe(`${tag} Crew 0`);
    const second = await t.app.inject({ method: 'GET', url: `/api/get-roles-with-search?search=${tag}&page=2`, headers: s.itAdmin });
    expect(second.json().data.map((r: { name: string }) => r.name)).toEqual([`${tag} Crew 10`]);
  });

  it('when the Roles list is sorted by name, then the rows come in that order both ways, and an unknown column is a 422', async () => {
    const tag = `Srt${Date.now()}`;
    for (const name of ['Bosun', 'Able Seaman', 'Cook']) await addRole(`${tag} ${name}`);
    const names = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/get-roles-with-search?search=${tag}&${query}`, headers: s.admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((r: { name: string }) => r.name.replace(`${tag} `, ''));
    };
    expect(await names('sort=name')).toEqual(['Able Seaman', 'Bosun', 'Cook']);
    expect(await names('sort=name&order=desc')).toEqual(['Cook', 'Bosun', 'Able Seaman']);
    expect(await names('')).toEqual(['Bosun', 'Able Seaman', 'Cook']);
    const bad = await t.app.inject({ method: 'GET', url: '/api/get-roles-with-search?sort=password', headers: s.admin });
    expect(bad.statusCode).toBe(422);
  });
});
