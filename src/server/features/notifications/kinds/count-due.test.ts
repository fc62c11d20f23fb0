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
import { evaluator } from './count-due.ts';
import { isoWeek } from './kind-days.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

const DAY_MS = 86_400_000;
let t: TestApp;
let custodian: Who;
let accounting: Who;
let head: Who;
let ana: Who;
let headOfficeId: number;
let anaPad: { id: number; series_from: number };
const { call, ok } = apiCalls(() => t);

async function itemsAt(now: Date, over: Partial<AlertThresholds>): Promise<AlertItem[]> {
  return evaluator.evaluate(t.ctx, {
    now,
    today: now.toISOString().slice(0, 10),
    thresholds: { ...defaultThresholds(t.ctx), ...over },
    reorderPoints: [],
    people: new People(await alertPeople(t.db)),
  });
}

const about = (items: AlertItem[], subject: string) =>
  items
    .filter((item) => item.subject.id === subject)
    .map((item) => [item.recipientUserId, item.level])
    .sort();

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  headOfficeId = headOffice.id;
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const calapan = await createBranch(t.db, { name: 'Calapan Terminal' });
  const who = async (role: number, branchId: number, first: string) => {
    const { user, headers } = await signedIn(t, { role_id: role, branch_id: branchId, first_name: first, last_name: 'Cruz' });
    return { id: user.id, headers };
  };
  custodian = await who(ROLE.CUSTODIAN, headOffice.id, 'Cora');
  accounting = await who(ROLE.ACCOUNTING, headOffice.id, 'Alma');
  head = await who(ROLE.BRANCH_HEAD, calapan.id, 'Hector');
  ana = await who(ROLE.TICKETING_OFFICER, calapan.id, 'Ana');
  const courier = await who(ROLE.DRIVER, headOffice.id, 'Dan');
  const routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1, series_to: 100 }), 201);
  const [first] = await t.db.select().from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number));
  anaPad = first;
  await issueAndAccept(t, { holder: ana, custodian, courier, routeId, padIds: [first.id] });
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
});

describe('count due (issue 37)', () => {
  it('when COUNT_EVERY_DAYS is 0, then a holder never counted is told to their branch head, the branch stock to the Custodian, weekly', async () => {
    const now = new Date();
    const items = await itemsAt(now, { count_due_days: 0 });
    expect(about(items, `u:${ana.id}`)).toEqual([[head.id, 0]]);
    expect(about(items, `b:${headOfficeId}`)).toEqual([[custodian.id, 0]]);
    expect(items.find((item) => item.subject.id === `u:${ana.id}`)).toMatchObject({
      period: isoWeek(now.toISOString().slice(0, 10)),
      title: 'Count due: Ana Cruz',
      link: `/counts?user=${ana.id}`,
    });
  });

  it('when the count stays due 30 more days after the counters were first told, then Accounting is told too (level 1)', async () => {
    await saveThresholds(t.db, { ...defaultThresholds(t.ctx), count_due_days: 0 }, accounting.id);
    await evaluateAlerts(t.ctx, { kinds: ['count_due'] });
    const later = new Date(Date.now() + 30 * DAY_MS + 60_000);
    expect(about(await itemsAt(new Date(), { count_due_days: 0 }), `u:${ana.id}`)).toEqual([[head.id, 0]]);
    expect(about(await itemsAt(later, { count_due_days: 0 }), `u:${ana.id}`)).toEqual(
      [
        [head.id, 0],
        [accounting.id, 1],
      ].sort(),
    );
    expect(about(await itemsAt(new Date(), { count_due_days: 0, count_escalate_days: 0 }), `u:${ana.id}`)).toEqual(
      [
        [head.id, 0],
        [accounting.id, 1],
      ].sort(),
    );
  });

  it('when the branch head counts Ana and the count closes, then her count-due notifications resolve', async () => {
    await saveThresholds(t.db, { ...defaultThresholds(t.ctx), count_due_days: 0, count_escalate_days: 0 }, accounting.id);
    await evaluateAlerts(t.ctx, { kinds: ['count_due'] });
    const open = async () =>
      (
        await t.db
          .select()
          .from(notifications)
          .where(eq(notifications.subject_id, `u:${ana.id}`))
      ).filter((row) => row.resolved_at === null);
    expect((await open()).map((row) => [row.recipient_user_id, row.level]).sort()).toEqual(
      [
        [head.id, 0],
        [accounting.id, 1],
      ].sort(),
    );
    const count = await ok(call(head, 'POST', '/api/counts', { user_id: ana.id }), 201);
    await ok(call(head, 'POST', `/api/counts/${count.data.id}/items`, { pad_id: anaPad.id, first_unused: anaPad.series_from }));
    await ok(call(head, 'POST', `/api/counts/${count.data.id}/end-scan`));
    await ok(call(ana, 'POST', `/api/counts/${count.data.id}/sign-off`, {}));
    await ok(call(head, 'POST', `/api/counts/${count.data.id}/close`));
    await saveThresholds(t.db, { ...defaultThresholds(t.ctx), count_due_days: 1 }, accounting.id);
    expect(about(await itemsAt(new Date(), { count_due_days: 1 }), `u:${ana.id}`)).toEqual([]);
    await evaluateAlerts(t.ctx, { kinds: ['count_due'] });
    expect(await open()).toEqual([]);
  });
});
