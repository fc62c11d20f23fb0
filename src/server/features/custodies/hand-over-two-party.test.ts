import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import { IDEMPOTENCY_MSG } from '../../../shared/schemas/common.ts';
import { CUSTODY_MSG, handOverPending } from '../../../shared/schemas/custodies.ts';
import { INVOICE_MSG } from '../../../shared/schemas/invoices.ts';
import { idempotencyKeys } from '../../db/schema/idempotency.ts';
import { activities, invoices, pendingHandOvers } from '../../db/schema/invoices.ts';
import { users } from '../../db/schema/users.ts';
import { encodeBadge } from '../../lib/badge.ts';
import { buildPad, createBranch, createLocation, createRoute, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
});
afterAll(async () => {
  await t.close();
});

type Session = Awaited<ReturnType<typeof signedIn>>;

const post = (url: string, who: Session, payload: unknown = {}, key?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/${url}`,
    headers: key ? { ...who.headers, 'idempotency-key': key } : who.headers,
    payload: payload as object,
  });
const get = (url: string, who: Session) => t.app.inject({ method: 'GET', url: `/api/${url}`, headers: who.headers });

const invoiceRow = async (id: number) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0];
const activityRows = (id: number) => t.db.select().from(activities).where(eq(activities.invoice_id, id)).orderBy(asc(activities.id));
const pendingRows = (id: number) => t.db.select().from(pendingHandOvers).where(eq(pendingHandOvers.invoice_id, id));
const keyRows = (key: string) => t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

const uid = () => Math.random().toString(36).slice(2, 10);

/** A Return of one pad in transit with its courier, and a second courier to hand it to. */
async function inTransit() {
  const location = await createLocation(t.db, { name: `Pier ${uid()}` });
  const branch = await createBranch(t.db, { name: `Branch ${uid()}`, location_id: location.id });
  const holder = await signedIn(t, { role_id: 5, branch_id: branch.id });
  const route = await createRoute(t.db);
  const pad = await buildPad(t.db, { route_id: route.id, heldBy: { userId: holder.user.id, branchId: branch.id } });
  const giver = await signedIn(t, { role_id: 10, branch_id: branch.id, first_name: 'Nestor' });
  const receiver = await signedIn(t, { role_id: 10, branch_id: branch.id, first_name: 'Rey' });
  const res = await post('create-return-invoice', holder, { pads: [pad.id], assigned_user_id: giver.user.id });
  expect(res.statusCode).toBe(201);
  return { holder, giver, receiver, route, pad, id: res.json().data.id as number };
}

const nameOf = (who: Session) => `${who.user.first_name} ${who.user.last_name}`;

describe('two-party hand-over (the default setting)', () => {
  it('when the giver picks the receiver from the list, then it waits for him, naming the pads by route and number, and the giver still carries it; the receiver accepts on his phone and it moves, confirmed by him', async () => {
    const { giver, receiver, route, pad, id } = await inTransit();
    const scannedAt = '2026-11-26T05:59:30.000Z';
    const res = await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id, scanned_at: scannedAt });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(handOverPending(nameOf(receiver)));
    expect(res.json().data.assigned_user_id).toBe(giver.user.id);
    expect((await invoiceRow(id)).assigned_user_id).toBe(giver.user.id);
    expect(await activityRows(id)).toHaveLength(1);

    const mine = (await get('get-pending-hand-overs', receiver)).json();
    expect(mine.outgoing).toEqual([]);
    expect(mine.incoming).toEqual([
      expect.objectContaining({
        invoice_id: id,
        invoice_type: 'Return',
        pads: 1,
        pad_list: [{ route: route.name, number: pad.number }],
        from_name: nameOf(giver),
        to_name: nameOf(receiver),
        device_at: scannedAt,
      }),
    ]);
    expect((await get('get-pending-hand-overs', giver)).json().outgoing.map((p: { invoice_id: number }) => p.invoice_id)).toEqual([id]);

    const accepted = await post(`accept-hand-over/${id}`, receiver);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ message: CUSTODY_MSG.acceptedHandOver });
    expect((await invoiceRow(id)).assigned_user_id).toBe(receiver.user.id);
    expect(await pendingRows(id)).toEqual([]);
    const last = (await activityRows(id)).at(-1);
    expect(last).toMatchObject({
      description: `Custody handed over to ${nameOf(receiver)}`,
      user_id: giver.user.id,
      assigned_user_id: receiver.user.id,
      confirmed_by: receiver.user.id,
    });
    expect(last?.device_at?.toISOString()).toBe(scannedAt);

    const again = await post(`accept-hand-over/${id}`, receiver);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CUSTODY_MSG.handOverGone);
    expect(await activityRows(id)).toHaveLength(2);
  });

  it('when the giver scans the receiver’s badge, then it moves at once, confirmed by the receiver; someone else’s badge is refused and nothing changes', async () => {
    const { giver, receiver, holder, id } = await inTransit();
    const wrong = encodeBadge(t.ctx.badgeSecret, holder.user.id, holder.user.badge_version);
    const refused = await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id, badge: wrong });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.badge).toEqual([CUSTODY_MSG.badgeNotReceiver]);
    expect((await invoiceRow(id)).assigned_user_id).toBe(giver.user.id);

    const badge = encodeBadge(t.ctx.badgeSecret, receiver.user.id, receiver.user.badge_version);
    const res = await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id, badge });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(CUSTODY_MSG.handedOver);
    expect((await invoiceRow(id)).assigned_user_id).toBe(receiver.user.id);
    expect((await activityRows(id)).at(-1)).toMatchObject({ confirmed_by: receiver.user.id, device_at: null });
  });

  it('when the receiver declines, or the custody was accepted at its destination meanwhile, then his answer changes nothing but the wait', async () => {
    const { giver, receiver, holder, id } = await inTransit();
    await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id });
    const declined = await post(`decline-hand-over/${id}`, receiver);
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toEqual({ message: CUSTODY_MSG.declinedHandOver });
    expect((await invoiceRow(id)).assigned_user_id).toBe(giver.user.id);
    expect(await pendingRows(id)).toEqual([]);

    await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id });
    const stranger = await signedIn(t, { role_id: 10 });
    expect((await post(`accept-hand-over/${id}`, stranger)).statusCode).toBe(409);
    const accounting = await signedIn(t, { role_id: 8, branch_id: t.ctx.config.headOfficeBranchId });
    expect((await post(`accept-invoice/${id}`, accounting)).statusCode).toBe(200);
    expect((await get('get-pending-hand-overs', receiver)).json().incoming).toEqual([]);
    const late = await post(`accept-hand-over/${id}`, receiver);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(CUSTODY_MSG.handOverGone);
    const invoice = await invoiceRow(id);
    expect(invoice.invoice_status_id).toBe(INVOICE_STATUS.COMPLETED);
    expect(invoice.assigned_user_id).toBe(giver.user.id);
    expect(holder.user.id).not.toBe(receiver.user.id);
  });

  it('when the setting is off, then a picked hand-over moves at once with nobody recorded as confirming', async () => {
    const { giver, receiver, id } = await inTransit();
    t.ctx.config.twoPartyHandOver = false;
    try {
      const res = await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id });
      expect(res.json().message).toBe(CUSTODY_MSG.handedOver);
    } finally {
      t.ctx.config.twoPartyHandOver = true;
    }
    expect((await invoiceRow(id)).assigned_user_id).toBe(receiver.user.id);
    expect((await activityRows(id)).at(-1)).toMatchObject({ confirmed_by: null });
  });
});

describe('queued actions sent with an Idempotency-Key', () => {
  it('when the same queued hand-over arrives 8 times in parallel, then it applies once and every copy gets the same answer', async () => {
    const { giver, receiver, id } = await inTransit();
    const badge = encodeBadge(t.ctx.badgeSecret, receiver.user.id, receiver.user.badge_version);
    const key = `handover-${uid()}-${uid()}`;
    const body = { assigned_user_id: receiver.user.id, badge, scanned_at: '2026-11-26T06:02:00.000Z' };
    const results = await Promise.all(Array.from({ length: 8 }, () => post(`hand-over-invoice/${id}`, giver, body, key)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    for (const r of results) expect(r.json()).toEqual(results[0].json());
    expect(results[0].json().message).toBe(CUSTODY_MSG.handedOver);
    expect((await invoiceRow(id)).assigned_user_id).toBe(receiver.user.id);
    const rows = await activityRows(id);
    expect(rows).toHaveLength(2);
    expect(rows[1].device_at?.toISOString()).toBe('2026-11-26T06:02:00.000Z');
    expect(await keyRows(key)).toEqual([expect.objectContaining({ user_id: giver.user.id, status: 200, operation: `hand-over:${id}` })]);

    const later = await post(`hand-over-invoice/${id}`, giver, body, key);
    expect(later.statusCode).toBe(200);
    expect(later.json()).toEqual(results[0].json());
    expect(await activityRows(id)).toHaveLength(2);
  });

  it('when a queued hand-over is no longer valid (the custody was accepted meanwhile), then it is refused with the reason, nothing changes and no answer is kept', async () => {
    const { giver, receiver, id } = await inTransit();
    const accounting = await signedIn(t, { role_id: 8, branch_id: t.ctx.config.headOfficeBranchId });
    expect((await post(`accept-invoice/${id}`, accounting)).statusCode).toBe(200);
    const before = await activityRows(id);
    const key = `handover-${uid()}-${uid()}`;
    const res = await post(`hand-over-invoice/${id}`, giver, { assigned_user_id: receiver.user.id }, key);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(INVOICE_MSG.handOverNotInTransit);
    expect(await activityRows(id)).toEqual(before);
    expect(await pendingRows(id)).toEqual([]);
    expect(await keyRows(key)).toEqual([]);
  });

  it('when a hand-over queued offline with a scanned badge is sent after the badge was replaced, then it is refused with that reason, nothing changes and no answer is kept', async () => {
    const { giver, receiver, id } = await inTransit();
    const scanned = encodeBadge(t.ctx.badgeSecret, receiver.user.id, receiver.user.badge_version);
    await t.db
      .update(users)
      .set({ badge_version: receiver.user.badge_version + 1 })
      .where(eq(users.id, receiver.user.id));
    const before = await activityRows(id);
    const key = `handover-${uid()}-${uid()}`;
    const body = { assigned_user_id: receiver.user.id, badge: scanned, scanned_at: '2026-11-26T06:02:00.000Z' };
    const res = await post(`hand-over-invoice/${id}`, giver, body, key);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.badge).toEqual([CUSTODY_MSG.badgeNoLongerValid]);
    expect((await invoiceRow(id)).assigned_user_id).toBe(giver.user.id);
    expect(await activityRows(id)).toEqual(before);
    expect(await pendingRows(id)).toEqual([]);
    expect(await keyRows(key)).toEqual([]);
  });

  it('when a key is reused for another invoice, or is malformed, then it is refused and nothing changes', async () => {
    const first = await inTransit();
    const second = await inTransit();
    const key = `handover-${uid()}-${uid()}`;
    expect((await post(`hand-over-invoice/${first.id}`, first.giver, { assigned_user_id: first.receiver.user.id }, key)).statusCode).toBe(
      200,
    );
    const reused = await post(`hand-over-invoice/${second.id}`, first.giver, { assigned_user_id: second.receiver.user.id }, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(IDEMPOTENCY_MSG.reused);
    const bad = await post(`hand-over-invoice/${second.id}`, second.giver, { assigned_user_id: second.receiver.user.id }, 'short');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(IDEMPOTENCY_MSG.keyFormat);
    expect(await pendingRows(second.id)).toEqual([]);
    expect(await pendingRows(first.id)).toHaveLength(1);
  });

  it('when two users send the same key, then each has his own action', async () => {
    const first = await inTransit();
    const second = await inTransit();
    const key = `handover-${uid()}-${uid()}`;
    expect((await post(`hand-over-invoice/${first.id}`, first.giver, { assigned_user_id: first.receiver.user.id }, key)).statusCode).toBe(
      200,
    );
    expect(
      (await post(`hand-over-invoice/${second.id}`, second.giver, { assigned_user_id: second.receiver.user.id }, key)).statusCode,
    ).toBe(200);
    expect(await pendingRows(first.id)).toHaveLength(1);
    expect(await pendingRows(second.id)).toHaveLength(1);
    expect(await keyRows(key)).toHaveLength(2);
  });
});
