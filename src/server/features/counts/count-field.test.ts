import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { COUNT_MSG } from '../../../shared/schemas/counts.ts';
import { countAsks, countItems, countResolutions } from '../../db/schema/counts.ts';
import { lossIncidentFound } from '../../db/schema/incidents.ts';
import { pads } from '../../db/schema/pads.ts';
import { users } from '../../db/schema/users.ts';
import { encodePadLabel } from '../../lib/pad-label.ts';
import { issueAndAccept } from '../../test/custody.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let custodian: Who;
let accounting: Who;
let grace: Who;
let branchHead: Who;
let courier: Who;
let auditor: Who;
let branchId: number;
let routeId: number;
let padIds: number[];
let lossNumber: string;
let lossId: number;

const { call, ok } = apiCalls(() => t);

const person = async (values: { role_id: number; branch_id: number; first_name?: string; last_name?: string }) => {
  const s = await signedIn(t, values);
  return { id: s.user.id, headers: s.headers };
};

type Variance = { id: number; kind: string; pad: { id: number }; actions: string[]; asks: Array<{ action: string; text: string }> };
const variancesOf = async (who: Who, countId: number): Promise<Variance[]> =>
  (await ok(call(who, 'GET', `/api/counts/${countId}/variances`))).data;

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOffice;
  branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  custodian = await person({ role_id: 3, branch_id: headOffice });
  accounting = await person({ role_id: 8, branch_id: headOffice });
  grace = await person({ role_id: 7, branch_id: branchId, first_name: 'Grace', last_name: 'Mendoza' });
  branchHead = await person({ role_id: 5, branch_id: branchId, first_name: 'Ben', last_name: 'Head' });
  courier = await person({ role_id: 10, branch_id: headOffice });
  auditor = await person({ role_id: 9, branch_id: headOffice, first_name: 'Ada', last_name: 'Santos' });
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1001, series_to: 1150, pad_size: 50 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
  await issueAndAccept(t, { holder: grace, custodian, courier, routeId, padIds });
  const reported = await ok(
    call(grace, 'POST', '/api/loss-incidents', {
      pads: [{ pad_id: padIds[0] }],
      place: 'Calapan pier',
      occurred_at: new Date().toISOString(),
      circumstances: 'Fell from the counter into the sea',
    }),
    201,
  );
  lossId = reported.data.id;
  lossNumber = reported.data.number;
  await ok(call(accounting, 'POST', `/api/loss-incidents/${lossId}/confirm`, { no_affidavit_reason: 'The affidavit follows by mail' }));
});

afterAll(async () => {
  await t.close();
});

describe('a count that meets a lost booklet (issue 36, 7)', () => {
  let countId: number;

  it('when a booklet declared lost is scanned, then the scan says so and the variance offers Record found, not an ordinary find', async () => {
    countId = (await ok(call(custodian, 'POST', '/api/counts', { user_id: grace.id }), 201)).data.id;
    const scanned = await ok(
      call(custodian, 'POST', `/api/counts/${countId}/items`, { code: encodePadLabel(t.ctx.badgeSecret, padIds[0]) }),
    );
    expect(scanned.message).toBe(`Batangas - Calapan · Pad 1 recorded: Declared lost on ${lossNumber}`);
    expect(scanned.data.note).toBe(`Declared lost on ${lossNumber}`);
    const [item] = await t.db
      .select()
      .from(countItems)
      .where(and(eq(countItems.count_id, countId), eq(countItems.pad_id, padIds[0])));
    expect(item).toMatchObject({ state: 'found', book_incident_id: lossId, book_note: `Declared lost on ${lossNumber}` });
    const [variance] = await variancesOf(custodian, countId);
    expect(variance).toMatchObject({ kind: 'found_lost', label: 'Lost pad found', actions: ['found', 'accept'], asks: [] });
    expect(await variancesOf(custodian, countId)).toHaveLength(1);
  });

  it('when the counter records it found, then the incident holds a found record for a second user of roles 3 or 8', async () => {
    const [variance] = await variancesOf(custodian, countId);
    const body = await ok(
      call(custodian, 'POST', `/api/counts/${countId}/variances/${variance.id}/resolve`, { action: 'found', reason: 'in the drawer' }),
    );
    expect(body.data.resolution).toMatchObject({ action: 'found', incident_id: lossId });
    const [found] = await t.db.select().from(lossIncidentFound).where(eq(lossIncidentFound.incident_id, lossId));
    expect(found).toMatchObject({ pad_id: padIds[0], from_number: 1001, to_number: 1050, recorded_by: custodian.id, confirmed_by: null });
    expect(found.reason).toBe(COUNT_MSG.foundReason(countId, 'in the drawer'));
    expect((await call(custodian, 'POST', `/api/loss-incidents/${lossId}/found/${found.id}/confirm`)).statusCode).toBe(403);
    await ok(call(accounting, 'POST', `/api/loss-incidents/${lossId}/found/${found.id}/confirm`));
    const pad = (await ok(call(custodian, 'GET', `/api/get-pad/${padIds[0]}`))).data;
    expect(pad.next_number).toBe(1001);
  });
});

describe('resolutions the counter may not take (issue 36, 8)', () => {
  let countId: number;

  it('when an Auditor counts a holder, then a missing pad offers only Accept and names who reports the loss', async () => {
    countId = (await ok(call(auditor, 'POST', '/api/counts', { user_id: grace.id }), 201)).data.id;
    await ok(call(auditor, 'POST', `/api/counts/${countId}/items`, { pad_id: padIds[0] }));
    await ok(call(auditor, 'POST', `/api/counts/${countId}/items`, { pad_id: padIds[2] }));
    const ended = await ok(call(auditor, 'POST', `/api/counts/${countId}/end-scan`));
    expect(ended.message).toBe(COUNT_MSG.scanEnded(1));
    const [missing] = await variancesOf(auditor, countId);
    expect(missing).toMatchObject({
      kind: 'missing',
      pad: { id: padIds[1] },
      actions: ['accept'],
      asks: [{ action: 'incident', text: 'Ask Grace Mendoza, the holder, to report the loss' }],
    });
    const refused = await call(auditor, 'POST', `/api/counts/${countId}/variances/${missing.id}/resolve`, {
      action: 'incident',
      reason: 'x',
    });
    expect([refused.statusCode, refused.json().message]).toEqual([403, 'Ask Grace Mendoza, the holder, to report the loss']);
    expect(await t.db.select().from(countResolutions).where(eq(countResolutions.item_id, missing.id))).toEqual([]);
  });

  it('when the holder opens Needs my action, then the count asks her to report the loss, until the variance is resolved', async () => {
    const asks = await t.db.select().from(countAsks).where(eq(countAsks.count_id, countId));
    expect(asks).toMatchObject([{ action: 'incident', user_id: grace.id }]);
    type Groups = { groups: Array<{ kind: string; count: number; items: Array<{ label: string; path: string }> }> };
    const group = async () => ((await ok(call(grace, 'GET', '/api/my-actions'))).data as Groups).groups.find((g) => g.kind === 'count_ask');
    expect(await group()).toMatchObject({
      count: 1,
      items: [
        { label: `Count #${countId}: report the loss · Batangas - Calapan · Pad 2 · asked by Ada Santos`, path: `/pads?pad=${padIds[1]}` },
      ],
    });
    const [missing] = await variancesOf(auditor, countId);
    await ok(
      call(auditor, 'POST', `/api/counts/${countId}/variances/${missing.id}/resolve`, { action: 'accept', reason: 'Grace reports it' }),
    );
    expect(await group()).toBeUndefined();
  });
});

describe('a branch count (issue 36, 9)', () => {
  it('when pads are not yet scanned, then they are no variance and the count will not close until the counter ends the scan', async () => {
    const countId = (await ok(call(custodian, 'POST', '/api/counts', { branch_id: branchId }), 201)).data.id;
    await ok(call(custodian, 'POST', `/api/counts/${countId}/items`, { pad_id: padIds[2] }));
    expect(await variancesOf(custodian, countId)).toEqual([]);
    expect((await ok(call(custodian, 'GET', `/api/counts/${countId}`))).data.not_scanned).toBe(2);
    const early = await call(custodian, 'POST', `/api/counts/${countId}/close`);
    expect([early.statusCode, early.json().message]).toEqual([409, COUNT_MSG.notYetScanned(2)]);
    expect((await call(grace, 'POST', `/api/counts/${countId}/end-scan`)).statusCode).toBe(403);
    const ended = await ok(call(custodian, 'POST', `/api/counts/${countId}/end-scan`));
    expect([ended.message, ended.data.not_scanned]).toEqual([COUNT_MSG.scanEnded(2), 0]);
    const items = await t.db.select().from(countItems).where(eq(countItems.count_id, countId)).orderBy(asc(countItems.pad_id));
    expect(items.map((i) => [i.pad_id, i.state, i.recorded_by])).toEqual([
      [padIds[0], 'missing', custodian.id],
      [padIds[1], 'missing', custodian.id],
      [padIds[2], 'found', custodian.id],
    ]);
    expect((await variancesOf(custodian, countId)).map((v) => v.kind)).toEqual(['missing', 'missing']);
  });

  it('when a branch count that listed her booklets is closed, then the holder is counted, not "never counted"', async () => {
    const before = await ok(call(custodian, 'GET', `/api/counts/last?user_id=${grace.id}`));
    expect(before.data.count_id).toBeNull();
    const countId = (await ok(call(custodian, 'POST', '/api/counts', { branch_id: branchId }), 201)).data.id;
    for (const padId of padIds) await ok(call(custodian, 'POST', `/api/counts/${countId}/items`, { pad_id: padId }));
    for (const v of await variancesOf(custodian, countId))
      await ok(call(custodian, 'POST', `/api/counts/${countId}/variances/${v.id}/resolve`, { action: 'accept', reason: 'checked' }));
    await ok(call(branchHead, 'POST', `/api/counts/${countId}/sign-off`, {}));
    await ok(call(custodian, 'POST', `/api/counts/${countId}/close`));
    const after = await ok(call(custodian, 'GET', `/api/counts/last?user_id=${grace.id}`));
    expect(after.data.count_id).toBe(countId);
    type Groups = { groups: Array<{ kind: string; items: Array<{ label: string }> }> };
    const due = ((await ok(call(custodian, 'GET', '/api/my-actions'))).data as Groups).groups.find((g) => g.kind === 'count_due');
    expect((due?.items ?? []).some((i) => i.label.startsWith('Grace Mendoza'))).toBe(false);
  });
});

describe('a count that meets a booklet in transit (issue 36, 7)', () => {
  it('when a booklet on a return is scanned, then the scan and the variance name the invoice and its courier', async () => {
    const ret = await ok(call(grace, 'POST', '/api/create-return-invoice', { pads: [padIds[2]], assigned_user_id: courier.id }), 201);
    const countId = (await ok(call(custodian, 'POST', '/api/counts', { user_id: grace.id }), 201)).data.id;
    const scanned = await ok(
      call(custodian, 'POST', `/api/counts/${countId}/items`, { code: encodePadLabel(t.ctx.badgeSecret, padIds[2]) }),
    );
    const [courierRow] = await t.db.select().from(users).where(eq(users.id, courier.id));
    const note = COUNT_MSG.inTransit(`Return #${ret.data.id}`, `${courierRow.first_name} ${courierRow.last_name}`);
    expect(scanned.message).toBe(`Batangas - Calapan · Pad 3 recorded: ${note}`);
    const variance = (await variancesOf(custodian, countId)).find((v) => v.pad.id === padIds[2]);
    expect(variance).toMatchObject({ kind: 'found_elsewhere', detail: `Found here: ${note}; the books place it with Grace Mendoza` });
  });
});

describe('a count that meets a voided booklet (issue 36, 7)', () => {
  it('when the label of a deleted pad is scanned, then the count says when it was voided and records nothing', async () => {
    await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1151, series_to: 1200, pad_size: 50 }), 201);
    const [fresh] = await t.db.select({ id: pads.id }).from(pads).where(eq(pads.series_from, 1151));
    await ok(call(custodian, 'DELETE', `/api/delete-pad/${fresh.id}`));
    const countId = (await ok(call(auditor, 'POST', '/api/counts', { user_id: grace.id }), 201)).data.id;
    const refused = await call(auditor, 'POST', `/api/counts/${countId}/items`, { code: encodePadLabel(t.ctx.badgeSecret, fresh.id) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(
      /^This booklet \(numbers 1151–1200\) was voided on \d{2} [A-Z][a-z]{2} \d{4}: it is off the books\./,
    );
    expect(await t.db.select().from(countItems).where(eq(countItems.pad_id, fresh.id))).toHaveLength(0);
  });
});
