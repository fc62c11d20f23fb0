import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, eq } from 'drizzle-orm';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
import { OUTCOME_MSG } from '../../../shared/schemas/outcomes.ts';
import { PAD_MSG, USAGE_MSG } from '../../../shared/schemas/pads.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { cancellation, issueAndAccept, latestInvoice } from '../../test/custody.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}
interface PadBody {
  id: number;
  number: number;
  series: Array<{ number: number; status: number }>;
  next_number: number | null;
  number_counts: { not_used: number; used: number; cancelled: number; lost: number };
  pad_status_id: number;
  issuance_status_id: number;
  remarks: string | null;
}

let t: TestApp;
let headOfficeId: number;
const role: Record<number, Who> = {};
let holder: Who;
let branchHead: Who;
let otherSupervisor: Who;
let courier: Who;
let routeId: number;
let padIds: number[];

const { call, ok } = apiCalls(() => t);

const getPad = async (padId: number) => (await ok(call(role[3], 'GET', `/api/get-pad/${padId}`))).data as PadBody;
const statusOf = (pad: PadBody, number: number) => pad.series.find((entry) => entry.number === number)?.status;
const usage = (who: Who, padId: number, body: object) => call(who, 'POST', `/api/pads/${padId}/usage`, body);
const outcome = (who: Who, padId: number, body: object) => call(who, 'POST', `/api/pads/${padId}/outcome`, body);

const verified = () => expectLedgerVerified(t.db);

const issueTo = (who: Who, ids: number[]) => issueAndAccept(t, { holder: who, custodian: role[3], courier, routeId, padIds: ids });

beforeAll(async () => {
  t = await createTestApp();
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  const otherBranchId = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  for (const r of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
    const { user, headers } = await signedIn(t, { role_id: r, branch_id: headOfficeId });
    role[r] = { id: user.id, headers };
  }
  const h = await signedIn(t, { role_id: 7, branch_id: branchId, first_name: 'Ana', last_name: 'Cruz' });
  holder = { id: h.user.id, headers: h.headers };
  const bh = await signedIn(t, { role_id: 5, branch_id: branchId, first_name: 'Ben', last_name: 'Head' });
  branchHead = { id: bh.user.id, headers: bh.headers };
  const os = await signedIn(t, { role_id: 6, branch_id: otherBranchId });
  otherSupervisor = { id: os.user.id, headers: os.headers };
  const c = await signedIn(t, { role_id: 10, branch_id: headOfficeId });
  courier = { id: c.user.id, headers: c.headers };
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(role[3], 'POST', '/api/add-pad', { route_id: routeId, series_from: 1001, series_to: 1500, pad_size: 50 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
  await issueTo(holder, [padIds[0], padIds[1], padIds[2], padIds[3]]);
});
afterAll(async () => {
  await t.close();
});

describe('usage by range', () => {
  it('when the holder marks 1001-1037 in one request, then all 37 are used, the next number is 1038 and the ledger verifies', async () => {
    const body = await ok(usage(holder, padIds[0], { from: 1001, to: 1037 }));
    expect(body.message).toBe(USAGE_MSG.recorded(1001, 1037));
    expect(body.data.next_number).toBe(1038);
    expect(body.data.number_counts).toEqual({ not_used: 13, used: 37, cancelled: 0, lost: 0 });
    const events = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padIds[0])).orderBy(asc(padEvents.seq));
    expect(events.at(-1)).toMatchObject({
      kind: 'used',
      from_number: 1001,
      to_number: 1037,
      qty: 37,
      holder_user_id: holder.id,
      actor_user_id: holder.id,
    });
    await verified();
  });

  it('when usage starts after the next number, then it needs a reason and the skipped numbers are cancelled with it', async () => {
    const refused = await usage(holder, padIds[0], { from: 1041, to: 1042 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ reason: [USAGE_MSG.reasonForSkip(1038)] });
    const body = await ok(usage(holder, padIds[0], { from: 1041, to: 1042, reason: 'receipts 1038-1040 torn out' }));
    expect([1038, 1039, 1040].map((n) => statusOf(body.data, n))).toEqual([3, 3, 3]);
    expect([1041, 1042].map((n) => statusOf(body.data, n))).toEqual([2, 2]);
    const [cancelled] = await t.db.select().from(padEvents).where(eq(padEvents.kind, 'cancelled')).orderBy(desc(padEvents.id)).limit(1);
    expect(cancelled).toMatchObject({
      from_number: 1038,
      to_number: 1040,
      reason: 'Skipped in sequence: receipts 1038-1040 torn out',
      copies_retained: true,
    });
    await verified();
  });

  it('when a used or cancelled number is in the range, then 409 names it and nothing changes', async () => {
    const before = await getPad(padIds[0]);
    const used = await usage(holder, padIds[0], { from: 1042, to: 1044 });
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe(USAGE_MSG.consumed(1042, 'used'));
    const cancelled = await usage(holder, padIds[0], { from: 1039, to: 1039, reason: 'x' });
    expect(cancelled.json().message).toBe(USAGE_MSG.consumed(1039, 'cancelled'));
    expect((await getPad(padIds[0])).series).toEqual(before.series);
  });

  it('when roles without usage rights or holders of another branch record usage, then 403; off-pad numbers 422', async () => {
    for (const r of [1, 2, 4, 9, 10, 11]) expect((await usage(role[r], padIds[1], { from: 1051 })).statusCode, `role ${r}`).toBe(403);
    expect((await usage(otherSupervisor, padIds[1], { from: 1051 })).statusCode).toBe(403);
    expect((await usage(holder, padIds[1], { from: 999, to: 1051 })).statusCode).toBe(422);
    expect((await usage(holder, padIds[1], { from: 1060, to: 1059 })).json().errors).toEqual({ to: [USAGE_MSG.toBeforeFrom] });
    expect((await getPad(padIds[1])).number_counts.used).toBe(0);
  });

  it('when the holder starts a second booklet of the route while one is partly used, then the answer warns', async () => {
    const body = await ok(usage(holder, padIds[1], { from: 1051, to: 1052 }));
    const first = await getPad(padIds[0]);
    expect(body.warning).toBe(USAGE_MSG.oneBookletAtATime(first.number));
  });

  it('when 20 usage records of one pad run in parallel, then each is applied whole or refused, the pad matches the events and the chain verifies', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => usage(holder, padIds[2], { from: 1101 + 2 * i, to: 1102 + 2 * i, reason: 'parallel clerks' })),
    );
    for (const res of results) expect([200, 409]).toContain(res.statusCode);
    const pad = await getPad(padIds[2]);
    const applied = results.flatMap((res, i) => (res.statusCode === 200 ? [i] : []));
    expect(applied.length).toBeGreaterThan(0);
    for (const i of applied) expect([statusOf(pad, 1101 + 2 * i), statusOf(pad, 1102 + 2 * i)]).toEqual([2, 2]);
    expect(pad.number_counts.used).toBe(applied.length * 2);
    await verified();
  });
});

describe('cancelling numbers', () => {
  let requestId: number;

  it('when a holder without approval rights asks to cancel, then 202 and the request waits in their Branch Head\u2019s Needs my action', async () => {
    const res = await outcome(holder, padIds[0], cancellation(1043, 1044));
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().message).toBe(OUTCOME_MSG.pending);
    requestId = res.json().data.request_id;
    expect(statusOf(await getPad(padIds[0]), 1043)).toBe(1);
    const pending = (await ok(call(branchHead, 'GET', '/api/outcome-requests'))).data as Array<{
      id: number;
      from: number;
      to: number;
      reason: string;
    }>;
    expect(pending).toEqual([
      expect.objectContaining({ id: requestId, from: 1043, to: 1044, reason: 'Spoiled (torn, stained, misprinted): coffee' }),
    ]);
    expect((await ok(call(otherSupervisor, 'GET', '/api/outcome-requests'))).data).toEqual([]);
    const actions = (await ok(call(branchHead, 'GET', '/api/my-actions'))).data as { groups: Array<{ kind: string; count: number }> };
    expect(actions.groups.find((g) => g.kind === 'approve_outcome')?.count).toBe(1);
  });

  it('when someone outside the holder\u2019s branch approves, then 403; the Branch Head approves, then the numbers are cancelled with the approver on the event', async () => {
    expect((await call(otherSupervisor, 'POST', `/api/outcome-requests/${requestId}/approve`)).statusCode).toBe(403);
    expect((await call(holder, 'POST', `/api/outcome-requests/${requestId}/approve`)).statusCode).toBe(403);
    const body = await ok(call(branchHead, 'POST', `/api/outcome-requests/${requestId}/approve`));
    expect([statusOf(body.data, 1043), statusOf(body.data, 1044)]).toEqual([3, 3]);
    const [event] = await t.db.select().from(padEvents).where(eq(padEvents.kind, 'cancelled')).orderBy(desc(padEvents.id)).limit(1);
    expect(event).toMatchObject({
      from_number: 1043,
      to_number: 1044,
      actor_user_id: holder.id,
      approver_user_id: branchHead.id,
      copies_retained: true,
    });
    expect((await call(branchHead, 'POST', `/api/outcome-requests/${requestId}/approve`)).json().message).toBe(OUTCOME_MSG.requestDone);
    await verified();
  });

  it('when a cancelled or used number is cancelled again, then 409 for every approver', async () => {
    const again = await outcome(role[3], padIds[0], cancellation(1044, 1045));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(USAGE_MSG.consumed(1044, 'cancelled'));
    expect((await outcome(branchHead, padIds[0], cancellation(1001, 1001))).statusCode).toBe(409);
    expect((await outcome(holder, padIds[0], cancellation(1001, 1001))).statusCode).toBe(409);
  });

  it('when an approver cancels, then it applies at once (200); a rejected request changes nothing', async () => {
    const body = await ok(outcome(role[8], padIds[0], cancellation(1045, 1045)));
    expect(statusOf(body.data, 1045)).toBe(3);
    const asked = await outcome(holder, padIds[0], cancellation(1046, 1046));
    const id = asked.json().data.request_id as number;
    expect((await call(branchHead, 'POST', `/api/outcome-requests/${id}/reject`, {})).statusCode).toBe(422);
    const rejected = await ok(call(branchHead, 'POST', `/api/outcome-requests/${id}/reject`, { reason: 'Receipt is fine' }));
    expect(rejected.data).toMatchObject({ status: 'rejected', rejection_reason: 'Receipt is fine' });
    expect(statusOf(await getPad(padIds[0]), 1046)).toBe(1);
  });

  it('when the reason is missing, not on the list, or Other without details, then 422 on that field', async () => {
    expect((await outcome(role[3], padIds[0], { from: 1047, outcome: 'cancelled', copies_retained: true })).json().errors).toHaveProperty(
      'reason',
    );
    expect((await outcome(role[3], padIds[0], { ...cancellation(1047, 1047), reason: 'Because' })).json().errors).toEqual({
      reason: [OUTCOME_MSG.reasonNotListed],
    });
    expect((await outcome(role[3], padIds[0], { ...cancellation(1047, 1047), reason: 'Other', details: '' })).json().errors).toEqual({
      details: [OUTCOME_MSG.detailsForOther],
    });
    expect(
      (await outcome(role[3], padIds[0], { from: 1047, outcome: 'cancelled', reason: 'Spoiled (torn, stained, misprinted)' })).json()
        .errors,
    ).toEqual({ copies_retained: [OUTCOME_MSG.copiesRequired] });
  });

  it('when the grid edit touches a cancelled number or sets one, then it is refused; 1 and 2 still toggle', async () => {
    const pad = await getPad(padIds[0]);
    const put = (series: PadBody['series']) =>
      call(holder, 'PUT', `/api/update-pad/${pad.id}`, {
        pad_status_id: pad.pad_status_id,
        issuance_status_id: pad.issuance_status_id,
        remarks: pad.remarks,
        series,
      });
    const unCancel = await put(pad.series.map((e) => (e.number === 1043 ? { ...e, status: 1 } : e)));
    expect(unCancel.statusCode).toBe(409);
    const setCancel = await put(pad.series.map((e) => (e.number === 1049 ? { ...e, status: 3 } : e)));
    expect(setCancel.json().errors).toEqual({ series: [USAGE_MSG.outcomeByAction] });
    expect((await put(pad.series.map((e) => (e.number === 1049 ? { ...e, status: 2 } : e)))).statusCode).toBe(200);
  });

  it('when a cancellation is undone, then only approvers may, it is a new cancel_reverted event and the number is unused again', async () => {
    expect(
      (await call(holder, 'POST', '/api/outcome-reverts', { pad_id: padIds[0], from: 1045, to: 1045, reason: 'Cancelled by mistake' }))
        .statusCode,
    ).toBe(403);
    const notCancelled = await call(branchHead, 'POST', '/api/outcome-reverts', { pad_id: padIds[0], from: 1046, to: 1046, reason: 'x' });
    expect(notCancelled.json().message).toBe(OUTCOME_MSG.notCancelled(1046));
    const body = await ok(
      call(branchHead, 'POST', '/api/outcome-reverts', { pad_id: padIds[0], from: 1045, to: 1045, reason: 'Cancelled by mistake' }),
    );
    expect(statusOf(body.data, 1045)).toBe(1);
    const [event] = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padIds[0])).orderBy(desc(padEvents.seq)).limit(1);
    expect(event).toMatchObject({
      kind: 'cancel_reverted',
      from_number: 1045,
      to_number: 1045,
      reason: 'Cancelled by mistake',
      holder_user_id: holder.id,
    });
    await verified();
  });

  it('when the month\u2019s RAAF is read, then Issued counts used and cancelled with reasons and an undone cancellation says who cancelled it', async () => {
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: t.ctx.config.timeZone, year: 'numeric', month: '2-digit' }).format(
      new Date(),
    );
    const raaf = (await ok(call(holder, 'GET', `/api/raaf?month=${month}&user_id=${holder.id}`))).data as {
      rows: Array<{ issued: { by_kind: Record<string, number> }; remarks: string[] }>;
    };
    const row = raaf.rows[0];
    const cancelledNow = (await Promise.all(padIds.slice(0, 4).map(getPad))).reduce((sum, pad) => sum + pad.number_counts.cancelled, 0);
    expect(row.issued.by_kind.cancelled, 'every cancellation of the month, 1045 too though it was undone').toBe(cancelledNow + 1);
    expect(row.remarks).toEqual(
      expect.arrayContaining([
        'Cancelled 1038-1040 (3): Skipped in sequence: receipts 1038-1040 torn out',
        'Cancelled 1043-1044 (2): Spoiled (torn, stained, misprinted): coffee',
        expect.stringMatching(/^1045 \(1\) cancellation undone: Cancelled by mistake; cancelled by .+ on \d{1,2} \w{3} \d{4}$/),
      ]),
    );
    expect(row.remarks.some((remark) => remark.startsWith('Correction'))).toBe(false);
  });
});

describe('the booklet and deleted pads', () => {
  it('when a fully used booklet is returned and accepted, then custody_out and custody_in of quantity 0 show how it travelled', async () => {
    await ok(usage(holder, padIds[3], { from: 1151, to: 1200 }));
    await ok(call(holder, 'POST', '/api/create-return-invoice', { pads: [padIds[3]], assigned_user_id: courier.id }), 201);
    const returned = await latestInvoice(t, INVOICE_TYPE.RETURN);
    await ok(call(role[8], 'POST', `/api/accept-invoice/${returned.id}`));
    const history = (await ok(call(role[9], 'GET', `/api/pad-history/${padIds[3]}`))).data as {
      events: Array<{ kind: string; qty: number; holder_branch: { id: number } | null }>;
      holder: { branch: { id: number } | null };
    };
    expect(history.events.slice(-2)).toEqual([
      expect.objectContaining({ kind: 'custody_out', qty: 0 }),
      expect.objectContaining({ kind: 'custody_in', qty: 0, holder_branch: expect.objectContaining({ id: headOfficeId }) }),
    ]);
    expect(history.holder.branch?.id).toBe(headOfficeId);
    await verified();
  });

  it('when a pad with history beyond its receipt is deleted, then 409 says why; a pad with only its receipt leaves a voided event and Find receipt still answers', async () => {
    const refused = await call(role[3], 'DELETE', `/api/delete-pad/${padIds[2]}`);
    expect(refused.statusCode).toBe(409);
    expect([PAD_MSG.onInvoice, PAD_MSG.hasHistory]).toContain(refused.json().message);
    await ok(outcome(role[3], padIds[9], cancellation(1451, 1451)));
    expect((await call(role[3], 'DELETE', `/api/delete-pad/${padIds[9]}`)).json().message).toBe(PAD_MSG.hasHistory);
    const fresh = await getPad(padIds[8]);
    await ok(call(role[3], 'DELETE', `/api/delete-pad/${padIds[8]}`));
    const found = (await ok(call(role[9], 'GET', '/api/find-receipt?number=1410'))).data as Array<{
      pad: { number: number };
      voided: { by: { id: number } } | null;
      status: string;
    }>;
    expect(found).toEqual([
      expect.objectContaining({
        pad: expect.objectContaining({ number: fresh.number }),
        status: 'cancelled',
        voided: expect.objectContaining({ by: expect.objectContaining({ id: role[3].id }) }),
      }),
    ]);
    await verified();
  });
});

describe('usage queued on a phone (docs/design.md §2 offline)', () => {
  it('when the same queued usage arrives 6 times in parallel with one Idempotency-Key, then it applies once, every copy gets the first answer, and the ledger keeps the phone time beside its own', async () => {
    await issueTo(holder, [padIds[7]]);
    const [first] = (await getPad(padIds[7])).series;
    const deviceAt = '2026-11-26T06:02:00.000Z';
    const body = { from: first.number, to: first.number + 4, device_at: deviceAt };
    const key = `usage-${padIds[7]}-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({
          method: 'POST',
          url: `/api/pads/${padIds[7]}/usage`,
          headers: { ...holder.headers, 'idempotency-key': key },
          payload: body,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    for (const r of results) expect(r.json()).toEqual(results[0].json());
    expect(results[0].json().data.number_counts).toMatchObject({ used: 5 });
    const used = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padIds[7])).orderBy(asc(padEvents.seq));
    expect(used.filter((e) => e.kind === 'used')).toHaveLength(1);
    const event = used.at(-1);
    expect(event?.device_at?.toISOString()).toBe(deviceAt);
    expect(event?.recorded_at.getTime()).toBeGreaterThan(Date.parse(deviceAt));
    expect((await getPad(padIds[7])).number_counts).toMatchObject({ used: 5 });
    await verified();

    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/pads/${padIds[7]}/usage`,
      headers: { ...holder.headers, 'idempotency-key': `${key}-b` },
      payload: body,
    });
    expect(refused.statusCode).toBe(409);
    expect((await getPad(padIds[7])).number_counts).toMatchObject({ used: 5 });
  });
});
