import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import { dateInZone } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS, ROLE, USER_STATUS } from '../../../shared/lookups.ts';
import { MSG } from '../../../shared/messages.ts';
import { INVOICE_MSG } from '../../../shared/schemas/invoices.ts';
import { activities, invoicePads, invoices } from '../../db/schema/invoices.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { encodeBadge } from '../../lib/badge.ts';
import {
  buildInvoice,
  buildPads,
  createBranch,
  createLocation,
  createRoute,
  createUser,
  signedIn,
  storedPadRows,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let headOffice: Awaited<ReturnType<typeof createBranch>>;
let branchB: Awaited<ReturnType<typeof createBranch>>;
let branchBLocation: Awaited<ReturnType<typeof createLocation>>;

type Headers = { authorization: string };

beforeAll(async () => {
  t = await createTestApp();
  headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  branchBLocation = await createLocation(t.db, { name: 'Batangas Port' });
  branchB = await createBranch(t.db, { name: 'Batangas Agency', location_id: branchBLocation.id });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload: object = {}) => t.app.inject({ method: 'POST', url, headers, payload });
const del = (url: string, headers: Headers) => t.app.inject({ method: 'DELETE', url, headers });

/** The same badge with its last check digit changed. */
const altered = (code: string) => `${code.slice(0, -1)}${(Number(code.slice(-1)) + 1) % 10}`;
const badgeOf = (user: { id: number; badge_version: number }) => encodeBadge(t.ctx.badgeSecret, user.id, user.badge_version);

async function storedInvoice(id: number) {
  const [row] = await t.db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}
async function storedActivities(id: number) {
  return t.db.select().from(activities).where(eq(activities.invoice_id, id)).orderBy(asc(activities.id));
}
async function storedPads(ids: number[]) {
  return storedPadRows(t.db).where(inArray(pads.id, ids)).orderBy(asc(pads.id));
}

function addDays(date: string, days: number) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A requester of role 5 at branch B, a custodian at the head office, a courier, a route with pads. */
async function scene(padCount = 4) {
  const requester = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branchB.id, first_name: 'Rosa', last_name: 'Reyes' });
  const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id, first_name: 'Carlo', last_name: 'Cruz' });
  const courier = await createUser(t.db, {
    role_id: ROLE.DRIVER,
    branch_id: headOffice.id,
    first_name: 'Dan',
    middle_name: 'M',
    last_name: 'Diaz',
  });
  const route = await createRoute(t.db);
  const routePads = await buildPads(t.db, route.id, padCount);
  return { requester, custodian, courier, route, routePads };
}

async function request(headers: Headers, routeId: number, count: number | string = 2) {
  const res = await post('/api/create-request-invoice', headers, { branch_id: headOffice.id, route_id: routeId, pads: count });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number };
}

const issueBody = (requestId: number, padIds: number[], courierId: number | string, extra: object = {}) => ({
  invoice_id: requestId,
  pads: padIds,
  assigned_user_id: courierId,
  expected_return: 3,
  ...extra,
});

async function issued(s: Awaited<ReturnType<typeof scene>>, count = 2) {
  const req = await request(s.requester.headers, s.route.id, count);
  const res = await post(
    '/api/issue-invoice',
    s.custodian.headers,
    issueBody(
      req.id,
      s.routePads.slice(0, count).map((p) => p.id),
      s.courier.id,
    ),
  );
  expect(res.statusCode, res.body).toBe(201);
  return { requestId: req.id, invoiceId: res.json().data.id as number };
}

describe('invoices: request, issue, accept', () => {
  it('when a branch head requests, a custodian issues and the requester accepts, then invoices, pads and activities follow each step', async () => {
    const s = await scene(3);

    const created = await post('/api/create-request-invoice', s.requester.headers, {
      branch_id: headOffice.id,
      route_id: s.route.id,
      pads: '2',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().message).toBe(INVOICE_MSG.requested);
    const requestId = created.json().data.id as number;
    expect(created.json().data).toMatchObject({
      invoice_type: { name: 'Request' },
      invoice_status: { name: 'Pending' },
      branch: { id: headOffice.id, name: 'Head Office' },
      from_branch: { id: branchB.id, name: 'Batangas Agency' },
      pads: 2,
      route: { id: s.route.id, company: { name: expect.any(String) } },
    });
    expect(await storedInvoice(requestId)).toMatchObject({
      invoice_type_id: INVOICE_TYPE.REQUEST,
      invoice_status_id: INVOICE_STATUS.PENDING,
      user_id: s.requester.user.id,
      created_by: s.requester.user.id,
      branch_id: headOffice.id,
      from_branch_id: branchB.id,
      route_id: s.route.id,
      pad_count: 2,
    });
    expect(await storedActivities(requestId)).toEqual([
      expect.objectContaining({ invoice_status_id: INVOICE_STATUS.PENDING, user_id: s.requester.user.id, location: 'Batangas Port' }),
    ]);

    const padIds = s.routePads.slice(0, 2).map((p) => p.id);
    const issuedRes = await post('/api/issue-invoice', s.custodian.headers, {
      ...issueBody(requestId, padIds, s.courier.id, { expected_return: '5' }),
      branch_id: headOffice.id,
      route_id: s.route.id,
      user_id: s.requester.user.id,
    });
    expect(issuedRes.statusCode, issuedRes.body).toBe(201);
    expect(issuedRes.json().message).toBe(INVOICE_MSG.issued);
    const invoiceId = issuedRes.json().data.id as number;
    expect(issuedRes.json().data).toMatchObject({
      invoice_type: { name: 'Issued' },
      invoice_status: { name: 'In-Transit' },
      assigned_user: { id: s.courier.id, full_name: 'Dan M Diaz' },
      assigned_to: 'Dan M Diaz',
      pads: 2,
      from_branch: { id: headOffice.id },
      branch: { id: branchB.id },
    });
    expect(await storedInvoice(requestId)).toMatchObject({ invoice_status_id: INVOICE_STATUS.ISSUED });
    expect(await storedInvoice(invoiceId)).toMatchObject({
      invoice_type_id: INVOICE_TYPE.ISSUED,
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      user_id: s.requester.user.id,
      created_by: s.custodian.user.id,
      request_invoice_id: requestId,
      from_branch_id: headOffice.id,
      branch_id: branchB.id,
      assigned_user_id: s.courier.id,
      expected_return_date: addDays(dateInZone(new Date(), t.ctx.config.timeZone), 5),
    });
    const afterIssue = await storedPads(s.routePads.map((p) => p.id));
    expect(afterIssue.map((p) => [p.issuance_status_id, p.locked_by_invoice_id])).toEqual([
      [ISSUANCE_STATUS.ISSUED, invoiceId],
      [ISSUANCE_STATUS.ISSUED, invoiceId],
      [ISSUANCE_STATUS.NOT_ISSUED, null],
    ]);
    const links = await t.db.select().from(invoicePads).where(eq(invoicePads.invoice_id, invoiceId));
    expect(links.map((l) => l.pad_id).sort()).toEqual([...padIds].sort());
    expect((await storedActivities(requestId)).map((a) => a.invoice_status_id)).toEqual([INVOICE_STATUS.PENDING, INVOICE_STATUS.ISSUED]);
    expect(await storedActivities(invoiceId)).toEqual([
      expect.objectContaining({
        invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
        user_id: s.custodian.user.id,
        assigned_user_id: s.courier.id,
      }),
    ]);

    const detail = await get(`/api/get-invoice/${invoiceId}`, s.requester.headers);
    expect(detail.statusCode).toBe(200);
    const timeline = detail.json().data.activities as Array<{
      invoice_status: { name: string };
      assigned_user: { full_name: string } | null;
    }>;
    expect(timeline.map((a) => a.invoice_status.name)).toEqual(['Pending', 'Issued', 'In-Transit']);
    expect(timeline[2].assigned_user?.full_name).toBe('Dan M Diaz');
    expect(detail.json().data.expected_return_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const requestDetail = await get(`/api/get-invoice/${requestId}`, s.requester.headers);
    expect(requestDetail.json().data.issued_invoice_id).toBe(invoiceId);

    const padsRes = await get(`/api/invoice-pads/${invoiceId}`, s.requester.headers);
    expect(padsRes.json()).toMatchObject({ total: 2, current_page: 1, last_page: 1, per_page: 10 });
    expect(padsRes.json().data[0]).toMatchObject({
      invoice_id: invoiceId,
      pad: {
        number: 1,
        issuance_status: { name: 'Issued' },
        pad_status: { name: 'Unused' },
        series_number: expect.stringMatching(/^\d+-\d+$/),
      },
    });
    const belong = await get(`/api/pads-belong-to-invoice/${invoiceId}?search=${s.routePads[1].series_from + 3}`, s.requester.headers);
    expect(belong.json()).toMatchObject({ total: 1, data: [{ id: s.routePads[1].id, number: 2 }] });

    const accepted = await post(`/api/accept-invoice/${invoiceId}`, s.requester.headers);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ message: INVOICE_MSG.accepted, data: { invoice_status: { name: 'Completed' } } });
    const stored = await storedInvoice(invoiceId);
    expect(stored).toMatchObject({ invoice_status_id: INVOICE_STATUS.COMPLETED, accepted_by: s.requester.user.id });
    expect(stored.accepted_at).toBeInstanceOf(Date);
    const afterAccept = await storedPads(padIds);
    expect(afterAccept.map((p) => [p.issuance_status_id, p.locked_by_invoice_id, p.holder_user_id, p.holder_branch_id])).toEqual([
      [ISSUANCE_STATUS.ISSUED, null, s.requester.user.id, branchB.id],
      [ISSUANCE_STATUS.ISSUED, null, s.requester.user.id, branchB.id],
    ]);
    expect((await storedActivities(invoiceId)).map((a) => [a.invoice_status_id, a.user_id, a.location])).toEqual([
      [INVOICE_STATUS.IN_TRANSIT, s.custodian.user.id, expect.any(String)],
      [INVOICE_STATUS.COMPLETED, s.requester.user.id, 'Batangas Port'],
    ]);
    const final = await get(`/api/get-invoice/${invoiceId}`, s.requester.headers);
    expect(final.json().data.activities.map((a: { invoice_status: { name: string } }) => a.invoice_status.name)).toEqual([
      'Pending',
      'Issued',
      'In-Transit',
      'Completed',
    ]);

    const again = await post(`/api/accept-invoice/${invoiceId}`, s.requester.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(INVOICE_MSG.notInTransit);
  });

  it('when the lookups are asked, then the invoice types, statuses and the head office come back', async () => {
    const { headers } = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branchB.id });
    expect((await get('/api/invoice-types', headers)).json().data).toEqual([
      { id: 1, name: 'Request' },
      { id: 2, name: 'Issued' },
      { id: 3, name: 'Return' },
      { id: 4, name: 'Turnover' },
    ]);
    expect((await get('/api/invoice-statuses', headers)).json().data.map((s: { name: string }) => s.name)).toEqual([
      'Pending',
      'In-Transit',
      'Issued',
      'Completed',
    ]);
    expect((await get('/api/head-office-branch', headers)).json().data).toEqual({ id: headOffice.id, name: 'Head Office' });
  });
});

describe('invoices: who may do what', () => {
  it('when roles 1 to 8 request pads, then each succeeds, and the Auditor (9), roles 10, 11 or none are refused', async () => {
    const route = await createRoute(t.db);
    for (const role of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { headers } = await signedIn(t, { role_id: role, branch_id: branchB.id });
      const res = await post('/api/create-request-invoice', headers, { route_id: route.id, pads: 1 });
      expect(res.statusCode, `role ${role}`).toBe(201);
    }
    for (const role of [9, 10, 11, null]) {
      const { headers } = await signedIn(t, { role_id: role, branch_id: branchB.id });
      const res = await post('/api/create-request-invoice', headers, { route_id: route.id, pads: 1 });
      expect(res.statusCode, `role ${role}`).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/create-request-invoice', payload: { route_id: route.id, pads: 1 } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe(MSG.unauthenticated);
  });

  it('when each role tries to issue a pending request, then only roles 1 and 3 may', async () => {
    const s = await scene(11);
    for (const role of [2, 4, 5, 6, 7, 8, 9, 10, 11]) {
      const req = await request(s.requester.headers, s.route.id, 1);
      const { headers } = await signedIn(t, { role_id: role, branch_id: headOffice.id });
      const res = await post('/api/issue-invoice', headers, issueBody(req.id, [s.routePads[0].id], s.courier.id));
      expect(res.statusCode, `role ${role}`).toBe(403);
      expect((await storedInvoice(req.id)).invoice_status_id).toBe(INVOICE_STATUS.PENDING);
    }
    for (const [i, role] of [1, 3].entries()) {
      const req = await request(s.requester.headers, s.route.id, 1);
      const { headers } = await signedIn(t, { role_id: role, branch_id: headOffice.id });
      const res = await post('/api/issue-invoice', headers, issueBody(req.id, [s.routePads[i].id], s.courier.id));
      expect(res.statusCode, `role ${role}: ${res.body}`).toBe(201);
    }
  });

  it('when someone other than the requester accepts an Issued invoice, then it is refused and stays In-Transit', async () => {
    const s = await scene(2);
    const { invoiceId } = await issued(s, 1);
    const courierSession = await signedIn(t, { role_id: ROLE.DRIVER, branch_id: headOffice.id });
    const sameBranch = await signedIn(t, { role_id: ROLE.SUPERVISOR, branch_id: branchB.id });
    const accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING, branch_id: headOffice.id });
    const admin = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: headOffice.id });
    for (const who of [s.custodian, courierSession, sameBranch, accounting, admin]) {
      const res = await post(`/api/accept-invoice/${invoiceId}`, who.headers);
      expect([403, 404]).toContain(res.statusCode);
    }
    expect((await post(`/api/accept-invoice/${invoiceId}`, sameBranch.headers)).statusCode).toBe(403);
    expect((await post(`/api/accept-invoice/${invoiceId}`, admin.headers)).statusCode).toBe(403);
    expect((await storedInvoice(invoiceId)).invoice_status_id).toBe(INVOICE_STATUS.IN_TRANSIT);
    const pending = await request(s.requester.headers, s.route.id, 1);
    const acceptPending = await post(`/api/accept-invoice/${pending.id}`, s.requester.headers);
    expect(acceptPending.statusCode).toBe(409);
  });

  it('when a Return or Turnover invoice is accepted by the wrong person, then it is refused', async () => {
    const s = await scene(2);
    const transfer = {
      status: INVOICE_STATUS.IN_TRANSIT,
      user_id: s.requester.user.id,
      from_branch_id: branchB.id,
      branch_id: headOffice.id,
      route_id: s.route.id,
    };
    const ret = await buildInvoice(t.db, { ...transfer, type: INVOICE_TYPE.RETURN });
    const turnover = await buildInvoice(t.db, { ...transfer, type: INVOICE_TYPE.TURNOVER });
    const admin = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: headOffice.id });
    expect((await post(`/api/accept-invoice/${ret.id}`, admin.headers)).statusCode).toBe(403);
    expect((await post(`/api/accept-invoice/${ret.id}`, s.requester.headers)).statusCode).toBe(403);
    const wrongRoleAtBranch = await signedIn(t, { role_id: ROLE.ACCOUNTING, branch_id: headOffice.id });
    expect((await post(`/api/accept-invoice/${turnover.id}`, wrongRoleAtBranch.headers)).statusCode).toBe(403);
    const rightRoleOtherBranch = await signedIn(t, { role_id: ROLE.BRANCH_CUSTODIAN, branch_id: branchB.id });
    expect([403, 404]).toContain((await post(`/api/accept-invoice/${turnover.id}`, rightRoleOtherBranch.headers)).statusCode);
    expect((await storedInvoice(ret.id)).invoice_status_id).toBe(INVOICE_STATUS.IN_TRANSIT);
    expect((await storedInvoice(turnover.id)).invoice_status_id).toBe(INVOICE_STATUS.IN_TRANSIT);
  });

  it('when Accounting accepts a Return and a destination branch head accepts a Turnover, then both complete and the pads move', async () => {
    const s = await scene(2);
    const insertTransfer = async (type: number, branchId: number, pad: (typeof s.routePads)[number]) => {
      await t.db.update(padCustody).set({ issuance_status_id: ISSUANCE_STATUS.ISSUED }).where(eq(padCustody.pad_id, pad.id));
      return buildInvoice(t.db, {
        type,
        status: INVOICE_STATUS.IN_TRANSIT,
        user_id: s.requester.user.id,
        from_branch_id: branchB.id,
        branch_id: branchId,
        route_id: s.route.id,
        assigned_user_id: s.courier.id,
        pads: [pad],
      });
    };
    const ret = await insertTransfer(INVOICE_TYPE.RETURN, headOffice.id, s.routePads[0]);
    const destination = await createBranch(t.db);
    const turnover = await insertTransfer(INVOICE_TYPE.TURNOVER, destination.id, s.routePads[1]);

    const accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING, branch_id: headOffice.id });
    const acceptedReturn = await post(`/api/accept-invoice/${ret.id}`, accounting.headers);
    expect(acceptedReturn.statusCode, acceptedReturn.body).toBe(200);
    expect(acceptedReturn.json().data.invoice_status.name).toBe('Completed');
    const branchCustodian = await signedIn(t, { role_id: ROLE.BRANCH_CUSTODIAN, branch_id: destination.id });
    const acceptedTurnover = await post(`/api/accept-invoice/${turnover.id}`, branchCustodian.headers);
    expect(acceptedTurnover.statusCode, acceptedTurnover.body).toBe(200);

    expect(await storedInvoice(ret.id)).toMatchObject({ invoice_status_id: INVOICE_STATUS.COMPLETED, accepted_by: accounting.user.id });
    expect(await storedInvoice(turnover.id)).toMatchObject({
      invoice_status_id: INVOICE_STATUS.COMPLETED,
      accepted_by: branchCustodian.user.id,
    });
    const [returnedPad, turnedOverPad] = await storedPads(s.routePads.map((p) => p.id));
    expect(returnedPad).toMatchObject({
      locked_by_invoice_id: null,
      issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
      holder_branch_id: headOffice.id,
    });
    expect(turnedOverPad).toMatchObject({
      locked_by_invoice_id: null,
      holder_user_id: branchCustodian.user.id,
      holder_branch_id: destination.id,
    });
    expect((await storedActivities(turnover.id)).map((a) => a.invoice_status_id)).toEqual([INVOICE_STATUS.COMPLETED]);
    expect((await post(`/api/accept-invoice/${ret.id}`, accounting.headers)).statusCode).toBe(409);
  });

  it('when every role tries to accept Returns and Turnovers, then only role 8 takes a Return and only roles 4 to 7 of the destination a Turnover', async () => {
    const s = await scene(1);
    const destination = await createBranch(t.db);
    const transfer = async (type: number, branchId: number) => {
      const row = await buildInvoice(t.db, {
        type,
        status: INVOICE_STATUS.IN_TRANSIT,
        user_id: s.requester.user.id,
        from_branch_id: branchB.id,
        branch_id: branchId,
        route_id: s.route.id,
        assigned_user_id: s.courier.id,
        pad_count: 0,
      });
      return row.id;
    };
    for (const role of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
      const returnId = await transfer(INVOICE_TYPE.RETURN, headOffice.id);
      const turnoverId = await transfer(INVOICE_TYPE.TURNOVER, destination.id);
      const atDestination = await signedIn(t, { role_id: role, branch_id: destination.id });
      const returnCode = (await post(`/api/accept-invoice/${returnId}`, atDestination.headers)).statusCode;
      const turnoverCode = (await post(`/api/accept-invoice/${turnoverId}`, atDestination.headers)).statusCode;
      expect(returnCode === 200, `role ${role} return ${returnCode}`).toBe(role === 8);
      expect(turnoverCode === 200, `role ${role} turnover ${turnoverCode}`).toBe([4, 5, 6, 7].includes(role));
      expect([200, 403, 404]).toContain(returnCode);
      expect([200, 403, 404]).toContain(turnoverCode);
    }
  });

  it('when invoices are deleted, then only Pending ones go, by their creator or roles 1 and 2', async () => {
    const s = await scene(2);
    const own = await request(s.requester.headers, s.route.id, 1);
    const res = await del(`/api/delete-invoice/${own.id}`, s.requester.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(INVOICE_MSG.deleted);
    expect(await storedInvoice(own.id)).toBeUndefined();
    expect(await storedActivities(own.id)).toEqual([]);

    const other = await request(s.requester.headers, s.route.id, 1);
    const colleague = await signedIn(t, { role_id: ROLE.SUPERVISOR, branch_id: branchB.id });
    expect((await del(`/api/delete-invoice/${other.id}`, colleague.headers)).statusCode).toBe(403);
    expect((await del(`/api/delete-invoice/${other.id}`, s.custodian.headers)).statusCode).toBe(403);
    const itAdmin = await signedIn(t, { role_id: ROLE.IT_ADMIN, branch_id: headOffice.id });
    expect((await del(`/api/delete-invoice/${other.id}`, itAdmin.headers)).statusCode).toBe(200);
    const another = await request(s.requester.headers, s.route.id, 1);
    const admin = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: headOffice.id });
    expect((await del(`/api/delete-invoice/${another.id}`, admin.headers)).statusCode).toBe(200);

    const { requestId, invoiceId } = await issued(s, 1);
    const issuedDelete = await del(`/api/delete-invoice/${requestId}`, s.requester.headers);
    expect(issuedDelete.statusCode).toBe(409);
    expect(issuedDelete.json().message).toBe(INVOICE_MSG.onlyPendingDelete);
    expect((await del(`/api/delete-invoice/${invoiceId}`, admin.headers)).statusCode).toBe(409);
    expect(await storedInvoice(invoiceId)).toBeDefined();
    expect((await del('/api/delete-invoice/2147483647', admin.headers)).statusCode).toBe(404);
  });

  it('when a user outside the invoice looks at it, then it is not found for them but visible to roles that see all', async () => {
    const s = await scene(2);
    const { invoiceId } = await issued(s, 1);
    const otherBranch = await createBranch(t.db);
    const outsider = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: otherBranch.id });
    expect((await get(`/api/get-invoice/${invoiceId}`, outsider.headers)).statusCode).toBe(404);
    expect((await get(`/api/invoice-pads/${invoiceId}`, outsider.headers)).statusCode).toBe(404);
    const listed = await get('/api/get-invoices?per_page=100', outsider.headers);
    expect(listed.json().data.map((i: { id: number }) => i.id)).not.toContain(invoiceId);
    for (const role of [1, 2, 3, 8, 9]) {
      const viewer = await signedIn(t, { role_id: role, branch_id: otherBranch.id });
      expect((await get(`/api/get-invoice/${invoiceId}`, viewer.headers)).statusCode, `role ${role}`).toBe(200);
    }
    const courier = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: s.courier.email, password: 'Secret@123' },
    });
    const courierHeaders = { authorization: `Bearer ${courier.json().token}` };
    expect((await get(`/api/get-invoice/${invoiceId}`, courierHeaders)).statusCode).toBe(200);
    expect((await get('/api/get-invoices', courierHeaders)).statusCode).toBe(403);
  });
});

describe('invoices: validation', () => {
  it('when a request breaks the rules, then each field says why', async () => {
    const { headers } = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branchB.id });
    const route = await createRoute(t.db);
    const cases: Array<[object, string, string]> = [
      [{ route_id: route.id, pads: '' }, 'pads', 'Number of Pads is required'],
      [{ route_id: route.id }, 'pads', 'Number of Pads is required'],
      [{ route_id: route.id, pads: '2a' }, 'pads', 'Invalid Number of Pads format'],
      [{ route_id: route.id, pads: -1 }, 'pads', 'Invalid Number of Pads format'],
      [{ route_id: route.id, pads: 0 }, 'pads', 'Number of Pads must be at least 1'],
      [{ route_id: route.id, pads: 1001 }, 'pads', 'Number of Pads may not be greater than 1000'],
      [{ pads: 1 }, 'route_id', 'Route is required'],
      [{ route_id: '', pads: 1 }, 'route_id', 'Route is required'],
      [{ route_id: 99_999_999_999, pads: 1 }, 'route_id', 'The selected Route is invalid.'],
      [{ route_id: 2_147_483_000, pads: 1 }, 'route_id', INVOICE_MSG.routeMissing],
      [{ route_id: route.id, pads: 1, branch_id: branchB.id }, 'branch_id', INVOICE_MSG.headOfficeOnly],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post('/api/create-request-invoice', headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(payload)).toEqual([message]);
    }
    const count = await t.db.select().from(invoices).where(eq(invoices.route_id, route.id));
    expect(count).toEqual([]);
  });

  it('when an issue breaks the rules (a courier must be an active user with a role), then it is refused with a message and nothing changes', async () => {
    const s = await scene(4);
    const otherRoute = await createRoute(t.db);
    const [foreignPad] = await buildPads(t.db, otherRoute.id, 1);
    const [usedPad] = await buildPads(t.db, s.route.id, 1, { pad_status_id: PAD_STATUS.USED });
    const [issuedPad] = await buildPads(t.db, s.route.id, 1, { issuance_status_id: ISSUANCE_STATUS.ISSUED });
    const inactive = await createUser(t.db, { role_id: ROLE.DRIVER, user_status_id: USER_STATUS.INACTIVE });
    const roleless = await createUser(t.db, { role_id: null });
    const req = await request(s.requester.headers, s.route.id, 2);
    const ids = s.routePads.map((p) => p.id);
    const cases: Array<[object, string, string]> = [
      [
        issueBody(req.id, ids.slice(0, 1), s.courier.id, { expected_return: 0 }),
        'expected_return',
        'Expected Return (Days) must be at least 1',
      ],
      [issueBody(req.id, ids.slice(0, 1), s.courier.id, { expected_return: '' }), 'expected_return', 'Expected Return (Days) is required'],
      [
        issueBody(req.id, ids.slice(0, 1), s.courier.id, { expected_return: '1.5' }),
        'expected_return',
        'Invalid Expected Return (Days) format',
      ],
      [issueBody(req.id, [], s.courier.id), 'pads', INVOICE_MSG.selectPads],
      [issueBody(req.id, ids.slice(0, 3), s.courier.id), 'pads', INVOICE_MSG.tooManyPads(2)],
      [issueBody(req.id, [ids[0], foreignPad.id], s.courier.id), 'pads', INVOICE_MSG.padsNotAvailable],
      [issueBody(req.id, [usedPad.id], s.courier.id), 'pads', INVOICE_MSG.padsNotAvailable],
      [issueBody(req.id, [issuedPad.id], s.courier.id), 'pads', INVOICE_MSG.padsNotAvailable],
      [issueBody(req.id, [2_000_000_000], s.courier.id), 'pads', INVOICE_MSG.padsNotAvailable],
      [issueBody(req.id, ids.slice(0, 1), ''), 'assigned_user_id', 'Assign to is required'],
      [issueBody(req.id, ids.slice(0, 1), inactive.id), 'assigned_user_id', INVOICE_MSG.assigneeInvalid],
      [issueBody(req.id, ids.slice(0, 1), roleless.id), 'assigned_user_id', INVOICE_MSG.assigneeInvalid],
      [issueBody(req.id, ids.slice(0, 1), s.courier.id, { user_id: s.custodian.user.id }), 'user_id', INVOICE_MSG.requesterMismatch],
      [issueBody(req.id, ids.slice(0, 1), s.courier.id, { route_id: otherRoute.id }), 'route_id', INVOICE_MSG.routeMismatch],
      [issueBody(0, ids.slice(0, 1), s.courier.id), 'invoice_id', 'Invoice is required'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post('/api/issue-invoice', s.custodian.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(payload)).toEqual([message]);
    }
    expect((await storedInvoice(req.id)).invoice_status_id).toBe(INVOICE_STATUS.PENDING);
    expect(
      (await storedPads(ids)).every((p) => p.locked_by_invoice_id === null && p.issuance_status_id === ISSUANCE_STATUS.NOT_ISSUED),
    ).toBe(true);

    const ok = await post('/api/issue-invoice', s.custodian.headers, issueBody(req.id, ids.slice(0, 1), s.courier.id));
    expect(ok.statusCode).toBe(201);
    const twice = await post('/api/issue-invoice', s.custodian.headers, issueBody(req.id, ids.slice(1, 2), s.courier.id));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(INVOICE_MSG.alreadyIssued);
    const notRequest = await post('/api/issue-invoice', s.custodian.headers, issueBody(ok.json().data.id, ids.slice(1, 2), s.courier.id));
    expect(notRequest.statusCode).toBe(422);
    expect(notRequest.json().errors.invoice_id).toEqual([INVOICE_MSG.notARequest]);
    const missing = await post('/api/issue-invoice', s.custodian.headers, issueBody(2_147_483_647, ids.slice(1, 2), s.courier.id));
    expect(missing.statusCode).toBe(404);
  });

  it('when ids or queries are out of range, then the answer is a 4xx, never a 500', async () => {
    const { headers } = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: headOffice.id });
    for (const url of [
      '/api/get-invoice/abc',
      '/api/get-invoice/0',
      '/api/get-invoice/99999999999',
      '/api/invoice-pads/-1',
      '/api/get-invoices?page=0',
      '/api/get-invoices?invoice_type=x',
      '/api/get-invoices?start_date=2026-13-45',
      '/api/get-invoices?start_date=yesterday',
      '/api/get-invoices?per_page=1000',
    ]) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/issue-invoice',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('invoices: parallel requests', () => {
  it('when 20 identical issues of one request race, then exactly one succeeds and 19 are refused', async () => {
    const s = await scene(3);
    const req = await request(s.requester.headers, s.route.id, 2);
    const body = issueBody(
      req.id,
      s.routePads.slice(0, 2).map((p) => p.id),
      s.courier.id,
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => post('/api/issue-invoice', s.custodian.headers, body)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c >= 400 && c < 500)).toHaveLength(19);
    for (const r of results.filter((x) => x.statusCode !== 201)) expect(r.json().message).toEqual(expect.any(String));
    const issuedRows = await t.db.select().from(invoices).where(eq(invoices.request_invoice_id, req.id));
    expect(issuedRows).toHaveLength(1);
    const locked = await storedPads(s.routePads.map((p) => p.id));
    expect(locked.map((p) => p.locked_by_invoice_id)).toEqual([issuedRows[0].id, issuedRows[0].id, null]);
    expect(await t.db.select().from(invoicePads).where(eq(invoicePads.invoice_id, issuedRows[0].id))).toHaveLength(2);
    expect(await storedActivities(req.id)).toHaveLength(2);
  });

  it('when 20 different requests race for the same pads, then exactly one gets them', async () => {
    const s = await scene(2);
    const requests = [];
    for (let i = 0; i < 20; i += 1) requests.push(await request(s.requester.headers, s.route.id, 2));
    const padIds = s.routePads.map((p) => p.id);
    const results = await Promise.all(
      requests.map((r) => post('/api/issue-invoice', s.custodian.headers, issueBody(r.id, padIds, s.courier.id))),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409 || c === 422)).toHaveLength(19);
    const stillPending = await t.db
      .select()
      .from(invoices)
      .where(
        inArray(
          invoices.id,
          requests.map((r) => r.id),
        ),
      );
    expect(stillPending.filter((r) => r.invoice_status_id === INVOICE_STATUS.PENDING)).toHaveLength(19);
    expect(
      await t.db
        .select()
        .from(activities)
        .where(
          inArray(
            activities.invoice_id,
            requests.map((r) => r.id),
          ),
        ),
    ).toHaveLength(21);
  });

  it('when 20 accepts of one invoice race, then exactly one succeeds and one Completed activity is written', async () => {
    const s = await scene(2);
    const { invoiceId } = await issued(s, 2);
    const results = await Promise.all(Array.from({ length: 20 }, () => post(`/api/accept-invoice/${invoiceId}`, s.requester.headers)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const history = await storedActivities(invoiceId);
    expect(history.filter((a) => a.invoice_status_id === INVOICE_STATUS.COMPLETED)).toHaveLength(1);
  });
});

describe('invoices: list', () => {
  it('when the list is filtered by type, status, dates, search and issuance status, then only matching invoices come back', async () => {
    const location = await createLocation(t.db, { name: 'Calapan Pier' });
    const branch = await createBranch(t.db, { name: 'Calapan Travel Desk', location_id: location.id });
    const requester = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: branch.id });
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
    const courier = await createUser(t.db, { role_id: ROLE.MESSENGER });
    const route = await createRoute(t.db);
    const routePads = await buildPads(t.db, route.id, 3);
    const pending = await request(requester.headers, route.id, 1);
    const toIssue = await request(requester.headers, route.id, 1);
    const issue = await post('/api/issue-invoice', custodian.headers, issueBody(toIssue.id, [routePads[2].id], courier.id));
    const issuedId = issue.json().data.id as number;
    await t.db
      .update(invoices)
      .set({ created_at: new Date('2026-01-10T02:00:00Z') })
      .where(eq(invoices.id, pending.id));
    await t.db
      .update(invoices)
      .set({ created_at: new Date('2026-02-20T16:30:00Z') })
      .where(eq(invoices.id, toIssue.id));

    const ids = async (query: string, headers = requester.headers) => {
      const res = await get(`/api/get-invoices?per_page=100&${query}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Array<{ id: number }>).map((i) => i.id);
    };
    expect(await ids('')).toEqual([issuedId, toIssue.id, pending.id]);
    expect(await ids(`invoice_type=${INVOICE_TYPE.REQUEST}`)).toEqual([toIssue.id, pending.id]);
    expect(await ids(`invoice_type=${INVOICE_TYPE.ISSUED}`)).toEqual([issuedId]);
    expect(await ids(`invoice_status=${INVOICE_STATUS.PENDING}`)).toEqual([pending.id]);
    expect(await ids(`invoice_status=${INVOICE_STATUS.IN_TRANSIT}&invoice_type=`)).toEqual([issuedId]);
    expect(await ids('start_date=2026-01-10&end_date=2026-01-10')).toEqual([pending.id]);
    expect(await ids('start_date=2026-02-20&end_date=2026-02-20')).toEqual([]);
    expect(await ids('start_date=2026-02-21&end_date=2026-02-21')).toEqual([toIssue.id]);
    expect(await ids('start_date=2026-02-21')).toEqual([issuedId, toIssue.id]);
    expect(await ids('end_date=2026-02-20')).toEqual([pending.id]);
    expect(await ids('start_date=2026-01-01&end_date=2026-03-01')).toEqual([toIssue.id, pending.id]);
    expect(await ids('search=calapan travel')).toEqual([issuedId, toIssue.id, pending.id]);
    expect(await ids(`search=${routePads[2].number}&invoice_type=${INVOICE_TYPE.ISSUED}`)).toEqual([issuedId]);
    expect(await ids(`search=${routePads[2].series_from + 1}`)).toEqual([issuedId]);
    expect(await ids(`issuance_status=${ISSUANCE_STATUS.ISSUED}`)).toEqual([issuedId]);
    expect(await ids('search=no such branch')).toEqual([]);

    const rangeError = await get('/api/get-invoices?start_date=2026-03-01&end_date=2026-02-01', requester.headers);
    expect(rangeError.statusCode).toBe(422);
    expect(rangeError.json().errors.end_date).toEqual([INVOICE_MSG.endBeforeStart]);

    const page = await get('/api/get-invoices?per_page=2&page=2', requester.headers);
    expect(page.json()).toMatchObject({ current_page: 2, last_page: 2, per_page: 2, total: 3 });
    expect(page.json().data.map((i: { id: number }) => i.id)).toEqual([pending.id]);
    const row = (await get('/api/get-invoices', requester.headers)).json().data[0];
    expect(row).toMatchObject({
      id: issuedId,
      invoice_type: { name: 'Issued' },
      invoice_status: { name: 'In-Transit' },
      pads: 1,
      from_branch: { name: 'Head Office' },
      branch: { name: 'Calapan Travel Desk' },
      assigned_to: expect.any(String),
      route: { name: route.name, tin: route.tin, company: { name: expect.any(String) } },
      expected_return_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });
});

describe('invoices: badge lookups', () => {
  it('when a badge is scanned, then only the current badge of an active user resolves', async () => {
    const s = await scene(1);
    const { headers } = s.custodian;
    const code = badgeOf(s.courier);
    const ok = await get(`/api/get-assigned-user/${code}`, headers);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ id: s.courier.id, full_name: 'Dan M Diaz' });

    const bare = await get(`/api/get-assigned-user/${s.courier.id}`, headers);
    expect(bare.statusCode).toBe(422);
    expect(bare.json().message).toBe(MSG.qrInvalidBadge);
    const forged = await get(`/api/get-assigned-user/${altered(code)}`, headers);
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toBe(MSG.badgeNotRecognised);
    const text = await get('/api/get-assigned-user/abc123', headers);
    expect(text.json().message).toBe(MSG.qrNotNumber);
    const blank = await get('/api/get-assigned-user/%20', headers);
    expect(blank.json().message).toBe(MSG.emptyQr);
    const unknownUser = await get(`/api/get-assigned-user/${encodeBadge(t.ctx.badgeSecret, 2_000_000, 1)}`, headers);
    expect(unknownUser.statusCode).toBe(422);
    expect(unknownUser.json().message).toBe(MSG.badgeNotRecognised);

    const rotated = await createUser(t.db, { badge_version: 2 });
    const old = await get(`/api/get-assigned-user/${encodeBadge(t.ctx.badgeSecret, rotated.id, 1)}`, headers);
    expect(old.json().message).toBe(MSG.badgeNotRecognised);
    const inactive = await createUser(t.db, { user_status_id: USER_STATUS.INACTIVE });
    const inactiveRes = await get(`/api/get-assigned-user/${badgeOf(inactive)}`, headers);
    expect(inactiveRes.statusCode).toBe(422);
    expect(inactiveRes.json().message).toBe(INVOICE_MSG.userInactive);
    expect((await t.app.inject({ method: 'GET', url: `/api/get-assigned-user/${code}` })).statusCode).toBe(401);
  });

  it('when the person handing over is checked against the invoice, then only the assigned courier\u2019s badge passes', async () => {
    const s = await scene(1);
    const { invoiceId } = await issued(s, 1);
    const url = (code: string) => `/api/get-invoice-assigned-user-id?invoice_id=${invoiceId}&decoded_user_id=${encodeURIComponent(code)}`;
    const ok = await get(url(badgeOf(s.courier)), s.requester.headers);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      status: true,
      assigned_user_id: s.courier.id,
      message: INVOICE_MSG.courierConfirmed,
      data: { full_name: 'Dan M Diaz' },
    });

    const someoneElse = await get(url(badgeOf(s.custodian.user)), s.requester.headers);
    expect(someoneElse.statusCode).toBe(422);
    expect(someoneElse.json()).toEqual({ status: false, assigned_user_id: s.courier.id, message: INVOICE_MSG.courierMismatch });

    const forged = await get(url(altered(badgeOf(s.courier))), s.requester.headers);
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toBe(MSG.badgeNotRecognised);
    const bare = await get(url(String(s.courier.id)), s.requester.headers);
    expect(bare.json().message).toBe(MSG.qrInvalidBadge);
    const empty = await get(`/api/get-invoice-assigned-user-id?invoice_id=${invoiceId}&decoded_user_id=`, s.requester.headers);
    expect(empty.json().message).toBe(MSG.emptyQr);
    const outsider = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: (await createBranch(t.db)).id });
    expect((await get(url(badgeOf(s.courier)), outsider.headers)).statusCode).toBe(404);
  });
});
