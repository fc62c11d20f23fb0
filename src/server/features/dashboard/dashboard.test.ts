import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_STATUS, INVOICE_TYPE, PAD_STATUS } from '../../../shared/lookups.ts';
import type { Dashboard } from '../../../shared/schemas/dashboard.ts';
import {
  buildInvoice,
  buildIssuedInvoice,
  buildPads,
  createBranch,
  createCompany,
  createRoute,
  createUser,
  signedIn,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let headOffice: Awaited<ReturnType<typeof createBranch>>;

beforeAll(async () => {
  t = await createTestApp();
  headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
});
afterAll(async () => {
  await t.close();
});

async function dashboardAs(headers: Record<string, string>): Promise<Dashboard> {
  const res = await t.app.inject({ method: 'GET', url: '/api/dashboard', headers });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe('GET /api/dashboard', () => {
  it('when roles other than 1, 2, 8 and 9 or nobody ask, then it is refused', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
    for (const role_id of [3, 4, 5, 6, 7, 10, 11, null]) {
      const { headers } = await signedIn(t, { role_id });
      expect((await t.app.inject({ method: 'GET', url: '/api/dashboard', headers })).statusCode, `role ${role_id}`).toBe(403);
    }
    for (const role_id of [1, 2, 8, 9]) {
      const { headers } = await signedIn(t, { role_id });
      expect((await t.app.inject({ method: 'GET', url: '/api/dashboard', headers })).statusCode, `role ${role_id}`).toBe(200);
    }
  });

  it('when pads, stock and invoices exist, then it counts pads by status and branch, head-office stock per route, invoices in transit, and overdue issues', async () => {
    const { headers } = await signedIn(t, { role_id: 9 });
    const company = await createCompany(t.db, { name: 'Starlite Ferries' });
    const route = await createRoute(t.db, { company_id: company.id, name: 'Batangas - Calapan', tin: '123-456' });
    const stock = await buildPads(t.db, route.id, 3, { size: 10, holder_branch_id: headOffice.id });
    await buildPads(t.db, route.id, 1, {
      size: 10,
      holder_branch_id: headOffice.id,
      pad_status_id: PAD_STATUS.PARTIALLY_USED,
      series_status: '2222211111',
    });
    await buildPads(t.db, route.id, 1, { size: 10, holder_branch_id: headOffice.id, pad_status_id: PAD_STATUS.LOST });
    const agency = await createBranch(t.db, { name: 'Calapan Agency' });
    const late = await buildIssuedInvoice(t.db, { toBranch: agency, expectedReturnDate: '2020-03-01', padCount: 2 });
    await buildIssuedInvoice(t.db, { toBranch: agency, expectedReturnDate: '2999-03-01', padCount: 1 });
    const holder = await createUser(t.db, { role_id: 5, branch_id: agency.id });
    await buildInvoice(t.db, {
      user_id: holder.id,
      type: INVOICE_TYPE.RETURN,
      status: INVOICE_STATUS.IN_TRANSIT,
      branch_id: headOffice.id,
    });
    await buildIssuedInvoice(t.db, { toBranch: agency, status: INVOICE_STATUS.IN_TRANSIT, padCount: 1 });

    const answer = await dashboardAs(headers);
    expect(answer.pads_total).toBe(5 + 2 + 1 + 1);
    expect(answer.pads_by_status).toEqual([
      { id: PAD_STATUS.USED, name: 'Used', count: 0 },
      { id: PAD_STATUS.PARTIALLY_USED, name: 'Partially Used', count: 1 },
      { id: PAD_STATUS.UNUSED, name: 'Unused', count: 7 },
      { id: PAD_STATUS.CANCELLED, name: 'Cancelled', count: 0 },
      { id: PAD_STATUS.LOST, name: 'Lost', count: 1 },
    ]);
    expect(answer.pads_by_branch).toContainEqual({ id: headOffice.id, name: 'Head Office', count: 5 });
    expect(answer.pads_by_branch).toContainEqual({ id: agency.id, name: 'Calapan Agency', count: 4 });
    expect(answer.stock_by_route).toEqual([
      {
        id: route.id,
        name: 'Starlite Ferries - Batangas - Calapan - 123-456',
        route_name: 'Batangas - Calapan',
        pads: 4,
        numbers: stock.length * 10 + 5,
      },
    ]);
    expect(answer.in_transit).toEqual([
      { id: INVOICE_TYPE.ISSUED, name: 'Issued', count: 1 },
      { id: INVOICE_TYPE.RETURN, name: 'Return', count: 1 },
      { id: INVOICE_TYPE.TURNOVER, name: 'Turnover', count: 0 },
    ]);
    expect(answer.overdue).toEqual({
      count: 1,
      items: [{ id: late.invoice.id, label: expect.stringContaining('due 01 Mar 2020'), path: `/invoices?invoice=${late.invoice.id}` }],
    });
    expect(answer.overdue.items[0].label).toContain('Calapan Agency');
    expect(answer.overdue.items[0].label).toMatch(new RegExp(`^Issued #${late.invoice.id} with \\d+ pads?`));
  });
});
