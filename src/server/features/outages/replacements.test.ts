import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import { REPLACEMENT_MSG, type Replacements } from '../../../shared/schemas/paper-use-summary.ts';
import { replacementEinvoices } from '../../db/schema/paper-use.ts';
import { buildPad, createBranch, createRoute, signedIn, type PadRow } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let covered: number;
let other: number;
const people: Record<'accounting' | 'auditor' | 'head' | 'supervisor' | 'holder' | 'otherHead', Who> = {} as never;
let calapanRoute: { id: number; name: string };
let galeraRoute: { id: number; name: string };
let calapanPad: PadRow;
let galeraPad: PadRow;
let outageId: number;
let emptyOutageId: number;

const { call, ok, at } = apiCalls(() => t);

async function person(role: number, branchId: number): Promise<Who> {
  const session = await signedIn(t, { role_id: role, branch_id: branchId });
  return { id: session.user.id, headers: session.headers };
}

/** A contingency series of the route at the covered establishment, through the registry and its role change. */
async function contingencySeries(routeId: number, atp: string) {
  const series = await ok(
    call(people.accounting, 'POST', '/api/registered-series', {
      route_id: routeId,
      branch_id: covered,
      form_type: 'invoice',
      atp_number: atp,
      atp_date: '2026-01-05',
      printer: 'Mindoro Press',
      delivery_date: null,
      series_from: 7001,
      series_to: 7100,
      remarks: null,
    }),
    201,
  );
  await ok(
    call(people.accounting, 'PUT', `/api/registered-series/${series.data.id}/role`, { role: 'contingency', reason: 'Kept for outages' }),
  );
}

/** POST outages/{id}/replacements/import as the screen sends it: multipart with the one file. */
function postFile(who: Who, id: number, content: string, name = 'replacements.csv') {
  const boundary = `----padtrack${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/outages/${id}/replacements/import`,
    headers: { ...who.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

const stored = () =>
  t.db.select().from(replacementEinvoices).orderBy(asc(replacementEinvoices.pad_id), asc(replacementEinvoices.paper_number));
const listOf = async (who: Who, id = outageId): Promise<Replacements> =>
  (await ok(call(who, 'GET', `/api/outages/${id}/replacements`))).data;

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  covered = (await createBranch(t.db, { name: 'Calapan Port' })).id;
  other = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  people.accounting = await person(ROLE.ACCOUNTING, headOffice.id);
  people.auditor = await person(ROLE.AUDITOR, headOffice.id);
  people.head = await person(ROLE.BRANCH_HEAD, covered);
  people.supervisor = await person(ROLE.SUPERVISOR, covered);
  people.holder = await person(ROLE.TICKETING_OFFICER, covered);
  people.otherHead = await person(ROLE.BRANCH_HEAD, other);
  await ok(
    call(people.accounting, 'PUT', `/api/branches/${covered}/e-invoicing`, {
      bir_branch_code: '00012',
      covered: true,
      e_invoicing_since: '2026-10-01',
      permit_reference: 'PTU-2026-0001',
      invoicing_system: 'EIS Cloud',
    }),
  );
  calapanRoute = await createRoute(t.db, { name: 'Calapan - Batangas', tin: '000-111-222' });
  galeraRoute = await createRoute(t.db, { name: 'Calapan - Puerto Galera', tin: '000-111-333' });
  const held = { size: 50, series_from: 7001, series_to: 7050, heldBy: { userId: people.holder.id, branchId: covered } };
  calapanPad = await buildPad(t.db, { ...held, route_id: calapanRoute.id });
  galeraPad = await buildPad(t.db, { ...held, route_id: galeraRoute.id });
  await contingencySeries(calapanRoute.id, 'OCN-2026-0001');
  await contingencySeries(galeraRoute.id, 'OCN-2026-0002');
  const outage = await ok(
    call(people.accounting, 'POST', '/api/outages', {
      branch_id: covered,
      starts_at: '2026-10-05T08:00:00+08:00',
      ends_at: '2026-10-05T14:00:00+08:00',
      cause: 'network',
      details: 'Fibre cut at the pier',
    }),
    201,
  );
  outageId = outage.data.id;
  const empty = await ok(
    call(people.accounting, 'POST', '/api/outages', {
      branch_id: covered,
      starts_at: '2026-10-06T08:00:00+08:00',
      ends_at: '2026-10-06T09:00:00+08:00',
      cause: 'power',
    }),
    201,
  );
  emptyOutageId = empty.data.id;
  at('2026-10-05T10:00:00+08:00');
  await ok(call(people.holder, 'POST', `/api/pads/${calapanPad.id}/usage`, { from: 7001, to: 7004 }));
  await ok(call(people.holder, 'POST', `/api/pads/${galeraPad.id}/usage`, { from: 7001, to: 7001 }));
  t.ctx.ledgerClock = undefined;
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
});

describe('replacement e-invoices of an outage (issue 38)', () => {
  it('when paper was used during an outage, then each number is listed pending, the number two routes used once per route', async () => {
    const list = await listOf(people.auditor);
    expect(list.outage).toMatchObject({ id: outageId, branch: { id: covered, name: 'Calapan Port' }, ends_at: '2026-10-05T06:00:00.000Z' });
    expect(list.numbers.map((row) => [row.route.name, row.paper_number, row.status])).toEqual([
      ['Calapan - Batangas', 7001, 'pending'],
      ['Calapan - Batangas', 7002, 'pending'],
      ['Calapan - Batangas', 7003, 'pending'],
      ['Calapan - Batangas', 7004, 'pending'],
      ['Calapan - Puerto Galera', 7001, 'pending'],
    ]);
    expect(list.totals).toEqual({ numbers: 5, entered: 0, pending: 5 });
    expect((await listOf(people.head, emptyOutageId)).numbers).toEqual([]);
  });

  it('when the Supervisor enters replacements, then they are stored; the same again changes nothing; a number two routes used needs the route', async () => {
    const entered = await ok(
      call(people.supervisor, 'POST', `/api/outages/${outageId}/replacements`, {
        items: [
          { paper_number: 7002, einvoice_number: 'EI-0000101', transmitted_on: '2026-10-06' },
          { paper_number: 7001, route_id: galeraRoute.id, einvoice_number: 'EI-0000102', transmitted_on: '2026-10-06' },
        ],
      }),
      201,
    );
    expect(entered.message).toBe(REPLACEMENT_MSG.saved(2));
    expect(entered.data.totals).toEqual({ numbers: 5, entered: 2, pending: 3 });
    expect(
      entered.data.numbers.find((row: { paper_number: number; route: { id: number } }) => row.route.id === galeraRoute.id),
    ).toMatchObject({
      einvoice_number: 'EI-0000102',
      transmitted_on: '2026-10-06',
      entered_by: { id: people.supervisor.id },
      status: 'entered',
    });
    expect(await stored()).toMatchObject([
      { outage_id: outageId, pad_id: calapanPad.id, paper_number: 7002, einvoice_number: 'EI-0000101', entered_by: people.supervisor.id },
      { outage_id: outageId, pad_id: galeraPad.id, paper_number: 7001, einvoice_number: 'EI-0000102' },
    ]);
    const again = await ok(
      call(people.accounting, 'POST', `/api/outages/${outageId}/replacements`, {
        items: [{ paper_number: 7002, einvoice_number: 'EI-0000101', transmitted_on: '2026-10-06' }],
      }),
      201,
    );
    expect(again.message).toBe(REPLACEMENT_MSG.nothingNew);
    const bad = await call(people.accounting, 'POST', `/api/outages/${outageId}/replacements`, {
      items: [
        { paper_number: 7003, einvoice_number: 'EI-0000103', transmitted_on: '2026-10-07' },
        { paper_number: 7001, einvoice_number: 'EI-0000104', transmitted_on: '2026-10-07' },
        { paper_number: 7002, einvoice_number: 'EI-0000999', transmitted_on: '2026-10-07' },
        { paper_number: 7050, einvoice_number: 'EI-0000105', transmitted_on: '2026-10-07' },
        { paper_number: 7004, einvoice_number: 'EI-0000106', transmitted_on: '2026-10-04' },
      ],
    });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json()).toEqual({
      message: REPLACEMENT_MSG.hasErrors(4),
      errors: {
        'items.1': [REPLACEMENT_MSG.ambiguous(7001, 'Calapan - Batangas, Calapan - Puerto Galera')],
        'items.2': [REPLACEMENT_MSG.alreadyMapped(7002, 'EI-0000101')],
        'items.3': [REPLACEMENT_MSG.notUsed(7050)],
        'items.4': [REPLACEMENT_MSG.beforeUse(7004, '2026-10-05')],
      },
    });
    expect(await stored()).toHaveLength(2);
  });

  it('when a CSV has bad lines, then each is named with its line and reason and nothing is stored; a good file fills the rest', async () => {
    const badFile = [
      'paper number,e-invoice number,date transmitted,route',
      '7003,EI-0000201,2026-10-07,',
      'seven,EI-0000202,2026-10-07,',
      '7004,,2026-13-01,',
      '7001,EI-0000203,2026-10-07,',
      '7001,EI-0000203,2026-10-07,Calapan - Bauan',
      '7003,EI-0000299,2026-10-07,',
      '7049,EI-0000204,2026-10-07,',
    ].join('\n');
    const bad = await postFile(people.head, outageId, badFile);
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json()).toEqual({
      message: REPLACEMENT_MSG.hasErrors(6),
      errors: {
        'line 3': [REPLACEMENT_MSG.wholeNumber('paper number')],
        'line 4': [REPLACEMENT_MSG.required('e-invoice number'), REPLACEMENT_MSG.date('date transmitted')],
        'line 5': [REPLACEMENT_MSG.ambiguous(7001, 'Calapan - Batangas, Calapan - Puerto Galera')],
        'line 6': [REPLACEMENT_MSG.notUsedOnRoute(7001)],
        'line 7': [REPLACEMENT_MSG.twiceInFile(7003, 'on line 2')],
        'line 8': [REPLACEMENT_MSG.notUsed(7049)],
      },
    });
    expect(await stored()).toHaveLength(2);
    const header = await postFile(people.head, outageId, 'paper,e-invoice number\n7003,EI-1\n');
    expect(header.statusCode).toBe(422);
    expect(header.json().errors['line 1']).toEqual([
      REPLACEMENT_MSG.missingColumn('paper number'),
      REPLACEMENT_MSG.missingColumn('date transmitted'),
      REPLACEMENT_MSG.unknownColumn('paper'),
    ]);
    const goodFile = [
      'Paper number,E-invoice number,Date transmitted,Route',
      '7003,EI-0000201,2026-10-07,',
      '7001,EI-0000203,2026-10-07,000-111-222',
      '7002,EI-0000101,2026-10-06,',
    ].join('\r\n');
    const good = await postFile(people.head, outageId, `\uFEFF${goodFile}`);
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().message).toBe(REPLACEMENT_MSG.saved(2));
    const list = await listOf(people.head);
    expect(list.totals).toEqual({ numbers: 5, entered: 4, pending: 1 });
    expect(list.numbers.filter((row) => row.status === 'pending').map((row) => [row.route.name, row.paper_number])).toEqual([
      ['Calapan - Batangas', 7004],
    ]);
    expect(await t.db.select().from(replacementEinvoices).where(eq(replacementEinvoices.einvoice_number, 'EI-0000203'))).toMatchObject([
      { pad_id: calapanPad.id, paper_number: 7001, transmitted_on: '2026-10-07', entered_by: people.head.id },
    ]);
  });

  it('when someone outside the rules asks, then reading is refused to role 7 and another branch, entering to the Auditor and another branch', async () => {
    expect((await call(people.holder, 'GET', `/api/outages/${outageId}/replacements`)).statusCode).toBe(403);
    expect((await call(people.otherHead, 'GET', `/api/outages/${outageId}/replacements`)).statusCode).toBe(403);
    const item = { items: [{ paper_number: 7004, einvoice_number: 'EI-0000301', transmitted_on: '2026-10-08' }] };
    expect((await call(people.auditor, 'POST', `/api/outages/${outageId}/replacements`, item)).statusCode).toBe(403);
    expect((await call(people.otherHead, 'POST', `/api/outages/${outageId}/replacements`, item)).statusCode).toBe(403);
    expect(
      (await postFile(people.otherHead, outageId, 'paper number,e-invoice number,date transmitted\n7004,EI-1,2026-10-08\n')).statusCode,
    ).toBe(403);
    expect((await call(people.accounting, 'GET', '/api/outages/999999/replacements')).statusCode).toBe(404);
    const future = await call(people.accounting, 'POST', `/api/outages/${outageId}/replacements`, {
      items: [{ paper_number: 7004, einvoice_number: 'EI-0000301', transmitted_on: '2999-01-01' }],
    });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors['items.0']).toEqual([REPLACEMENT_MSG.future]);
    expect(await stored()).toHaveLength(4);
  });
  it('when two people enter different e-invoices for the same number at once, then one is stored and the other is told the number is taken', async () => {
    const enter = (who: Who, einvoice: string) =>
      call(who, 'POST', `/api/outages/${outageId}/replacements`, {
        items: [{ paper_number: 7004, einvoice_number: einvoice, transmitted_on: '2026-10-08' }],
      });
    const answers = await Promise.all([enter(people.accounting, 'EI-0000401'), enter(people.supervisor, 'EI-0000402')]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 422]);
    const rows = (await stored()).filter((row) => row.paper_number === 7004);
    expect(rows).toHaveLength(1);
    const refused = answers.find((res) => res.statusCode === 422);
    expect(refused?.json().errors['items.0']).toEqual([REPLACEMENT_MSG.alreadyMapped(7004, rows[0].einvoice_number)]);
    expect((await listOf(people.auditor)).totals).toEqual({ numbers: 5, entered: 5, pending: 0 });
  });
});
