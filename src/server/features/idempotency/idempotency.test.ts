import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import { IDEMPOTENCY_MSG } from '../../../shared/schemas/common.ts';
import { idempotencyKeys } from '../../db/schema/idempotency.ts';
import { lossIncidentPads } from '../../db/schema/incidents.ts';
import { activities, pendingHandOvers } from '../../db/schema/invoices.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { buildPad, createBranch, createRoute, signedIn, type PadRow } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** Issue 33 item 7: an Idempotency-Key stands for one request; sent with another body it is refused, never answered as the first. */

type Session = Awaited<ReturnType<typeof signedIn>>;

let t: TestApp;
let branchId: number;
let routeId: number;
let clerk: Session;

const uid = () => Math.random().toString(36).slice(2, 10);
const post = (who: Session, url: string, payload: object, key: string) =>
  t.app.inject({ method: 'POST', url: `/api/${url}`, headers: { ...who.headers, 'idempotency-key': key }, payload });
const usage = (pad: PadRow, body: object, key: string) => post(clerk, `pads/${pad.id}/usage`, body, key);

const keyRows = (key: string) => t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
const seriesOf = async (pad: PadRow) => (await t.db.select({ s: pads.series_status }).from(pads).where(eq(pads.id, pad.id)))[0].s;
const usedEvents = (pad: PadRow) =>
  t.db
    .select({ from: padEvents.from_number, to: padEvents.to_number })
    .from(padEvents)
    .where(and(eq(padEvents.pad_id, pad.id), eq(padEvents.kind, 'used')))
    .orderBy(asc(padEvents.seq));
/** The 422 that names the reused key, as a client reads it. */
const otherRequest = (key: string) => ({
  message: IDEMPOTENCY_MSG.otherRequest(key),
  errors: { 'idempotency-key': [IDEMPOTENCY_MSG.otherRequest(key)] },
});

beforeAll(async () => {
  t = await createTestApp();
  t.ctx.config.headOfficeBranchId = (await createBranch(t.db, { name: 'Head Office' })).id;
  branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  clerk = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: branchId });
});
afterAll(async () => {
  await t.close();
});

const heldPad = () => buildPad(t.db, { route_id: routeId, heldBy: { userId: clerk.user.id, branchId } });

describe('range usage sent with an Idempotency-Key', () => {
  let pad: PadRow;
  const key = `usage-${uid()}-queued`;

  it('when the same usage comes twice with one key, its fields in another order the second time, then both get the first answer, the numbers are used once and the key keeps the request fingerprint', async () => {
    pad = await heldPad();
    const from = pad.series_from;
    const first = await usage(pad, { from, to: from + 4, device_at: '2026-11-26T06:02:00.000Z' }, key);
    const again = await usage(pad, { device_at: '2026-11-26T06:02:00.000Z', to: from + 4, from }, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(first.json().data.number_counts).toMatchObject({ used: 5 });
    expect(await usedEvents(pad)).toEqual([{ from, to: from + 4 }]);
    expect((await seriesOf(pad)).slice(0, 6)).toBe('222221');
    expect(await keyRows(key)).toEqual([
      expect.objectContaining({
        user_id: clerk.user.id,
        operation: `usage:${pad.id}`,
        status: 200,
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
  });

  it('when the key comes back with another range, then 422 names the key, the new range is not recorded and the stored answer stays; a new key records it', async () => {
    const before = { series: await seriesOf(pad), events: await usedEvents(pad), keys: await keyRows(key) };
    const from = pad.series_from + 5;
    const reused = await usage(pad, { from, to: from + 4 }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual(otherRequest(key));
    expect({ series: await seriesOf(pad), events: await usedEvents(pad), keys: await keyRows(key) }).toEqual(before);

    const fresh = await usage(pad, { from, to: from + 4 }, `${key}-next`);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(await usedEvents(pad)).toEqual([...before.events, { from, to: from + 4 }]);
  });

  it('when six copies of one key carry six different ranges in parallel, then exactly one range is recorded, its sender gets 200 and the five others 422 naming the key', async () => {
    const parallelPad = await heldPad();
    const parallelKey = `usage-${uid()}-parallel`;
    const ranges = Array.from({ length: 6 }, (_, i) => ({
      from: parallelPad.series_from + 5 * i,
      to: parallelPad.series_from + 5 * i + 4,
    }));
    const results = await Promise.all(ranges.map((range) => usage(parallelPad, { ...range, reason: 'clerks in parallel' }, parallelKey)));
    const applied = results.flatMap((res, i) => (res.statusCode === 200 ? [i] : []));
    expect(applied).toHaveLength(1);
    for (const res of results.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual(otherRequest(parallelKey));
    }
    const winner = ranges[applied[0]];
    expect(await usedEvents(parallelPad)).toEqual([winner]);
    const series = await seriesOf(parallelPad);
    expect(series.indexOf('2')).toBe(winner.from - parallelPad.series_from);
    expect(series.split('').filter((entry) => entry === '2')).toHaveLength(5);
    expect(await keyRows(parallelKey)).toEqual([expect.objectContaining({ status: 200, answer: results[applied[0]].json() })]);
  });

  it('when a key stored before fingerprints were kept is sent again, then its stored answer is replayed as before and nothing is recorded twice', async () => {
    const oldPad = await heldPad();
    const oldKey = `usage-${uid()}-before-0016`;
    const body = { from: oldPad.series_from, to: oldPad.series_from + 1 };
    const first = await usage(oldPad, body, oldKey);
    expect(first.statusCode, first.body).toBe(200);
    await t.db.update(idempotencyKeys).set({ fingerprint: null }).where(eq(idempotencyKeys.key, oldKey));
    const again = await usage(oldPad, body, oldKey);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await usedEvents(oldPad)).toEqual([body]);
  });
});

describe('a hand-over sent with an Idempotency-Key', () => {
  it('when the key comes back naming another courier, then 422 names the key and the hand-over still waits for the first one; the first request again gets its answer', async () => {
    const holder = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branchId });
    const pad = await buildPad(t.db, { route_id: routeId, heldBy: { userId: holder.user.id, branchId } });
    const giver = await signedIn(t, { role_id: ROLE.DRIVER, branch_id: branchId });
    const [first, second] = [await signedIn(t, { role_id: ROLE.DRIVER }), await signedIn(t, { role_id: ROLE.MESSENGER })];
    const created = await post(
      holder,
      'create-return-invoice',
      { pads: [pad.id], assigned_user_id: giver.user.id },
      `return-${uid()}-make`,
    );
    expect(created.statusCode, created.body).toBe(201);
    const invoiceId = created.json().data.id as number;
    const key = `handover-${uid()}-queued`;
    const answer = await post(giver, `hand-over-invoice/${invoiceId}`, { assigned_user_id: first.user.id }, key);
    expect(answer.statusCode, answer.body).toBe(200);
    const before = {
      pending: await t.db.select().from(pendingHandOvers).where(eq(pendingHandOvers.invoice_id, invoiceId)),
      activities: await t.db.select().from(activities).where(eq(activities.invoice_id, invoiceId)),
    };
    expect(before.pending).toEqual([expect.objectContaining({ from_user_id: giver.user.id, to_user_id: first.user.id })]);

    const reused = await post(giver, `hand-over-invoice/${invoiceId}`, { assigned_user_id: second.user.id }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual(otherRequest(key));
    expect({
      pending: await t.db.select().from(pendingHandOvers).where(eq(pendingHandOvers.invoice_id, invoiceId)),
      activities: await t.db.select().from(activities).where(eq(activities.invoice_id, invoiceId)),
    }).toEqual(before);

    const retried = await post(giver, `hand-over-invoice/${invoiceId}`, { assigned_user_id: first.user.id }, key);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual(answer.json());
  });
});

describe('a loss report sent with an Idempotency-Key', () => {
  it('when the key comes back for other numbers, then 422 names the key and no second incident is made', async () => {
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: branchId });
    const pad = await heldPad();
    const report = (from: number) => ({
      pads: [{ pad_id: pad.id, from, to: from + 1 }],
      place: 'Calapan pier',
      occurred_at: '2026-11-20T08:30:00+08:00',
      circumstances: 'Bag fell into the sea while boarding.',
    });
    const key = `loss-${uid()}-queued`;
    const first = await post(custodian, 'loss-incidents', report(pad.series_from), key);
    expect(first.statusCode, first.body).toBe(201);
    const reused = await post(custodian, 'loss-incidents', report(pad.series_from + 10), key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual(otherRequest(key));
    const lines = await t.db.select().from(lossIncidentPads).where(eq(lossIncidentPads.pad_id, pad.id));
    expect(lines).toEqual([
      expect.objectContaining({ incident_id: first.json().data.id, from_number: pad.series_from, to_number: pad.series_from + 1 }),
    ]);
  });
});
