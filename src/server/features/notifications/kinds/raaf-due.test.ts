import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { ROLE } from '../../../../shared/lookups.ts';
import type { AlertThresholds } from '../../../../shared/schemas/notifications.ts';
import { notifications } from '../../../db/schema/notifications.ts';
import { pads } from '../../../db/schema/pads.ts';
import { issueAndAccept } from '../../../test/custody.ts';
import { createBranch, createRoute, signedIn } from '../../../test/factories.ts';
import { apiCalls } from '../../../test/inject.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { alertPeople } from '../../users/read-model.ts';
import type { AlertItem } from '../alert-item.ts';
import { evaluateAlerts } from '../evaluate.ts';
import { People } from '../people.ts';
import { saveThresholds } from '../repo.ts';
import { defaultThresholds } from '../thresholds.ts';
import { evaluator } from './raaf-due.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let custodian: Who;
let accounting: Who;
let ana: Who;
let ben: Who;
const { call, ok, at } = apiCalls(() => t);

/** A morning in Manila of November 2026, the month after the forms moved. */
const novemberDay = (day: number) => new Date(`2026-11-${String(day).padStart(2, '0')}T01:00:00Z`);

async function itemsOn(day: number, over: Partial<AlertThresholds> = {}): Promise<AlertItem[]> {
  const now = novemberDay(day);
  return evaluator.evaluate(t.ctx, {
    now,
    today: `2026-11-${String(day).padStart(2, '0')}`,
    thresholds: { ...defaultThresholds(t.ctx), ...over },
    reorderPoints: [],
    people: new People(await alertPeople(t.db)),
  });
}

const told = (items: AlertItem[], level: number) =>
  items
    .filter((item) => item.level === level)
    .map((item) => [item.recipientUserId, item.subject.id])
    .sort();

async function stored() {
  return t.db.select().from(notifications).where(eq(notifications.kind, 'raaf_due')).orderBy(asc(notifications.id));
}

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const calapan = await createBranch(t.db, { name: 'Calapan Terminal' });
  const who = async (role: number, branchId: number, first: string) => {
    const { user, headers } = await signedIn(t, { role_id: role, branch_id: branchId, first_name: first, last_name: 'Reyes' });
    return { id: user.id, headers };
  };
  custodian = await who(ROLE.CUSTODIAN, headOffice.id, 'Cora');
  accounting = await who(ROLE.ACCOUNTING, headOffice.id, 'Alma');
  ana = await who(ROLE.TICKETING_OFFICER, calapan.id, 'Ana');
  ben = await who(ROLE.TICKETING_OFFICER, calapan.id, 'Ben');
  const courier = await who(ROLE.DRIVER, headOffice.id, 'Dan');
  const routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  at('2026-10-05T02:00:00Z');
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1, series_to: 100 }), 201);
  const padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map(
    (p) => p.id,
  );
  at('2026-10-06T02:00:00Z');
  await issueAndAccept(t, { holder: ana, custodian, courier, routeId, padIds: [padIds[0]] });
  await issueAndAccept(t, { holder: ben, custodian, courier, routeId, padIds: [padIds[1]] });
  t.ctx.ledgerClock = undefined;
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
});

describe('RAAF due (issue 37)', () => {
  it('when October has ended and the due day is 0, then on the 1st each holder who held forms in it is told, and nobody else', async () => {
    const items = await itemsOn(1, { raaf_due_day: 0 });
    const holders = told(items, 0).filter(([, subject]) => String(subject).startsWith('u:'));
    expect(holders).toEqual(
      [
        [ana.id, `u:${ana.id}`],
        [ben.id, `u:${ben.id}`],
      ].sort(),
    );
    expect(told(items, 1)).toEqual([]);
    const anas = items.find((item) => item.recipientUserId === ana.id);
    expect(anas).toMatchObject({
      period: '2026-10',
      title: 'RAAF for October 2026 ready to certify',
      link: `/accountability?month=2026-10&holder=u:${ana.id}`,
    });
  });

  it('when the default due day (the 3rd) has not passed, then nobody is told yet', async () => {
    expect(await itemsOn(3)).toEqual([]);
  });

  it('when Ana certified on the 3rd, then on the 4th only Ben is told, and the stored notification of Ana resolves', async () => {
    await saveThresholds(t.db, { ...defaultThresholds(t.ctx), raaf_due_day: 0 }, accounting.id);
    await evaluateAlerts(t.ctx, { now: novemberDay(3), kinds: ['raaf_due'] });
    expect((await stored()).filter((row) => row.recipient_user_id === ana.id && row.resolved_at === null)).toHaveLength(1);
    await ok(call(ana, 'POST', '/api/raaf/certify', { month: '2026-10', user_id: ana.id }), 201);
    await saveThresholds(t.db, defaultThresholds(t.ctx), accounting.id);
    const fourth = await itemsOn(4);
    expect(fourth.some((item) => item.recipientUserId === ana.id || item.subject.id === `u:${ana.id}`)).toBe(false);
    expect(told(fourth, 0)).toContainEqual([ben.id, `u:${ben.id}`]);
    expect(told(fourth, 1)).toEqual([]);
    await evaluateAlerts(t.ctx, { now: novemberDay(4), kinds: ['raaf_due'] });
    const rows = await stored();
    expect(rows.filter((row) => row.recipient_user_id === ana.id).map((row) => row.resolved_at !== null)).toEqual([true]);
    expect(rows.filter((row) => row.recipient_user_id === ben.id).map((row) => [row.level, row.period, row.resolved_at])).toEqual([
      [0, '2026-10', null],
    ]);
  });

  it('when the 6th comes and Ben has still not certified, then Accounting is told of Ben (level 1), not of Ana', async () => {
    const sixth = await itemsOn(6);
    expect(told(sixth, 1)).toContainEqual([accounting.id, `u:${ben.id}`]);
    expect(told(sixth, 1)).not.toContainEqual([accounting.id, `u:${ana.id}`]);
    await evaluateAlerts(t.ctx, { now: novemberDay(6), kinds: ['raaf_due'] });
    const open = (await stored()).filter((row) => row.resolved_at === null && row.subject_id === `u:${ben.id}`);
    expect(open.map((row) => [row.recipient_user_id, row.level]).sort()).toEqual(
      [
        [ben.id, 0],
        [accounting.id, 1],
      ].sort(),
    );
  });

  it('when Ben certifies, then both of his notifications resolve', async () => {
    await ok(call(ben, 'POST', '/api/raaf/certify', { month: '2026-10', user_id: ben.id }), 201);
    expect((await itemsOn(7)).some((item) => item.subject.id === `u:${ben.id}`)).toBe(false);
    await evaluateAlerts(t.ctx, { now: novemberDay(7), kinds: ['raaf_due'] });
    const bens = (await stored()).filter((row) => row.subject_id === `u:${ben.id}`);
    expect(bens).toHaveLength(2);
    expect(bens.every((row) => row.resolved_at !== null)).toBe(true);
  });
});
