import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const DIRECTORIES = [
  '/api/get-users-by-roles',
  '/api/get-user-statuses',
  '/api/get-branches',
  '/api/get-routes',
  '/api/get-companies',
  '/api/get-company-types',
  '/api/get-locations',
  '/api/get-roles',
  '/api/pad-statuses',
  '/api/issuance-statuses',
  '/api/invoice-statuses',
  '/api/head-office-branch',
  '/api/get-assigned-user/100000',
];
const OWN_SCREENS = [
  '/api/user-profile',
  '/api/get-user-qrcode',
  '/api/get-in-transit-invoices',
  '/api/get-user-pads',
  '/api/invoice-types',
];

describe('users without a role', () => {
  it('when a user without a role reads staff directories and lookups, then 403; their profile, badge and custodies still answer (docs/design.md §5 "Roles")', async () => {
    const roleless = await signedIn(t, { role_id: null });
    const driver = await signedIn(t, { role_id: 10 });
    for (const url of DIRECTORIES) {
      const res = await t.app.inject({ method: 'GET', url, headers: roleless.headers });
      expect(res.statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url, headers: driver.headers })).statusCode, `${url} as a driver`).not.toBe(403);
    }
    for (const url of OWN_SCREENS) {
      expect((await t.app.inject({ method: 'GET', url, headers: roleless.headers })).statusCode, url).toBe(200);
    }
  });
});
