import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import { ESTABLISHMENT_MSG } from '../../../shared/schemas/establishments.ts';
import { establishments } from '../../db/schema/paper-use.ts';
import { createBranch, sessionsForAllRoles, signedIn, type Sessions } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { establishmentOf } from './read-model.ts';

type Headers = Record<string, string>;
let t: TestApp;
let sessions: Sessions;
let accounting: { user: { id: number }; headers: Headers };
let batangas: { id: number; name: string };
let calapan: { id: number; name: string };

const covered = (over: Record<string, unknown> = {}) => ({
  bir_branch_code: '00012',
  covered: true,
  e_invoicing_since: '2027-01-01',
  permit_reference: 'PTU-EIS-2026-0042',
  invoicing_system: 'FerryPOS 4',
  ...over,
});
const put = (headers: Headers, branchId: number, payload: object) =>
  t.app.inject({ method: 'PUT', url: `/api/branches/${branchId}/e-invoicing`, headers, payload });
const get = (headers: Headers, branchId: number) => t.app.inject({ method: 'GET', url: `/api/branches/${branchId}/e-invoicing`, headers });
const stored = async (branchId: number) => (await t.db.select().from(establishments).where(eq(establishments.branch_id, branchId)))[0];

beforeAll(async () => {
  t = await createTestApp();
  sessions = await sessionsForAllRoles(t);
  accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING });
  batangas = await createBranch(t.db, { name: 'Batangas Port' });
  calapan = await createBranch(t.db, { name: 'Calapan Terminal' });
});

afterAll(async () => {
  await t?.close();
});

describe('e-invoicing establishments', () => {
  it('when a branch was never set, then it answers not covered with nulls, and read-model says none', async () => {
    const res = await get(sessions.admin, calapan.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      branch_id: calapan.id,
      bir_branch_code: null,
      covered: false,
      e_invoicing_since: null,
      permit_reference: null,
      invoicing_system: null,
      updated_by: null,
      updated_at: null,
    });
    expect(await establishmentOf(t.db, calapan.id)).toBeNull();
  });

  it('when Accounting sets a branch covered, then it is stored with who set it and every staff role reads it', async () => {
    const res = await put(accounting.headers, batangas.id, covered());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: ESTABLISHMENT_MSG.saved,
      data: {
        branch_id: batangas.id,
        bir_branch_code: '00012',
        covered: true,
        e_invoicing_since: '2027-01-01',
        updated_by: { id: accounting.user.id },
      },
    });
    expect(await stored(batangas.id)).toMatchObject({ covered: true, e_invoicing_since: '2027-01-01', updated_by: accounting.user.id });
    expect(await establishmentOf(t.db, batangas.id)).toMatchObject({
      covered: true,
      e_invoicing_since: '2027-01-01',
      invoicing_system: 'FerryPOS 4',
    });
    for (const { role_id, headers } of sessions.others) {
      const read = await get(headers, batangas.id);
      expect(read.statusCode, `role ${role_id}`).toBe(role_id === null ? 403 : 200);
      if (role_id !== null) expect(read.json().data.covered).toBe(true);
    }
  });

  it('when the Admin changes it again, then the one row is updated (an outport set uncovered keeps its code)', async () => {
    const res = await put(sessions.admin, batangas.id, { bir_branch_code: '012', covered: false, e_invoicing_since: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ bir_branch_code: '012', covered: false, e_invoicing_since: null, invoicing_system: null });
    expect(await t.db.select().from(establishments).where(eq(establishments.branch_id, batangas.id))).toHaveLength(1);
    await put(accounting.headers, batangas.id, covered());
  });

  it('when anyone but Admin and Accounting sets it, then 403 and nothing changes', async () => {
    for (const { role_id, headers } of [
      ...sessions.others.filter((s) => s.role_id !== ROLE.ACCOUNTING),
      { role_id: 2, headers: sessions.itAdmin },
    ]) {
      const res = await put(headers, calapan.id, covered());
      expect(res.statusCode, `role ${role_id}`).toBe(403);
    }
    expect(await stored(calapan.id)).toBeUndefined();
    expect((await t.app.inject({ method: 'PUT', url: `/api/branches/${calapan.id}/e-invoicing`, payload: covered() })).statusCode).toBe(
      401,
    );
  });

  it('when the input is wrong, then 422 names the field and nothing is stored', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [covered({ bir_branch_code: '12' }), 'bir_branch_code', ESTABLISHMENT_MSG.branchCode],
      [covered({ bir_branch_code: '123456' }), 'bir_branch_code', ESTABLISHMENT_MSG.branchCode],
      [covered({ bir_branch_code: '12a' }), 'bir_branch_code', ESTABLISHMENT_MSG.branchCode],
      [covered({ e_invoicing_since: null }), 'e_invoicing_since', ESTABLISHMENT_MSG.sinceRequired],
      [covered({ e_invoicing_since: '2027-02-30' }), 'e_invoicing_since', 'E-invoicing since is not a valid date'],
      [covered({ invoicing_system: '' }), 'invoicing_system', ESTABLISHMENT_MSG.systemRequired],
    ];
    for (const [payload, field, message] of cases) {
      const res = await put(accounting.headers, calapan.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(payload)).toContain(message);
    }
    expect(await stored(calapan.id)).toBeUndefined();
  });

  it('when the branch does not exist, then 404 for both', async () => {
    expect((await put(accounting.headers, 999_999, covered())).statusCode).toBe(404);
    expect((await get(accounting.headers, 999_999)).statusCode).toBe(404);
  });
});
