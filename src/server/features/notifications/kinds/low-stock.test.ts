import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { dateInZone } from '../../../../shared/format.ts';
import { INVOICE_TYPE, ROLE } from '../../../../shared/lookups.ts';
import { notifications } from '../../../db/schema/notifications.ts';
import { pads } from '../../../db/schema/pads.ts';
import { issueAndAccept, latestInvoice } from '../../../test/custody.ts';
import { createBranch, createRoute, signedIn } from '../../../test/factories.ts';
import { apiCalls } from '../../../test/inject.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { alertPeople } from '../../users/read-model.ts';
import type { AlertItem, ReorderPointSetting } from '../alert-item.ts';
import { evaluateAlerts } from '../evaluate.ts';
import { People } from '../people.ts';
import { replaceReorderPoints, saveThresholds } from '../repo.ts';
import { defaultThresholds } from '../thresholds.ts';
import { addDays } from './kind-days.ts';
import { evaluator } from './low-stock.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let custodian: Who;
let accounting: Who;
let ana: Who;
let courier: Who;
let calapanId: number;
let routeId: number;
let padIds: number[];
let point: ReorderPointSetting;
const { call, ok } = apiCalls(() => t);
const today = () => dateInZone(new Date(), t.ctx.config.timeZone);

async function itemsOn(day: string, reorderPoints: ReorderPointSetting[], escalateDays = 3): Promise<AlertItem[]> {
  return evaluator.evaluate(t.ctx, {
    now: new Date(),
    today: day,
    thresholds: { ...defaultThresholds(t.ctx), low_stock_escalate_days: escalateDays },
    reorderPoints,
    people: new People(await alertPeople(t.db)),
  });
}

const stored = () => t.db.select().from(notifications).where(eq(notifications.kind, 'low_stock')).orderBy(asc(notifications.id));

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  calapanId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  const who = async (role: number, branchId: number, first: string) => {
    const { user, headers } = await signedIn(t, { role_id: role, branch_id: branchId, first_name: first, last_name: 'Cruz' });
    return { id: user.id, headers };
  };
  custodian = await who(ROLE.CUSTODIAN, headOffice.id, 'Cora');
  accounting = await who(ROLE.ACCOUNTING, headOffice.id, 'Alma');
  ana = await who(ROLE.TICKETING_OFFICER, calapanId, 'Ana');
  courier = await who(ROLE.DRIVER, headOffice.id, 'Dan');
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1, series_to: 1000 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
  await issueAndAccept(t, { holder: ana, custodian, courier, routeId, padIds: padIds.slice(0, 11) });
  point = { branchId: calapanId, routeId, minimum: 500, leadDays: 14, snoozedUntil: null };
  await replaceReorderPoints(t.db, [{ branch_id: calapanId, route_id: routeId, minimum: 500, lead_days: 14, snoozed_until: null }]);
  await saveThresholds(t.db, defaultThresholds(t.ctx), accounting.id);
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
});

describe('low stock (issue 37)', () => {
  it('when Calapan holds 550 numbers against a reorder point of 500, then nobody is told', async () => {
    expect(await itemsOn(today(), [point])).toEqual([]);
  });

  it('when usage leaves 499, then the Custodian is told once with "suggest 11 pads" (to reach twice the point), and a second use that day opens nothing new', async () => {
    await ok(call(ana, 'POST', `/api/pads/${padIds[0]}/usage`, { from: 1, to: 50 }));
    await ok(call(ana, 'POST', `/api/pads/${padIds[1]}/usage`, { from: 51, to: 51 }));
    const items = await itemsOn(today(), [point]);
    expect(items.map((item) => [item.recipientUserId, item.level])).toEqual([[custodian.id, 0]]);
    expect(items[0]).toMatchObject({
      subject: { type: 'branch_route', id: `${calapanId}:${routeId}` },
      period: today(),
      title: expect.stringContaining('suggest 11 pads'),
    });
    expect(items[0].body).toContain('499 unused numbers');
    await evaluateAlerts(t.ctx, { kinds: ['low_stock'] });
    await ok(call(ana, 'POST', `/api/pads/${padIds[1]}/usage`, { from: 52, to: 52 }));
    await evaluateAlerts(t.ctx, { kinds: ['low_stock'] });
    const rows = await stored();
    expect(rows.map((row) => [row.recipient_user_id, row.level, row.period, row.resolved_at])).toEqual([[custodian.id, 0, today(), null]]);
  });

  it('when the shortage lasts 3 days (or the escalation is 0), then Accounting is told too; a snoozed point tells nobody', async () => {
    const later = await itemsOn(addDays(today(), 3), [point]);
    expect(later.map((item) => [item.recipientUserId, item.level, item.period])).toEqual([
      [custodian.id, 0, today()],
      [accounting.id, 1, today()],
    ]);
    expect((await itemsOn(addDays(today(), 2), [point])).map((item) => item.level)).toEqual([0]);
    expect((await itemsOn(today(), [point], 0)).map((item) => item.level)).toEqual([0, 1]);
    expect(await itemsOn(today(), [{ ...point, snoozedUntil: today() }])).toEqual([]);
    await evaluateAlerts(t.ctx, { now: new Date(Date.now() + 3 * 86_400_000), kinds: ['low_stock'] });
    expect((await stored()).map((row) => [row.recipient_user_id, row.level, row.resolved_at])).toEqual([
      [custodian.id, 0, null],
      [accounting.id, 1, null],
    ]);
  });

  it('when the Custodian issues one more pad to Calapan (in transit counts) and Ana accepts it, then the shortage resolves', async () => {
    const request = await ok(call(ana, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 1 }), 201);
    await ok(
      call(custodian, 'POST', '/api/issue-invoice', {
        invoice_id: request.data.id,
        pads: [padIds[11]],
        assigned_user_id: courier.id,
        expected_return: 3,
      }),
      201,
    );
    expect(await itemsOn(today(), [point])).toEqual([]);
    const issued = await latestInvoice(t, INVOICE_TYPE.ISSUED);
    await ok(call(ana, 'POST', `/api/accept-invoice/${issued.id}`));
    expect(await itemsOn(today(), [point])).toEqual([]);
    await evaluateAlerts(t.ctx, { kinds: ['low_stock'] });
    expect((await stored()).every((row) => row.resolved_at !== null)).toBe(true);
  });
});
