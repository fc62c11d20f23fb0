import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { dateInZone } from '../../../../shared/format.ts';
import { ROLE } from '../../../../shared/lookups.ts';
import type { AlertThresholds } from '../../../../shared/schemas/notifications.ts';
import { notifications } from '../../../db/schema/notifications.ts';
import { pads } from '../../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn } from '../../../test/factories.ts';
import { apiCalls } from '../../../test/inject.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { alertPeople } from '../../users/read-model.ts';
import type { AlertItem } from '../alert-item.ts';
import { evaluateAlerts } from '../evaluate.ts';
import { People } from '../people.ts';
import { saveThresholds } from '../repo.ts';
import { defaultThresholds } from '../thresholds.ts';
import { addDays } from './kind-days.ts';
import { SERIES_ADMIN_AFTER_DAYS, evaluator } from './series-used-up.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let custodian: Who;
let accounting: Who;
let admin: Who;
let calapanId: number;
let routeId: number;
const { call, ok } = apiCalls(() => t);
const today = () => dateInZone(new Date(), t.ctx.config.timeZone);

async function itemsOn(day: string, over: Partial<AlertThresholds> = {}): Promise<AlertItem[]> {
  return evaluator.evaluate(t.ctx, {
    now: new Date(),
    today: day,
    thresholds: { ...defaultThresholds(t.ctx), ...over },
    reorderPoints: [],
    people: new People(await alertPeople(t.db)),
  });
}

const series = (atp: string, from: number, to: number) => ({
  route_id: routeId,
  branch_id: calapanId,
  form_type: 'invoice',
  atp_number: atp,
  atp_date: '2026-01-05',
  printer: 'Calapan Printing Press',
  delivery_date: null,
  series_from: from,
  series_to: to,
  remarks: null,
});

const stored = () => t.db.select().from(notifications).where(eq(notifications.kind, 'series_used_up')).orderBy(asc(notifications.id));

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  calapanId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  const who = async (role: number, first: string) => {
    const { user, headers } = await signedIn(t, { role_id: role, branch_id: headOffice.id, first_name: first, last_name: 'Cruz' });
    return { id: user.id, headers };
  };
  custodian = await who(ROLE.CUSTODIAN, 'Cora');
  accounting = await who(ROLE.ACCOUNTING, 'Alma');
  admin = await who(ROLE.ADMIN, 'Abe');
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(accounting, 'POST', '/api/registered-series', series('OCN-2026-0001', 1, 6000)), 201);
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1, series_to: 3000, pad_size: 1000 }), 201);
  await saveThresholds(t.db, defaultThresholds(t.ctx), accounting.id);
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
});

describe('registered series nearly used up (issue 37)', () => {
  it('when nothing of the series was used yet, then nobody is told', async () => {
    expect(await itemsOn(today())).toEqual([]);
  });

  it('when 3,000 numbers are left and 3,000 were used in 30 days (30 days of cover < 60), then Accounting is told', async () => {
    const padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map(
      (p) => p.id,
    );
    for (const [i, padId] of padIds.entries())
      await ok(call(custodian, 'POST', `/api/pads/${padId}/usage`, { from: i * 1000 + 1, to: i * 1000 + 1000 }));
    const items = await itemsOn(today());
    expect(items.map((item) => [item.recipientUserId, item.level])).toEqual([[accounting.id, 0]]);
    expect(items[0]).toMatchObject({
      subject: { type: 'establishment_route', id: `${calapanId}:${routeId}` },
      period: today(),
      title: 'Registered series nearly used up: Calapan Terminal, Batangas - Calapan',
      link: `/registered-series?route_id=${routeId}`,
    });
    expect(items[0].body).toContain('3,000 numbers are left in OCN-2026-0001');
    expect(items[0].body).toContain('about 30 days');
    expect(await itemsOn(today(), { series_cover_days: 30 })).toEqual([]);
    await evaluateAlerts(t.ctx, { kinds: ['series_used_up'] });
    expect((await stored()).map((row) => [row.recipient_user_id, row.level, row.resolved_at])).toEqual([[accounting.id, 0, null]]);
  });

  it(`when it lasts ${SERIES_ADMIN_AFTER_DAYS} days after Accounting was first told, then Admin is told too`, async () => {
    expect((await itemsOn(addDays(today(), SERIES_ADMIN_AFTER_DAYS - 1))).map((item) => item.level)).toEqual([0]);
    const later = await itemsOn(addDays(today(), SERIES_ADMIN_AFTER_DAYS));
    expect(later.filter((item) => item.level === 1).map((item) => item.recipientUserId)).toContain(admin.id);
    await evaluateAlerts(t.ctx, { now: new Date(Date.now() + SERIES_ADMIN_AFTER_DAYS * 86_400_000), kinds: ['series_used_up'] });
    expect((await stored()).filter((row) => row.level === 1 && row.resolved_at === null).map((row) => row.recipient_user_id)).toContain(
      admin.id,
    );
  });

  it('when Accounting registers a new series for the establishment and route, then the cover is counted over both and it resolves', async () => {
    await ok(call(accounting, 'POST', '/api/registered-series', series('OCN-2026-0002', 6001, 20000)), 201);
    expect(await itemsOn(today())).toEqual([]);
    await evaluateAlerts(t.ctx, { kinds: ['series_used_up'] });
    const rows = await stored();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.resolved_at !== null)).toBe(true);
  });
});
