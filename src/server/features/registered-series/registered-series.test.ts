import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import { SERIES_MSG } from '../../../shared/schemas/registered-series.ts';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, createUser, signedIn } from '../../test/factories.ts';
import { postImport } from '../../test/imports.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** The opening balances are recorded in the month before the real one, so that month has ended. */
const now = new Date();
const RECORDED = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10, 2));
const MONTH = RECORDED.toISOString().slice(0, 7);
const LAST_DAY = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);

type Who = { headers: { authorization: string } };
let t: TestApp;
let accounting: Who;
let auditor: Who;
let custodian: Who;
let ticketing: Who;
let route: { id: number; tin: string };
let batangas: { id: number; name: string };
let calapan: { id: number; name: string };
let cashierA: { id: number };
let cashierC: { id: number };

const series = (over: Record<string, unknown> = {}) => ({
  route_id: route.id,
  branch_id: batangas.id,
  form_type: 'invoice',
  atp_number: 'OCN-2024-0001',
  atp_date: '2024-05-02',
  printer: 'Batangas Printing Press',
  delivery_date: '2024-05-20',
  series_from: 1,
  series_to: 5000,
  remarks: null,
  ...over,
});
const call = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING });
  auditor = await signedIn(t, { role_id: ROLE.AUDITOR });
  custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN });
  route = await createRoute(t.db, { name: 'Batangas - Calapan', tin: '000-111-222' });
  batangas = await createBranch(t.db, { name: 'Batangas Port' });
  calapan = await createBranch(t.db, { name: 'Calapan Terminal' });
  ticketing = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: batangas.id });
  cashierA = await createUser(t.db, { email: 'a@padtrack.test', role_id: ROLE.TICKETING_OFFICER, branch_id: batangas.id });
  cashierC = await createUser(t.db, { email: 'c@padtrack.test', role_id: ROLE.TICKETING_OFFICER, branch_id: calapan.id });
  const first = await call(accounting, 'POST', '/api/registered-series', series());
  expect(first.statusCode, first.body).toBe(201);
  expect(first.json().data).toMatchObject({ atp_number: 'OCN-2024-0001', series_number: '1-5000', branch: { id: batangas.id }, pads: 0 });
  const second = await call(
    accounting,
    'POST',
    '/api/registered-series',
    series({ branch_id: calapan.id, atp_number: 'OCN-2024-0002', series_from: 5001, series_to: 9000, form_type: 'converted_receipt' }),
  );
  expect(second.statusCode, second.body).toBe(201);
  t.ctx.ledgerClock = () => RECORDED;
  const file = [
    'route,series_from,series_to,pad_number,holder,used,cancelled,remarks',
    '000-111-222,1001,1050,11,a@padtrack.test,1001-1020,1021,',
    '000-111-222,1051,1100,12,Batangas Port,,,',
    '000-111-222,6001,6050,13,c@padtrack.test,6001-6005,,',
    '000-111-222,6051,6100,14,Calapan Terminal,,6051-6060,',
  ].join('\n');
  const opening = await postImport(t, custodian.headers, { kind: 'pads', dryRun: false, name: 'opening.csv', content: file });
  expect(opening.statusCode, opening.body).toBe(200);
  t.ctx.ledgerClock = undefined;
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
});

describe('registered series (docs/design.md §10)', () => {
  it('when Accounting has registered two series, then they are listed with their imported pads; an overlap on the route is refused by the database; the Auditor may not', async () => {
    const clash = await call(accounting, 'POST', '/api/registered-series', series({ atp_number: 'X', series_from: 4990, series_to: 5010 }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(SERIES_MSG.overlap('OCN-2024-0001', '1-5000'));
    const list = await call(accounting, 'GET', '/api/registered-series?search=0002');
    expect(list.json().data.map((row: { atp_number: string; pads: number }) => [row.atp_number, row.pads])).toEqual([['OCN-2024-0002', 2]]);
    expect((await call(auditor, 'POST', '/api/registered-series', series({ series_from: 20000, series_to: 20010 }))).statusCode).toBe(403);
    const bad = await call(
      accounting,
      'POST',
      '/api/registered-series',
      series({ series_from: 30, series_to: 10, atp_date: '2024-13-01' }),
    );
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['atp_date', 'series_to']));
  });

  it('when pads are generated inside a series, then get-pad and find-receipt carry it; outside every series warns, or is refused when required', async () => {
    const made = await call(custodian, 'POST', '/api/add-pad', { route_id: route.id, series_from: 101, series_to: 200 });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.warning).toBeNull();
    const [pad] = await t.db.select().from(pads).where(eq(pads.series_from, 101));
    const got = await call(custodian, 'GET', `/api/get-pad/${pad.id}`);
    expect(got.json().data.registered_series).toMatchObject({ atp_number: 'OCN-2024-0001', atp_date: '2024-05-02', form_type: 'invoice' });
    const found = await call(custodian, 'GET', `/api/find-receipt?number=150`);
    expect(found.json().data[0].registered_series).toMatchObject({ atp_number: 'OCN-2024-0001', form_type: 'invoice' });
    const outside = await call(custodian, 'POST', '/api/add-pad', { route_id: route.id, series_from: 9001, series_to: 9050 });
    expect(outside.statusCode).toBe(201);
    expect(outside.json().data.warning).toBe(SERIES_MSG.outsideRegistry(9001, 9050));
    t.ctx.config.requireRegisteredSeries = true;
    try {
      const refused = await call(custodian, 'POST', '/api/add-pad', { route_id: route.id, series_from: 9051, series_to: 9100 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(SERIES_MSG.refusedOutsideRegistry(9051, 9100));
      expect(await t.db.select().from(pads).where(eq(pads.series_from, 9051))).toEqual([]);
    } finally {
      t.ctx.config.requireRegisteredSeries = false;
    }
    const widened = await call(
      accounting,
      'PUT',
      `/api/registered-series/${(await call(accounting, 'GET', '/api/registered-series?search=0002')).json().data[0].id}`,
      series({ branch_id: calapan.id, atp_number: 'OCN-2024-0002', series_from: 5001, series_to: 9050 }),
    );
    expect(widened.statusCode, widened.body).toBe(200);
    expect(widened.json().data.pads).toBe(3);
  });
});

describe('inventory of unused forms (docs/design.md §10)', () => {
  it("when pads were imported last month, then the inventory as of the month's last day equals that month's RAAF Endings per establishment", async () => {
    const inventory = await call(auditor, 'GET', `/api/unused-forms?date=${LAST_DAY}`);
    expect(inventory.statusCode, inventory.body).toBe(200);
    const data = inventory.json().data;
    const byBranch = Object.fromEntries(data.establishments.map((e: { branch: { name: string }; qty: number }) => [e.branch.name, e.qty]));
    expect(byBranch).toEqual({ 'Batangas Port': 29 + 50, 'Calapan Terminal': 45 + 40 });
    const summary = await call(auditor, 'GET', `/api/raaf-summary?month=${MONTH}`);
    expect(summary.statusCode, summary.body).toBe(200);
    const endings: Record<string, number> = {};
    for (const row of summary.json().data.holders as Array<{ holder: { branch: { name: string } }; totals: { ending: number } }>)
      endings[row.holder.branch.name] = (endings[row.holder.branch.name] ?? 0) + row.totals.ending;
    expect(byBranch).toEqual(endings);
    const batangasSeries = data.establishments.find((e: { branch: { id: number } }) => e.branch.id === batangas.id).series[0];
    expect(batangasSeries).toMatchObject({ registered_series: { atp_number: 'OCN-2024-0001' }, qty: 79, ranges: [[1022, 1100]] });
    expect(batangasSeries.holders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          holder: expect.objectContaining({ id: cashierA.id }),
          qty: 29,
          ranges: [[1022, 1050]],
          outside_establishment: false,
        }),
      ]),
    );
    await expectLedgerVerified(t.db);
  });

  it('when a range is held outside its establishment, then it is flagged; the PDF and CSV say the same; role 7 is refused; a future date is refused', async () => {
    const file = [
      'route,series_from,series_to,pad_number,holder,used,cancelled,remarks',
      '000-111-222,2001,2050,21,c@padtrack.test,,,',
    ].join('\n');
    expect((await postImport(t, custodian.headers, { kind: 'pads', dryRun: false, name: 'more.csv', content: file })).statusCode).toBe(200);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(new Date());
    const data = (await call(accounting, 'GET', `/api/unused-forms?date=${today}&branch_id=${batangas.id}`)).json().data;
    expect(data.establishments.map((e: { branch: { id: number } }) => e.branch.id)).toEqual([batangas.id]);
    const holders = data.establishments[0].series[0].holders;
    expect(holders.find((h: { holder: { id: number } }) => h.holder.id === cashierC.id)).toMatchObject({
      qty: 50,
      outside_establishment: true,
    });
    const pdf = await call(accounting, 'GET', `/api/unused-forms?date=${today}&format=pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(pdf.rawPayload);
    expect(text).toContain('INVENTORY OF UNUSED ACCOUNTABLE FORMS');
    expect(text).toContain('ATP OCN-2024-0001');
    expect(text).toContain('[held outside its establishment]');
    const csv = await call(accounting, 'GET', `/api/unused-forms?date=${today}&format=csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Batangas Port,Company');
    expect(csv.body).toMatch(/2001-2050,yes/);
    expect((await call(ticketing, 'GET', `/api/unused-forms?date=${today}`)).statusCode).toBe(403);
    expect((await call(accounting, 'GET', '/api/unused-forms?date=2999-01-01')).statusCode).toBe(422);
  });
});
