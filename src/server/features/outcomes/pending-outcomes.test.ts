import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { USAGE_MSG } from '../../../shared/schemas/pads.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { cancellation, issueAndAccept } from '../../test/custody.ts';
import { createBranch, createRoute, signedIn, storedPadRows } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let custodian: Who;
let holder: Who;
let branchHead: Who;
let padId: number;

const { call, ok } = apiCalls(() => t);

const storedPad = async () => (await storedPadRows(t.db).where(eq(pads.id, padId)))[0];
const eventCount = async () => (await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padId))).length;
const myActions = async (who: Who) =>
  (await ok(call(who, 'GET', '/api/my-actions'))).data as {
    groups: Array<{ kind: string; count: number; items: Array<{ label: string; path: string }> }>;
  };

beforeAll(async () => {
  t = await createTestApp();
  const headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  const c = await signedIn(t, { role_id: 3, branch_id: headOfficeId });
  custodian = { id: c.user.id, headers: c.headers };
  const h = await signedIn(t, { role_id: 7, branch_id: branchId, first_name: 'Ana', last_name: 'Cruz' });
  holder = { id: h.user.id, headers: h.headers };
  const bh = await signedIn(t, { role_id: 5, branch_id: branchId, first_name: 'Ben', last_name: 'Head' });
  branchHead = { id: bh.user.id, headers: bh.headers };
  const courier = await signedIn(t, { role_id: 10, branch_id: headOfficeId });
  const routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 100251, series_to: 100300, pad_size: 50 }), 201);
  [{ id: padId }] = await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number));
  await issueAndAccept(t, { holder, custodian, courier: courier.user, routeId, padIds: [padId] });
});
afterAll(async () => {
  await t.close();
});

describe('a cancellation waiting for approval', () => {
  it('when the holder asks to cancel 100255-100256, then the pad names it pending and it is in their Needs my action', async () => {
    await ok(call(holder, 'POST', `/api/pads/${padId}/outcome`, cancellation(100255, 100256)), 202);
    const pad = (await ok(call(holder, 'GET', `/api/get-pad/${padId}`))).data;
    expect(pad.pending_outcomes).toEqual([{ from: 100255, to: 100256, outcome: 'cancelled', requested_by: 'Ana Cruz' }]);
    expect(pad.series.find((entry: { number: number }) => entry.number === 100255).status).toBe(1);
    const group = (await myActions(holder)).groups.find((g) => g.kind === 'outcome_pending');
    expect(group?.count).toBe(1);
    expect(group?.items[0]).toEqual({
      id: expect.any(Number),
      label: expect.stringContaining('100255\u2013100256: cancellation pending'),
      path: `/pads?pad=${padId}`,
    });
    expect((await myActions(branchHead)).groups.find((g) => g.kind === 'outcome_pending')).toBeUndefined();
  });

  it('when the holder marks a pending number used (by range or by the grid), then 409 with the message and nothing is stored', async () => {
    const before = await storedPad();
    const events = await eventCount();
    const pending = { from: 100255, to: 100256, outcome: 'cancelled' as const, requested_by: 'Ana Cruz' };
    const byRange = await call(holder, 'POST', `/api/pads/${padId}/usage`, { from: 100251, to: 100260 });
    expect(byRange.statusCode).toBe(409);
    expect(byRange.json().message).toBe(USAGE_MSG.pending(100255, pending));
    const again = await call(holder, 'POST', `/api/pads/${padId}/outcome`, cancellation(100256, 100258));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(USAGE_MSG.pending(100256, pending));
    const series = Array.from({ length: 50 }, (_, i) => ({ number: 100251 + i, status: i === 4 ? 2 : 1 }));
    const byGrid = await call(custodian, 'PUT', `/api/update-pad/${padId}`, {
      series,
      pad_status_id: before.pad_status_id,
      issuance_status_id: before.issuance_status_id,
    });
    expect(byGrid.statusCode).toBe(409);
    expect(byGrid.json().message).toBe(USAGE_MSG.pending(100255, pending));
    expect(await storedPad()).toEqual(before);
    expect(await eventCount()).toBe(events);
  });

  it('when usage starts after the pending numbers, then they are not cancelled as skipped: the request still decides them', async () => {
    const body = await ok(call(holder, 'POST', `/api/pads/${padId}/usage`, { from: 100251, to: 100254 }));
    expect(body.data.next_number).toBe(100255);
    const later = await ok(call(holder, 'POST', `/api/pads/${padId}/usage`, { from: 100257, to: 100258 }));
    expect(later.data.series.slice(4, 8).map((entry: { status: number }) => entry.status)).toEqual([1, 1, 2, 2]);
  });

  it('when the Branch Head approves, then the numbers are cancelled, nothing is pending and the requester\u2019s item is gone', async () => {
    const [request] = (await ok(call(branchHead, 'GET', '/api/outcome-requests'))).data;
    const pad = (await ok(call(branchHead, 'POST', `/api/outcome-requests/${request.id}/approve`))).data;
    expect(pad.pending_outcomes).toEqual([]);
    expect(pad.series.slice(4, 6).map((entry: { status: number }) => entry.status)).toEqual([3, 3]);
    expect((await myActions(holder)).groups.find((g) => g.kind === 'outcome_pending')).toBeUndefined();
  });
});
