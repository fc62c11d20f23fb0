import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIssuedInvoice, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t, { role_id: 1 })).headers;
});
afterAll(async () => {
  await t.close();
});

const search = async (text: string, headers = admin) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/get-invoices?search=${encodeURIComponent(text)}&per_page=100`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Array<{ id: number }> }).data.map((row) => row.id);
};

describe('Transactions: finding an invoice by number (docs/design.md §10)', () => {
  it('when "#N" is searched, then invoice N alone is found; "N" finds it too, among pads and branches matching N', async () => {
    const invoices = [];
    for (let i = 0; i < 3; i += 1) invoices.push((await buildIssuedInvoice(t.db, { padCount: 1 })).invoice);
    const wanted = invoices[1];
    expect(await search(`#${wanted.id}`)).toEqual([wanted.id]);
    expect(await search(String(wanted.id))).toContain(wanted.id);
    expect(await search(`#${wanted.id + 1000}`)).toEqual([]);
    const rows = await t.app.inject({ method: 'GET', url: `/api/get-invoices?search=%23${wanted.id}`, headers: admin });
    expect(rows.json().data[0]).toMatchObject({ id: wanted.id, invoice_type: { name: 'Issued' } });
  });

  it("when a requester searches another branch's invoice by number, then it is not found", async () => {
    const { invoice } = await buildIssuedInvoice(t.db, { padCount: 1 });
    const stranger = await signedIn(t, { role_id: 7 });
    expect(await search(`#${invoice.id}`, stranger.headers)).toEqual([]);
  });
});
