import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { locations } from '../../db/schema/reference.ts';
import { expectAdminsOnly, expectStaffOnly } from '../../test/access.ts';
import { createBranch, createLocation, sessionsForAllRoles, type Sessions } from '../../test/factories.ts';
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

describe('locations', () => {
  it('when anyone but roles 1 and 2 calls the admin endpoints, then 401 without a token and 403 for roles 3 to 11', async () => {
    const location = await createLocation(t.db);
    for (const call of [
      { method: 'GET', url: '/api/get-locations-with-search' },
      { method: 'POST', url: '/api/add-location', payload: { name: 'Pier' } },
      { method: 'PUT', url: `/api/update-location/${location.id}`, payload: { name: 'Pier' } },
      { method: 'DELETE', url: `/api/delete-location/${location.id}` },
    ] as const) {
      await expectAdminsOnly(t, s, call);
    }
    await expectStaffOnly(t, s, '/api/get-locations');
    const [stored] = await t.db.select().from(locations).where(eq(locations.id, location.id));
    expect(stored.name).toBe(location.name);
  });

  it('when an admin adds, renames and deletes a location, then each answer and the stored row agree', async () => {
    const add = await t.app.inject({ method: 'POST', url: '/api/add-location', headers: s.admin, payload: { name: '  Batangas Pier  ' } });
    expect(add.statusCode).toBe(201);
    const { data } = add.json();
    expect(add.json()).toEqual({ message: 'Location created successfully', data: { id: expect.any(Number), name: 'Batangas Pier' } });

    const rename = await t.app.inject({
      method: 'PUT',
      url: `/api/update-location/${data.id}`,
      headers: s.itAdmin,
      payload: { name: 'Calapan Pier' },
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json()).toEqual({ message: 'Location updated successfully', data: { id: data.id, name: 'Calapan Pier' } });
    const [stored] = await t.db.select().from(locations).where(eq(locations.id, data.id));
    expect(stored.name).toBe('Calapan Pier');

    const del = await t.app.inject({ method: 'DELETE', url: `/api/delete-location/${data.id}`, headers: s.admin });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Location deleted successfully' });
    expect(await t.db.select().from(locations).where(eq(locations.id, data.id))).toHaveLength(0);
  });

  it('when the name is missing, blank, too long or already taken, then 422 with the message on name', async () => {
    for (const [payload, message] of [
      [{}, 'Name is required'],
      [{ name: '   ' }, 'Name is required'],
      [{ name: 'x'.repeat(256) }, 'Name may not be longer than 255 characters'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/add-location', headers: s.admin, payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.name).toEqual([message]);
    }
    const existing = await createLocation(t.db, { name: `Roxas Pier ${Date.now()}` });
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/add-location',
      headers: s.admin,
      payload: { name: existing.name.toUpperCase() },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.name).toEqual(['The name has already been taken.']);
    const same = await t.app.inject({
      method: 'PUT',
      url: `/api/update-location/${existing.id}`,
      headers: s.admin,
      payload: { name: existing.name.toLowerCase() },
    });
    expect(same.statusCode).toBe(200);
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/update-location/999999',
      headers: s.admin,
      payload: { name: 'Nowhere' },
    });
    expect(missing.statusCode).toBe(404);
    const junkId = await t.app.inject({ method: 'DELETE', url: '/api/delete-location/abc', headers: s.admin });
    expect(junkId.statusCode).toBe(422);
  });

  it('when branches stand at a location, then deleting it answers 409 saying how many, and the location stays', async () => {
    const location = await createLocation(t.db);
    await createBranch(t.db, { location_id: location.id });
    await createBranch(t.db, { location_id: location.id });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/delete-location/${location.id}`, headers: s.admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('2 branches are at this location. Move them to another location first.');
    expect(await t.db.select().from(locations).where(eq(locations.id, location.id))).toHaveLength(1);
  });

  it('when 12 locations match a search, then the list pages them 10 per page with the envelope, case-insensitively', async () => {
    const tag = `Zq${Date.now()}`;
    for (let i = 0; i < 12; i += 1) await createLocation(t.db, { name: `${tag} Port ${i}` });
    await createLocation(t.db, { name: 'Unrelated Harbor' });
    const first = await t.app.inject({
      method: 'GET',
      url: `/api/get-locations-with-search?search=${tag.toLowerCase()}`,
      headers: s.admin,
    });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 12 });
    expect(body.data).toHaveLength(10);
    expect(body.data[0].name).toBe(`${tag} Port 11`);
    const second = await t.app.inject({ method: 'GET', url: `/api/get-locations-with-search?search=${tag}&page=2`, headers: s.admin });
    expect(second.json()).toMatchObject({ current_page: 2, last_page: 2, total: 12 });
    expect(second.json().data).toHaveLength(2);
    const wildcard = await t.app.inject({ method: 'GET', url: '/api/get-locations-with-search?search=%25', headers: s.admin });
    expect(wildcard.json().total).toBe(0);

    const all = await t.app.inject({ method: 'GET', url: '/api/get-locations', headers: s.others[0].headers });
    const names: string[] = all.json().data.map((l: { name: string }) => l.name);
    expect(names).toContain(`${tag} Port 0`);
  });
});
