import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { INVOICE_STATUS, ROLE } from '../../../shared/lookups.ts';
import { SERIES_MSG } from '../../../shared/schemas/registered-series.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { paperUses } from '../../db/schema/paper-use.ts';
import { pads } from '../../db/schema/pads.ts';
import { registeredSeries, registeredSeriesRoles } from '../../db/schema/registered-series.ts';
import {
  buildPads,
  createBranch,
  createRoute,
  createUser,
  type Sessions,
  sessionsForAllRoles,
  signedIn,
  storedPadRows,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { seriesRolesOf } from './read-model.ts';

type Headers = Record<string, string>;
let t: TestApp;
let sessions: Sessions;
let accounting: { user: { id: number }; headers: Headers };
let custodian: { headers: Headers };
let ticketing: { user: { id: number }; headers: Headers };
let courier: { id: number };
let batangas: { id: number };
let route: { id: number };
let seriesId: number;
let padIds: number[];

const call = (headers: Headers, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const setRole = (headers: Headers, id: number, role: string, reason = 'Kept for outages after go-live') =>
  call(headers, 'PUT', `/api/registered-series/${id}/role`, { role, reason });
const storedRole = async (id: number) =>
  (await t.db.select({ role: registeredSeries.role }).from(registeredSeries).where(eq(registeredSeries.id, id)))[0]?.role;
const history = (id: number) =>
  t.db.select().from(registeredSeriesRoles).where(eq(registeredSeriesRoles.registered_series_id, id)).orderBy(registeredSeriesRoles.id);

beforeAll(async () => {
  t = await createTestApp();
  sessions = await sessionsForAllRoles(t);
  accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING });
  custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN });
  batangas = await createBranch(t.db, { name: 'Batangas Port' });
  ticketing = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: batangas.id });
  courier = await createUser(t.db, { role_id: ROLE.DRIVER });
  route = await createRoute(t.db, { name: 'Batangas - Calapan', tin: '000-111-222' });
  const built = await buildPads(t.db, route.id, 2);
  padIds = built.map((pad) => pad.id);
  const created = await call(accounting.headers, 'POST', '/api/registered-series', {
    route_id: route.id,
    branch_id: batangas.id,
    form_type: 'invoice',
    atp_number: 'OCN-2026-0100',
    atp_date: '2026-05-02',
    printer: 'Batangas Printing Press',
    delivery_date: null,
    series_from: built[0].series_from,
    series_to: built[1].series_to,
    remarks: null,
  });
  expect(created.statusCode, created.body).toBe(201);
  seriesId = created.json().data.id;
  expect(created.json().data.role).toBe('regular');
});

afterAll(async () => {
  await t?.close();
});

describe('registered series roles', () => {
  it('when Accounting changes the role, then the series has it and the change is kept with who, when, why and the role before', async () => {
    const res = await setRole(accounting.headers, seriesId, 'contingency');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: SERIES_MSG.roleChanged('contingency'),
      data: {
        id: seriesId,
        role: 'contingency',
        role_history: [
          {
            role: 'contingency',
            previous_role: 'regular',
            reason: 'Kept for outages after go-live',
            changed_by: { id: accounting.user.id },
          },
        ],
      },
    });
    expect(await storedRole(seriesId)).toBe('contingency');
    const kept = await history(seriesId);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ role: 'contingency', previous_role: 'regular', changed_by: accounting.user.id });
    expect(kept[0].changed_at).toBeInstanceOf(Date);
    expect(await seriesRolesOf(t.db, [seriesId])).toEqual([
      { id: seriesId, role: 'contingency', atp_number: 'OCN-2026-0100', branch_id: batangas.id },
    ]);
  });

  it('when a paper use was recorded under the old role, then a role change leaves it as it was', async () => {
    const [use] = await t.db
      .insert(paperUses)
      .values({
        branch_id: batangas.id,
        pad_id: padIds[0],
        route_id: route.id,
        registered_series_id: seriesId,
        series_role: 'contingency',
        number_from: 1,
        number_to: 1,
        holder_user_id: ticketing.user.id,
        used_at: new Date('2027-01-05T01:00:00Z'),
        business_date: '2027-01-05',
        recorded_by: ticketing.user.id,
        state: 'open',
      })
      .returning();
    const res = await setRole(sessions.admin, seriesId, 'converted', 'Converted receipts, used until consumed (RR 11-2024)');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.role_history.map((h: { role: string }) => h.role)).toEqual(['converted', 'contingency']);
    const [after] = await t.db.select().from(paperUses).where(eq(paperUses.id, use.id));
    expect(after.series_role).toBe('contingency');
    expect(after.state).toBe('open');
  });

  it('when the role is the one it has, or the series does not exist, then 409 and 404 and nothing is kept', async () => {
    const same = await setRole(accounting.headers, seriesId, 'converted');
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toBe(SERIES_MSG.sameRole('converted'));
    expect((await setRole(accounting.headers, 999_999, 'retired')).statusCode).toBe(404);
    expect(await history(seriesId)).toHaveLength(2);
  });

  it('when the input is wrong, then 422 names the field', async () => {
    const badRole = await call(accounting.headers, 'PUT', `/api/registered-series/${seriesId}/role`, { role: 'spare', reason: 'x' });
    expect(badRole.statusCode).toBe(422);
    expect(badRole.json().errors.role).toContain(SERIES_MSG.role);
    const noReason = await call(accounting.headers, 'PUT', `/api/registered-series/${seriesId}/role`, { role: 'retired', reason: '  ' });
    expect(noReason.statusCode).toBe(422);
    expect(Object.keys(noReason.json().errors)).toEqual(['reason']);
    expect(await storedRole(seriesId)).toBe('converted');
  });

  it('when anyone but Admin and Accounting changes a role, then 403 and the role stays', async () => {
    for (const { role_id, headers } of [
      ...sessions.others.filter((s) => s.role_id !== ROLE.ACCOUNTING),
      { role_id: 2, headers: sessions.itAdmin },
    ]) {
      const res = await setRole(headers, seriesId, 'retired');
      expect(res.statusCode, `role ${role_id}`).toBe(403);
    }
    expect(await storedRole(seriesId)).toBe('converted');
  });

  it('when the list is asked for retired series, then only the series to surrender are listed', async () => {
    const before = await call(accounting.headers, 'GET', '/api/registered-series?role=retired');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().total).toBe(0);
    expect((await setRole(accounting.headers, seriesId, 'retired', 'Superseded by e-invoicing: to surrender')).statusCode).toBe(200);
    const after = await call(accounting.headers, 'GET', '/api/registered-series?role=retired');
    expect(after.json()).toMatchObject({ total: 1, data: [{ id: seriesId, role: 'retired' }] });
    expect((await call(accounting.headers, 'GET', '/api/registered-series?role=regular')).json().total).toBe(0);
    expect((await call(accounting.headers, 'GET', '/api/registered-series?role=spare')).statusCode).toBe(422);
    const one = await call(accounting.headers, 'GET', `/api/registered-series/${seriesId}`);
    expect(one.json().data.role_history.map((h: { role: string; previous_role: string }) => [h.previous_role, h.role])).toEqual([
      ['converted', 'retired'],
      ['contingency', 'converted'],
      ['regular', 'contingency'],
    ]);
  });

  it('when a pad of a retired series is issued, then 409 names the role and the request stays pending with its pads free', async () => {
    expect(await storedRole(seriesId)).toBe('retired');
    const request = await call(ticketing.headers, 'POST', '/api/create-request-invoice', { route_id: route.id, pads: 1 });
    expect(request.statusCode, request.body).toBe(201);
    const res = await call(custodian.headers, 'POST', '/api/issue-invoice', {
      invoice_id: request.json().data.id,
      pads: [padIds[1]],
      assigned_user_id: courier.id,
      expected_return: 3,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(SERIES_MSG.retiredNotIssuable(2, 'OCN-2026-0100'));
    expect(res.json().message).toContain('retired');
    const [stored] = await t.db.select().from(invoices).where(eq(invoices.id, request.json().data.id));
    expect(stored.invoice_status_id).toBe(INVOICE_STATUS.PENDING);
    const [pad] = await storedPadRows(t.db).where(eq(pads.id, padIds[1]));
    expect(pad.locked_by_invoice_id).toBeNull();

    expect((await setRole(accounting.headers, seriesId, 'contingency', 'Needed for outages after all')).statusCode).toBe(200);
    const issued = await call(custodian.headers, 'POST', '/api/issue-invoice', {
      invoice_id: request.json().data.id,
      pads: [padIds[1]],
      assigned_user_id: courier.id,
      expected_return: 3,
    });
    expect(issued.statusCode, issued.body).toBe(201);
  });
});
