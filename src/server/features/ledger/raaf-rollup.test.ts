import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, eq } from 'drizzle-orm';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { resolveHolder, rollup } from './raaf.ts';
import { apiCalls } from '../../test/inject.ts';

type Headers = { authorization: string };
interface Who {
  id: number;
  headers: Headers;
}
interface Group {
  qty: number;
  ranges: Array<[number, number]>;
}
type Totals = { beginning: number; receipt: number; issued: number; ending: number };
interface RouteRow {
  route: { id: number };
  beginning: Group;
  receipt: Group;
  issued: Group;
  ending: Group;
}
interface Rollup {
  rollup: true;
  branch: { id: number; name: string };
  rows: RouteRow[];
  totals: Totals;
  holders: Array<{ holder: { type: 'user' | 'branch'; id: number; name: string }; totals: Totals }>;
}

const GROUPS = ['beginning', 'receipt', 'issued', 'ending'] as const;
const MONTH = '2026-10';

let t: TestApp;
let headOfficeId: number;
let portId: number;
let custodian: Who;
let cashier: Who;
let supervisor: Who;
let outsider: Who;
let courier: Who;
let routeIds: number[];

const { call, ok, at } = apiCalls(() => t);

async function who(values: { role_id: number; branch_id: number; first_name?: string; last_name?: string }): Promise<Who> {
  const session = await signedIn(t, values);
  return { id: session.user.id, headers: session.headers };
}

async function latestInvoice(typeId: number) {
  const [row] = await t.db.select().from(invoices).where(eq(invoices.invoice_type_id, typeId)).orderBy(desc(invoices.id)).limit(1);
  return row;
}

async function padsOf(routeId: number) {
  return (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
}

/** The holder asks for a pad, the custodian issues the given one, and the holder accepts it. */
async function handTo(holder: Who, routeId: number, padId: number) {
  const request = await ok(call(holder, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 1 }), 201);
  await ok(
    call(custodian, 'POST', '/api/issue-invoice', {
      invoice_id: request.data.id,
      pads: [padId],
      assigned_user_id: courier.id,
      expected_return: 3,
    }),
    201,
  );
  await ok(call(holder, 'POST', `/api/accept-invoice/${(await latestInvoice(INVOICE_TYPE.ISSUED)).id}`));
}

async function markUsed(holder: Who, padId: number, used: number[]) {
  const pad = (await ok(call(holder, 'GET', `/api/get-pad/${padId}`))).data as {
    number: number;
    pad_status_id: number;
    issuance_status_id: number;
    remarks: string | null;
    series: Array<{ number: number }>;
  };
  await ok(
    call(holder, 'PUT', `/api/update-pad/${padId}`, {
      number: pad.number,
      pad_status_id: pad.pad_status_id,
      issuance_status_id: pad.issuance_status_id,
      remarks: pad.remarks,
      series: pad.series.map((entry) => ({ number: entry.number, status: used.includes(entry.number) ? 2 : 1 })),
    }),
  );
}

const rollupUrl = (branchId: number, extra = '') => `/api/raaf?month=${MONTH}&branch_id=${branchId}&rollup=true${extra}`;

beforeAll(async () => {
  t = await createTestApp();
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  portId = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  custodian = await who({ role_id: 3, branch_id: headOfficeId });
  cashier = await who({ role_id: 7, branch_id: headOfficeId, first_name: 'Ana', last_name: 'Cruz' });
  supervisor = await who({ role_id: 6, branch_id: headOfficeId, first_name: 'Ben', last_name: 'Ramos' });
  outsider = await who({ role_id: 7, branch_id: portId, first_name: 'Carla', last_name: 'Reyes' });
  courier = await who({ role_id: 10, branch_id: headOfficeId });
  routeIds = [(await createRoute(t.db, { name: 'Batangas - Calapan' })).id, (await createRoute(t.db, { name: 'Calapan - Roxas' })).id];

  at('2026-09-04T02:00:00Z');
  for (const routeId of routeIds)
    await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1, series_to: 200 }), 201);
  const [first, second] = [await padsOf(routeIds[0]), await padsOf(routeIds[1])];
  await handTo(cashier, routeIds[0], first[0]);
  await markUsed(cashier, first[0], [1, 2, 3]);

  at('2026-10-05T02:00:00Z');
  await handTo(supervisor, routeIds[0], first[1]);
  await handTo(outsider, routeIds[0], first[2]);
  await handTo(cashier, routeIds[1], second[0]);
  await markUsed(cashier, first[0], [1, 2, 3, 4, 5, 6]);
  await markUsed(supervisor, first[1], [51, 52]);
  await markUsed(outsider, first[2], [101]);
  t.ctx.ledgerClock = undefined;
});
afterAll(async () => {
  await t.close();
});

describe('branch roll-up RAAF', () => {
  it("when an auditor reads a branch's roll-up, then each route's four groups are the sums of the branch's holders' own RAAFs", async () => {
    const auditor = await who({ role_id: 9, branch_id: portId });
    const report = (await ok(call(auditor, 'GET', rollupUrl(headOfficeId)))).data as Rollup;
    expect(report.rollup).toBe(true);
    expect(report.branch).toEqual({ id: headOfficeId, name: 'Head Office' });
    expect(report.holders.map((h) => `${h.holder.type}:${h.holder.id}`).sort()).toEqual(
      [`branch:${headOfficeId}`, `user:${cashier.id}`, `user:${supervisor.id}`].sort(),
    );

    const own = [
      { param: `branch_id=${headOfficeId}`, key: `branch:${headOfficeId}` },
      { param: `user_id=${cashier.id}`, key: `user:${cashier.id}` },
      { param: `user_id=${supervisor.id}`, key: `user:${supervisor.id}` },
    ];
    const expected = new Map<number, Totals>();
    for (const { param, key } of own) {
      const raaf = (await ok(call(auditor, 'GET', `/api/raaf?month=${MONTH}&${param}`))).data as { rows: RouteRow[]; totals: Totals };
      expect(report.holders.find((h) => `${h.holder.type}:${h.holder.id}` === key)?.totals).toEqual(raaf.totals);
      for (const row of raaf.rows) {
        const sum = expected.get(row.route.id) ?? { beginning: 0, receipt: 0, issued: 0, ending: 0 };
        for (const g of GROUPS) sum[g] += row[g].qty;
        expected.set(row.route.id, sum);
      }
    }
    const actual = new Map(report.rows.map((row) => [row.route.id, Object.fromEntries(GROUPS.map((g) => [g, row[g].qty]))]));
    expect(actual).toEqual(expected);
    expect(actual.get(routeIds[0])).toEqual({ beginning: 197, receipt: 50, issued: 105, ending: 142 });
    expect(actual.get(routeIds[1])).toEqual({ beginning: 200, receipt: 50, issued: 50, ending: 200 });
    const first = report.rows.find((row) => row.route.id === routeIds[0]);
    expect(first?.ending.ranges).toEqual([
      [7, 50],
      [53, 100],
      [151, 200],
    ]);
    expect(first?.issued.ranges).toEqual([
      [4, 6],
      [51, 52],
      [51, 150],
    ]);
    expect(report.totals).toEqual({ beginning: 397, receipt: 100, issued: 155, ending: 342 });
  });

  it('when the roll-up is folded from the events alone, then it equals the one from the stored month-end balances', async () => {
    const branch = await resolveHolder(t.ctx, { branch_id: headOfficeId });
    expect(await rollup(t.ctx, branch, MONTH, 'events')).toEqual(await rollup(t.ctx, branch, MONTH, 'balances'));
  });

  it("when a branch head, custodian or supervisor reads their own branch's roll-up, then 200; another branch's, 403", async () => {
    for (const role_id of [4, 5, 6]) {
      const local = await who({ role_id, branch_id: headOfficeId });
      expect((await call(local, 'GET', rollupUrl(headOfficeId))).statusCode, `role ${role_id}`).toBe(200);
      const away = await who({ role_id, branch_id: portId });
      const refused = await call(away, 'GET', rollupUrl(headOfficeId));
      expect(refused.statusCode, `role ${role_id}`).toBe(403);
      expect(refused.json()).toEqual({ message: 'You are not allowed to do this.' });
    }
  });

  it('when roles 1, 2, 3, 8 read any roll-up, then 200; a cashier and a courier get 403, even for their own branch', async () => {
    for (const role_id of [1, 2, 3, 8]) {
      expect((await call(await who({ role_id, branch_id: portId }), 'GET', rollupUrl(headOfficeId))).statusCode, `role ${role_id}`).toBe(
        200,
      );
    }
    expect((await call(cashier, 'GET', rollupUrl(headOfficeId))).statusCode).toBe(403);
    expect((await call(courier, 'GET', rollupUrl(headOfficeId))).statusCode).toBe(403);
    expect((await call(outsider, 'GET', rollupUrl(portId))).statusCode).toBe(403);
    expect((await call(null, 'GET', rollupUrl(headOfficeId))).statusCode).toBe(401);
  });

  it("when a branch's roll-up is read, then holders of other branches stay out of it", async () => {
    const head = await who({ role_id: 5, branch_id: portId });
    const report = (await ok(call(head, 'GET', rollupUrl(portId)))).data as Rollup;
    expect(report.holders.map((h) => h.holder.name)).toEqual(['Carla Reyes']);
    expect(report.rows.map((row) => [row.route.id, row.receipt.qty, row.issued.qty, row.ending.qty])).toEqual([[routeIds[0], 50, 1, 49]]);
  });

  it('when the roll-up names a person instead of a branch, or an unknown branch, then 422 names the field', async () => {
    const auditor = await who({ role_id: 9, branch_id: portId });
    const person = await call(auditor, 'GET', `/api/raaf?month=${MONTH}&user_id=${cashier.id}&rollup=true`);
    expect(person.statusCode).toBe(422);
    expect(person.json().errors.branch_id).toEqual(['The branch roll-up needs a branch (branch_id), not a person.']);
    const unknown = await call(auditor, 'GET', `/api/raaf?month=${MONTH}&branch_id=999999&rollup=true`);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.branch_id).toEqual(['Branch not found.']);
    const word = await call(auditor, 'GET', `/api/raaf?month=${MONTH}&branch_id=${headOfficeId}&rollup=yes`);
    expect(word.statusCode).toBe(422);
  });

  it('when the roll-up is asked as CSV and PDF, then the files carry the summed rows and name the branch roll-up', async () => {
    const csv = await call(custodian, 'GET', rollupUrl(headOfficeId, '&format=csv'));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain(`raaf-rollup-${MONTH}-branch-${headOfficeId}.csv`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('Beginning Qty,Beginning From,Beginning To');
    expect(lines.find((line) => line.includes(',Batangas - Calapan,'))).toMatch(/,197,4,200,50,51,100,3,4,6,44,7,50,$/);
    expect(lines.find((line) => line.includes(',Calapan - Roxas,'))).toMatch(/,200,1,200,50,1,50,50,1,50,200,1,200,$/);

    const pdf = await call(custodian, 'GET', rollupUrl(headOfficeId, '&format=pdf'));
    expect(pdf.statusCode).toBe(200);
    const text = pdfToText(pdf.rawPayload);
    expect(text).toContain('REPORT OF ACCOUNTABILITY FOR ACCOUNTABLE FORMS');
    expect(text).toContain('Head Office (branch roll-up: stock and staff)');
    expect(text).toContain('For the Month of October 2026');
    expect(text).toMatch(/197\s+4\s+200\s+50\s+51\s+100\s+3\s+4\s+6\s+44\s+7\s+50/);
  });
});
