import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedReturnText } from '../../../shared/format.ts';
import { ROLE } from '../../../shared/lookups.ts';
import { MIXED_ROUTES, type InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { buildPads, createBranch, createRoute, createUser, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ APP_TIMEZONE: 'Pacific/Kiritimati' });
  t.ctx.config.headOfficeBranchId = (await createBranch(t.db, { name: 'Head Office' })).id;
});
afterAll(async () => {
  await t.close();
});

type Headers = { authorization: string };
const get = async (url: string, headers: Headers) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
const post = async (url: string, headers: Headers, payload: object) => {
  const res = await t.app.inject({ method: 'POST', url, headers, payload });
  expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
  return res.json().data as InvoiceRow;
};
const rowIn = async (url: string, headers: Headers, id: number): Promise<InvoiceRow> => {
  const page = await get(url, headers);
  const row = (page.data as InvoiceRow[]).find((r) => r.id === id);
  if (!row) throw new Error(`invoice ${id} is not in ${url}`);
  return row;
};
const columns = (row: InvoiceRow) => ({
  by: row.by,
  to: row.to,
  route_label: row.route_label,
  expected_return_text: row.expected_return_text,
});

describe('one invoice read model', () => {
  it('when one Issued invoice is read in Transactions, Custodies and Reports, then By, To, Route and Expected Return read the same in APP_TIMEZONE', async () => {
    const agency = await createBranch(t.db, { name: 'Calapan Agency' });
    const requester = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: agency.id });
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: t.ctx.config.headOfficeBranchId });
    const accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING });
    const courier = await createUser(t.db, { role_id: ROLE.DRIVER });
    const route = await createRoute(t.db, { name: 'Batangas - Calapan', tin: 'TIN-777' });
    const [pad] = await buildPads(t.db, route.id, 1);
    const request = await post('/api/create-request-invoice', requester.headers, { route_id: route.id, pads: 1 });
    const issued = await post('/api/issue-invoice', custodian.headers, {
      invoice_id: request.id,
      pads: [pad.id],
      assigned_user_id: courier.id,
      expected_return: 3,
    });

    const expected = {
      by: 'Head Office',
      to: 'Calapan Agency',
      route_label: expect.stringMatching(/ - Batangas - Calapan - TIN-777$/),
      expected_return_text: expectedReturnText(issued.expected_return_date, new Date(), 'Pacific/Kiritimati'),
    };
    expect(expected.expected_return_text).toBe('3 days');
    expect(columns(issued)).toEqual(expected);
    expect(columns(await rowIn('/api/get-invoices', requester.headers, issued.id))).toEqual(expected);
    expect(columns(await rowIn('/api/get-in-transit-invoices', requester.headers, issued.id))).toEqual(expected);
    expect(columns((await get(`/api/get-invoice/${issued.id}`, requester.headers)).data)).toEqual(expected);

    await post(`/api/accept-invoice/${issued.id}`, requester.headers, {});
    expect(columns(await rowIn('/api/get-invoices', requester.headers, issued.id))).toEqual(expected);
    expect(columns(await rowIn(`/api/get-completed-issued-invoice?search=${issued.id}`, accounting.headers, issued.id))).toEqual(expected);
    const completed = await get(`/api/completed-invoices?search=${issued.id}`, accounting.headers);
    expect(completed.time_zone).toBe('Pacific/Kiritimati');
  });

  it('when a transfer carries pads of two routes, then every screen calls its route "Mixed routes"', async () => {
    const branch = await createBranch(t.db);
    const holder = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branch.id });
    const courier = await createUser(t.db, { role_id: ROLE.MESSENGER });
    const pads = [
      ...(await buildPads(t.db, (await createRoute(t.db)).id, 1, { holder_user_id: holder.user.id, holder_branch_id: branch.id })),
      ...(await buildPads(t.db, (await createRoute(t.db)).id, 1, { holder_user_id: holder.user.id, holder_branch_id: branch.id })),
    ];
    const transfer = await post('/api/create-return-invoice', holder.headers, {
      pads: pads.map((p) => p.id),
      assigned_user_id: courier.id,
    });
    const expected = { by: branch.name, to: 'Head Office', route_label: MIXED_ROUTES, expected_return_text: '-' };
    expect(columns(transfer)).toEqual(expected);
    expect(columns(await rowIn('/api/get-invoices', holder.headers, transfer.id))).toEqual(expected);
    expect(columns(await rowIn('/api/get-in-transit-invoices', holder.headers, transfer.id))).toEqual(expected);
  });
});
