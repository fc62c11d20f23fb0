import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { expectAdminsOnly } from '../../test/access.ts';
import {
  createBranch,
  createCompany,
  createLocation,
  createRoute,
  createUser,
  sessionsForAllRoles,
  signedIn,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: null });
});
afterAll(async () => {
  await t.close();
});

const status = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/setup-status', headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Record<string, boolean> }).data;
};

describe('setup checklist', () => {
  it('when an installation is empty, then no step is done, and each step ticks itself off as its first record is made (other admins and role-less accounts do not count as users)', async () => {
    expect(await status()).toEqual({ company: false, location: false, head_office: false, route: false, users: false, pads: false });

    await createCompany(t.db, { name: 'Montenegro Lines' });
    expect(await status()).toMatchObject({ company: true, location: false });
    await createLocation(t.db, { name: 'Batangas' });
    expect(await status()).toMatchObject({ location: true, head_office: false });
    const office = await createBranch(t.db, { name: 'Head Office' });
    t.ctx.config.headOfficeBranchId = office.id;
    expect(await status()).toMatchObject({ head_office: true, route: false });
    const route = await createRoute(t.db, { name: 'Batangas - Calapan' });
    expect(await status()).toMatchObject({ route: true, users: false });
    await createUser(t.db, { role_id: ROLE.IT_ADMIN, branch_id: null });
    await createUser(t.db, { role_id: null, branch_id: null });
    expect(await status()).toMatchObject({ users: false });
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: office.id });
    expect(await status()).toMatchObject({ users: true, pads: false });

    const generated = await t.app.inject({
      method: 'POST',
      url: '/api/add-pad',
      headers: custodian.headers,
      payload: { route_id: route.id, series_from: 1001, series_to: 1050 },
    });
    expect(generated.statusCode, generated.body).toBe(201);
    expect(await status()).toEqual({ company: true, location: true, head_office: true, route: true, users: true, pads: true });
  });

  it('when anyone but roles 1 and 2 asks, then 401 without a token and 403 otherwise', async () => {
    await expectAdminsOnly(t, await sessionsForAllRoles(t), { method: 'GET', url: '/api/setup-status' });
  });
});
