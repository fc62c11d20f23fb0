import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { INCIDENT_MSG } from '../../../shared/schemas/incidents.ts';
import { OUTCOME_MSG } from '../../../shared/schemas/outcomes.ts';
import { PAD_MSG, type Pad } from '../../../shared/schemas/pads.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { businessDate } from '../ledger/lifecycle.ts';
import { createBranch, createRoute, signedIn, storedPadRows } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let headOfficeId: number;
let custodian: Who;
let accounting: Who;
let nextFrom = 3_000_001;

const { call, ok } = apiCalls(() => t);

const getPad = async (padId: number): Promise<Pad> => (await ok(call(custodian, 'GET', `/api/get-pad/${padId}`))).data;
const storedPad = async (padId: number) => (await storedPadRows(t.db).where(eq(pads.id, padId)))[0];
const eventCount = async (padId: number) => (await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padId))).length;
const receiptStatus = async (number: number) =>
  ((await ok(call(custodian, 'GET', `/api/find-receipt?number=${number}`))).data as Array<{ status: string }>)[0].status;
const headOfficeRaaf = () =>
  call(custodian, 'GET', `/api/raaf?month=${businessDate(new Date(), t.ctx.config.timeZone).slice(0, 7)}&branch_id=${headOfficeId}`);

/** A fresh pad of 50 numbers held by the head office, as add-pad makes it. */
async function newPad(): Promise<Pad> {
  const route = await createRoute(t.db);
  const from = nextFrom;
  nextFrom += 50;
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: route.id, series_from: from, series_to: from + 49 }), 201);
  const [row] = await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, route.id)).orderBy(asc(pads.number));
  return getPad(row.id);
}

/** Edit Pad's save: the loaded pad with these changes. */
const savePad = (pad: Pad, changes: Partial<Pick<Pad, 'pad_status_id' | 'series' | 'remarks'>>) =>
  call(custodian, 'PUT', `/api/update-pad/${pad.id}`, {
    pad_status_id: pad.pad_status_id,
    issuance_status_id: pad.issuance_status_id,
    remarks: pad.remarks,
    series: pad.series,
    ...changes,
  });

const cancelNumber = (padId: number, number: number) =>
  ok(
    call(custodian, 'POST', `/api/pads/${padId}/outcome`, {
      from: number,
      outcome: 'cancelled',
      reason: 'Spoiled (torn, stained, misprinted)',
      copies_retained: true,
    }),
  );

/** A confirmed loss incident of from..to of the pad, reported by the custodian and confirmed by accounting. */
async function confirmedLoss(padId: number, from: number, to: number): Promise<number> {
  const reported = await ok(
    call(custodian, 'POST', '/api/loss-incidents', {
      pads: [{ pad_id: padId, from, to }],
      place: 'Calapan pier',
      occurred_at: new Date(Date.now() - 3_600_000).toISOString(),
      circumstances: 'Dropped into the sea while boarding.',
    }),
    201,
  );
  await ok(call(accounting, 'POST', `/api/loss-incidents/${reported.data.id}/confirm`, { no_affidavit_reason: 'Affidavit to follow' }));
  return reported.data.id;
}

beforeAll(async () => {
  t = await createTestApp();
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const c = await signedIn(t, { role_id: 3, branch_id: headOfficeId });
  custodian = { id: c.user.id, headers: c.headers };
  const a = await signedIn(t, { role_id: 8, branch_id: headOfficeId });
  accounting = { id: a.user.id, headers: a.headers };
});
afterAll(async () => {
  await t.close();
});

describe('a pad written off as a whole (issue 33, item 1)', () => {
  it('when 3000005 is cancelled, the pad is set Cancelled and 3000005 is undone, then 409 says to reinstate the pad first, nothing changes, and reinstating keeps the RAAF and the ledger sound', async () => {
    const pad = await newPad();
    expect(pad.series_number).toBe('3000001-3000050');
    await cancelNumber(pad.id, 3000005);
    await ok(savePad(await getPad(pad.id), { pad_status_id: PAD_STATUS.CANCELLED }));
    const before = await storedPad(pad.id);
    const events = await eventCount(pad.id);

    const undo = await call(custodian, 'POST', '/api/outcome-reverts', { pad_id: pad.id, from: 3000005, reason: 'Not spoiled after all' });
    expect(undo.statusCode).toBe(409);
    expect(undo.json()).toEqual({ message: OUTCOME_MSG.reinstatePadFirst(pad.number, 'cancelled') });
    expect(await storedPad(pad.id)).toEqual(before);
    expect(await eventCount(pad.id)).toBe(events);
    expect(await receiptStatus(3000005)).toBe('cancelled');
    expect((await headOfficeRaaf()).statusCode).toBe(200);
    await expectLedgerVerified(t.db);

    const reinstated = await ok(savePad(await getPad(pad.id), { pad_status_id: PAD_STATUS.UNUSED }));
    expect(reinstated.data.pad_status_id).toBe(PAD_STATUS.PARTIALLY_USED);
    expect(await receiptStatus(3000005)).toBe('cancelled');
    expect(await receiptStatus(3000006)).toBe('not_used');
    expect((await headOfficeRaaf()).statusCode).toBe(200);
    await expectLedgerVerified(t.db);

    const undone = await ok(
      call(custodian, 'POST', '/api/outcome-reverts', { pad_id: pad.id, from: 3000005, reason: 'Not spoiled after all' }),
    );
    expect(undone.data.pad_status_id).toBe(PAD_STATUS.UNUSED);
    expect(await receiptStatus(3000005)).toBe('not_used');
    expect((await headOfficeRaaf()).statusCode).toBe(200);
    await expectLedgerVerified(t.db);
  });

  it('when numbers of a loss incident are found while their pad is Lost as a whole, then both found steps answer 409 to reinstate the pad first and nothing changes', async () => {
    const pad = await newPad();
    const first = pad.series[0].number;
    const incidentId = await confirmedLoss(pad.id, first + 10, first + 14);
    const recorded = await ok(
      call(custodian, 'POST', `/api/loss-incidents/${incidentId}/found`, {
        pad_id: pad.id,
        from: first + 10,
        to: first + 11,
        reason: 'In a jacket',
      }),
    );
    await ok(savePad(await getPad(pad.id), { pad_status_id: PAD_STATUS.LOST }));
    const before = await storedPad(pad.id);
    const events = await eventCount(pad.id);

    const confirm = await call(accounting, 'POST', `/api/loss-incidents/${incidentId}/found/${recorded.data.found[0].id}/confirm`);
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toEqual({ message: INCIDENT_MSG.reinstatePadFirst(pad.number, 'lost') });
    const again = await call(custodian, 'POST', `/api/loss-incidents/${incidentId}/found`, {
      pad_id: pad.id,
      from: first + 12,
      to: first + 12,
      reason: 'Under a seat',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: INCIDENT_MSG.reinstatePadFirst(pad.number, 'lost') });
    expect(await storedPad(pad.id)).toEqual(before);
    expect(await eventCount(pad.id)).toBe(events);
    expect(await receiptStatus(first + 10)).toBe('lost');
    await expectLedgerVerified(t.db);

    await ok(savePad(await getPad(pad.id), { pad_status_id: PAD_STATUS.UNUSED }));
    await ok(call(accounting, 'POST', `/api/loss-incidents/${incidentId}/found/${recorded.data.found[0].id}/confirm`));
    expect(await receiptStatus(first + 10)).toBe('not_used');
    expect(await receiptStatus(first + 12)).toBe('lost');
    expect((await headOfficeRaaf()).statusCode).toBe(200);
    await expectLedgerVerified(t.db);
  });

  it('when the series of a pad Cancelled or Lost as a whole is toggled, then 409 says to reinstate the pad first and nothing changes; in the request that writes the pad off it is allowed', async () => {
    for (const [status, word] of [
      [PAD_STATUS.CANCELLED, 'cancelled'],
      [PAD_STATUS.LOST, 'lost'],
    ] as const) {
      const pad = await newPad();
      const writtenOff = (
        await ok(savePad(pad, { pad_status_id: status, series: pad.series.map((e, i) => (i < 3 ? { ...e, status: 2 } : e)) }))
      ).data as Pad;
      expect(writtenOff.pad_status_id).toBe(status);
      const before = await storedPad(pad.id);
      const attempts = [
        { series: writtenOff.series.map((e, i) => (i === 10 ? { ...e, status: 2 } : e)) },
        { series: writtenOff.series.map((e, i) => (i === 0 ? { ...e, status: 1 } : e)) },
        { pad_status_id: PAD_STATUS.UNUSED, series: writtenOff.series.map((e, i) => (i === 10 ? { ...e, status: 2 } : e)) },
      ];
      for (const attempt of attempts) {
        const res = await savePad(writtenOff, attempt);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ message: PAD_MSG.reinstateFirst(pad.number, word) });
      }
      expect(await storedPad(pad.id)).toEqual(before);
      expect(await receiptStatus(pad.series[10].number)).toBe(word);
      await expectLedgerVerified(t.db);
    }
  });

  it('when a pad status other than Cancelled or Lost is chosen, then the stored status is what the numbers say', async () => {
    const pad = await newPad();
    await cancelNumber(pad.id, pad.series[0].number);
    const partly = await getPad(pad.id);
    expect(partly.pad_status_id).toBe(PAD_STATUS.PARTIALLY_USED);
    for (const chosen of [PAD_STATUS.USED, PAD_STATUS.UNUSED]) {
      const res = await ok(savePad(await getPad(pad.id), { pad_status_id: chosen }));
      expect(res.data.pad_status_id).toBe(PAD_STATUS.PARTIALLY_USED);
      expect((await storedPad(pad.id)).pad_status_id).toBe(PAD_STATUS.PARTIALLY_USED);
    }
    await ok(savePad(await getPad(pad.id), { pad_status_id: PAD_STATUS.LOST }));
    const reinstated = await ok(savePad(await getPad(pad.id), { pad_status_id: PAD_STATUS.USED }));
    expect(reinstated.data.pad_status_id).toBe(PAD_STATUS.PARTIALLY_USED);
    expect((await storedPad(pad.id)).pad_status_id).toBe(PAD_STATUS.PARTIALLY_USED);
    await expectLedgerVerified(t.db);
  });

  it('when the numbers of a pad written off as a whole are changed in the database, then its trigger refuses it', async () => {
    const pad = await newPad();
    await ok(savePad(pad, { pad_status_id: PAD_STATUS.CANCELLED }));
    const before = await storedPad(pad.id);
    const failure = await t.db.execute(sql`update pads set series_status = '3' || substr(series_status, 2) where id = ${pad.id}`).then(
      () => 'applied',
      (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
    );
    expect(failure).toMatch(/written off as a whole/);
    expect(await storedPad(pad.id)).toEqual(before);
  });
});
