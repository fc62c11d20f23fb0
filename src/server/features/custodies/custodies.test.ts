import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS, USER_STATUS } from '../../../shared/lookups.ts';
import { CUSTODY_MSG } from '../../../shared/schemas/custodies.ts';
import { INVOICE_MSG } from '../../../shared/schemas/invoices.ts';
import { activities, invoicePads, invoices } from '../../db/schema/invoices.ts';
import { pads } from '../../db/schema/pads.ts';
import { locations } from '../../db/schema/reference.ts';
import {
  buildInvoice,
  buildPad,
  createBranch,
  createLocation,
  createRoute,
  createUser,
  signedIn,
  storedPadRows,
} from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let headOffice: Awaited<ReturnType<typeof createBranch>>;

beforeAll(async () => {
  t = await createTestApp();
  headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  /* These tests hand over with the two-party setting off; hand-over-two-party.test.ts covers it on. */
  t.ctx.config.twoPartyHandOver = false;
});
afterAll(async () => {
  await t.close();
});

type Session = Awaited<ReturnType<typeof signedIn>>;
type Headers = Session['headers'];

const post = (url: string, headers: Headers, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `/api/${url}`, headers, payload: payload as object });
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url: `/api/${url}`, headers });
const accept = (invoiceId: number, who: Session) => post(`accept-invoice/${invoiceId}`, who.headers);

async function invoiceRow(id: number) {
  const [row] = await t.db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}
const padRows = (ids: number[]) => storedPadRows(t.db).where(inArray(pads.id, ids)).orderBy(asc(pads.id));
const activityRows = (invoiceId: number) =>
  t.db.select().from(activities).where(eq(activities.invoice_id, invoiceId)).orderBy(asc(activities.id));

async function branchAt(name: string) {
  const location = await createLocation(t.db, { name: `${name} Port` });
  return createBranch(t.db, { name, location_id: location.id });
}

/** A role-5 holder at a branch with some pads, and a driver to carry them. */
async function holderWithPads(count = 2, holderRole = 5) {
  const branch = await branchAt(`Branch ${Math.random().toString(36).slice(2, 8)}`);
  const holder = await signedIn(t, { role_id: holderRole, branch_id: branch.id });
  const route = await createRoute(t.db);
  const held = [];
  for (let i = 0; i < count; i += 1)
    held.push(await buildPad(t.db, { route_id: route.id, heldBy: { userId: holder.user.id, branchId: branch.id } }));
  const courier = await signedIn(t, { role_id: 10, branch_id: branch.id });
  return { branch, holder, route, held, padIds: held.map((p) => p.id), courier };
}

describe('custody API', () => {
  it('when nobody is signed in, then every custody call answers 401', async () => {
    for (const [method, url] of [
      ['GET', 'get-in-transit-invoices'],
      ['GET', 'get-user-pads'],
      ['POST', 'create-return-invoice'],
      ['POST', 'create-turnover-invoice'],
      ['POST', 'hand-over-invoice/1'],
    ] as const) {
      const res = await t.app.inject({ method, url: `/api/${url}`, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('when the Auditor holds pads and tries a Return or a Turnover, then both are refused with 403 and the pads stay unlocked', async () => {
    const { holder, padIds, courier } = await holderWithPads(1, 9);
    const destination = await branchAt('Auditor Target');
    const ret = await post('create-return-invoice', holder.headers, { pads: padIds, assigned_user_id: courier.user.id });
    expect(ret.statusCode).toBe(403);
    const turn = await post('create-turnover-invoice', holder.headers, {
      pads: padIds,
      branch_id: destination.id,
      assigned_user_id: courier.user.id,
    });
    expect(turn.statusCode).toBe(403);
    expect((await padRows(padIds))[0].locked_by_invoice_id).toBeNull();
  });
  it('when a holder returns pads, then the invoice, locks and activity are stored, the courier hands over, and Accounting accepts them back to the head office', async () => {
    const { branch, holder, held, padIds, courier, route } = await holderWithPads(2);
    await t.db
      .update(pads)
      .set({ pad_status_id: PAD_STATUS.PARTIALLY_USED, series_status: '2'.repeat(10) + '1'.repeat(40) })
      .where(eq(pads.id, padIds[0]));

    const own = await get('get-user-pads', holder.headers);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ total: 2, current_page: 1, last_page: 1, per_page: 10 });
    expect(own.json().data[0]).toMatchObject({
      id: padIds[0],
      number: held[0].number,
      series_number: `${held[0].series_from}-${held[0].series_to}`,
      route: { id: route.id, company: { id: route.company_id } },
      pad_status: { id: PAD_STATUS.PARTIALLY_USED, name: 'Partially Used' },
      issuance_status: { id: ISSUANCE_STATUS.ISSUED, name: 'Issued' },
      holder_user_id: holder.user.id,
      locked_by_invoice_id: null,
    });
    const series = own.json().data[0].series;
    expect(series).toHaveLength(50);
    expect(series[9]).toEqual({ number: held[0].series_from + 9, status: 2 });
    expect(series[10]).toEqual({ number: held[0].series_from + 10, status: 1 });

    const created = await post('create-return-invoice', holder.headers, { pads: padIds, assigned_user_id: courier.user.id });
    expect(created.statusCode).toBe(201);
    expect(created.json().message).toBe(CUSTODY_MSG.returnCreated);
    const data = created.json().data;
    expect(data).toMatchObject({
      invoice_type: { id: INVOICE_TYPE.RETURN, name: 'Return' },
      invoice_status: { id: INVOICE_STATUS.IN_TRANSIT, name: 'In-Transit' },
      user: { id: holder.user.id, branch: { id: branch.id, name: branch.name } },
      branch: { id: headOffice.id, name: 'Head Office' },
      assigned_user: { id: courier.user.id },
      pads: 2,
    });

    const stored = await invoiceRow(data.id);
    expect(stored).toMatchObject({
      invoice_type_id: INVOICE_TYPE.RETURN,
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      user_id: holder.user.id,
      created_by: holder.user.id,
      from_branch_id: branch.id,
      branch_id: headOffice.id,
      route_id: route.id,
      assigned_user_id: courier.user.id,
      pad_count: 2,
    });
    const links = await t.db.select().from(invoicePads).where(eq(invoicePads.invoice_id, data.id));
    expect(links.map((l) => l.pad_id).sort()).toEqual([...padIds].sort());
    for (const pad of await padRows(padIds)) {
      expect(pad).toMatchObject({ locked_by_invoice_id: data.id, holder_user_id: holder.user.id, holder_branch_id: branch.id });
    }
    const [created1] = await activityRows(data.id);
    const [place] = await t.db.select().from(locations).where(eq(locations.id, branch.location_id));
    expect(created1).toMatchObject({
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      user_id: holder.user.id,
      assigned_user_id: courier.user.id,
      location: place.name,
    });
    expect(created1.description).toContain('Return of 2 pads to Head Office');
    expect((await get('get-user-pads', holder.headers)).json().total).toBe(0);

    const carried = await get('get-in-transit-invoices', courier.headers);
    expect(carried.json().data.map((i: { id: number }) => i.id)).toEqual([data.id]);

    const next = await signedIn(t, { role_id: 11, branch_id: headOffice.id });
    const handed = await post(`hand-over-invoice/${data.id}`, courier.headers, { assigned_user_id: next.user.id });
    expect(handed.statusCode).toBe(200);
    expect(handed.json()).toMatchObject({ message: CUSTODY_MSG.handedOver, data: { assigned_user_id: next.user.id } });
    expect((await invoiceRow(data.id)).assigned_user_id).toBe(next.user.id);
    const afterHandOver = await activityRows(data.id);
    expect(afterHandOver).toHaveLength(2);
    expect(afterHandOver[1]).toMatchObject({
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      user_id: courier.user.id,
      assigned_user_id: next.user.id,
    });
    expect(afterHandOver[1].description).toBe(`Custody handed over to ${next.user.first_name} ${next.user.last_name}`);
    expect((await get('get-in-transit-invoices', courier.headers)).json().total).toBe(0);
    expect((await get('get-in-transit-invoices', next.headers)).json().data[0].id).toBe(data.id);

    const accounting = await signedIn(t, { role_id: 8, branch_id: headOffice.id });
    const accepted = await accept(data.id, accounting);
    expect(accepted.statusCode).toBe(200);
    expect(await invoiceRow(data.id)).toMatchObject({ invoice_status_id: INVOICE_STATUS.COMPLETED, accepted_by: accounting.user.id });
    const [p1, p2] = await padRows(padIds);
    for (const pad of [p1, p2]) {
      expect(pad).toMatchObject({
        locked_by_invoice_id: null,
        holder_user_id: null,
        holder_branch_id: headOffice.id,
        issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
      });
    }
    expect(p1.pad_status_id).toBe(PAD_STATUS.PARTIALLY_USED);
    expect(p2.pad_status_id).toBe(PAD_STATUS.UNUSED);
    const finalActivities = await activityRows(data.id);
    expect(finalActivities.map((a) => a.invoice_status_id)).toEqual([
      INVOICE_STATUS.IN_TRANSIT,
      INVOICE_STATUS.IN_TRANSIT,
      INVOICE_STATUS.COMPLETED,
    ]);
    expect(finalActivities[2]).toMatchObject({ user_id: accounting.user.id });
    expect(finalActivities[2].description).toContain('Return accepted by');
    expect((await get('get-in-transit-invoices', next.headers)).json().total).toBe(0);
  });

  it('when a holder turns pads over to another branch, then a supervisor there accepts them into their own custody', async () => {
    const { branch, holder, padIds, courier } = await holderWithPads(3);
    const destination = await branchAt('Batangas Agency');
    const created = await post('create-turnover-invoice', holder.headers, {
      pads: padIds.slice(0, 2),
      branch_id: destination.id,
      assigned_user_id: courier.user.id,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().message).toBe(CUSTODY_MSG.turnoverCreated);
    const id = created.json().data.id;
    expect(await invoiceRow(id)).toMatchObject({
      invoice_type_id: INVOICE_TYPE.TURNOVER,
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      user_id: holder.user.id,
      created_by: holder.user.id,
      from_branch_id: branch.id,
      branch_id: destination.id,
      assigned_user_id: courier.user.id,
      pad_count: 2,
    });
    const [a, b, c] = await padRows(padIds);
    expect([a.locked_by_invoice_id, b.locked_by_invoice_id, c.locked_by_invoice_id]).toEqual([id, id, null]);
    expect((await get('get-user-pads', holder.headers)).json().data.map((p: { id: number }) => p.id)).toEqual([c.id]);
    const [activity] = await activityRows(id);
    expect(activity.description).toContain('Turnover of 2 pads to Batangas Agency');

    const supervisor = await signedIn(t, { role_id: 6, branch_id: destination.id });
    expect((await get('get-in-transit-invoices', supervisor.headers)).json().data.map((i: { id: number }) => i.id)).toContain(id);
    const accepted = await accept(id, supervisor);
    expect(accepted.statusCode).toBe(200);
    expect(await invoiceRow(id)).toMatchObject({ invoice_status_id: INVOICE_STATUS.COMPLETED, accepted_by: supervisor.user.id });
    for (const pad of (await padRows(padIds)).slice(0, 2)) {
      expect(pad).toMatchObject({
        locked_by_invoice_id: null,
        holder_user_id: supervisor.user.id,
        holder_branch_id: destination.id,
        issuance_status_id: ISSUANCE_STATUS.ISSUED,
      });
    }
    const theirs = await get('get-user-pads', supervisor.headers);
    expect(theirs.json().data.map((p: { id: number }) => p.id)).toEqual(padIds.slice(0, 2));
    const log = await activityRows(id);
    expect(log.map((x) => x.invoice_status_id)).toEqual([INVOICE_STATUS.IN_TRANSIT, INVOICE_STATUS.COMPLETED]);
    expect(log[1].description).toContain('at Batangas Agency');
  });

  describe('creating returns and turnovers', () => {
    it('when the form is empty, then each field says the spec alert', async () => {
      const { holder } = await holderWithPads(1);
      const turnover = await post('create-turnover-invoice', holder.headers, { pads: [] });
      expect(turnover.statusCode).toBe(422);
      expect(turnover.json().errors).toEqual({
        pads: [CUSTODY_MSG.selectPad],
        branch_id: [CUSTODY_MSG.selectBranch],
        assigned_user_id: [CUSTODY_MSG.selectAssignee],
      });
      const ret = await post('create-return-invoice', holder.headers, { pads: 'abc', assigned_user_id: '' });
      expect(ret.statusCode).toBe(422);
      expect(ret.json().errors).toMatchObject({ pads: [CUSTODY_MSG.selectPad], assigned_user_id: [CUSTODY_MSG.selectAssignee] });
      const huge = await post('create-return-invoice', holder.headers, { pads: [99_999_999_999], assigned_user_id: 1 });
      expect(huge.statusCode).toBe(422);
    });

    it('when pads are not the caller’s, then the return is refused and nothing is locked', async () => {
      const { holder, courier } = await holderWithPads(1);
      const other = await holderWithPads(1);
      const own = (await get('get-user-pads', holder.headers)).json().data[0].id as number;
      const res = await post('create-return-invoice', holder.headers, { pads: [own, other.padIds[0]], assigned_user_id: courier.user.id });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.pads[0]).toContain('Only pads in your custody');
      const missing = await post('create-return-invoice', holder.headers, { pads: [2_000_000_000], assigned_user_id: courier.user.id });
      expect(missing.statusCode).toBe(422);
      const [ownPad, theirPad] = await padRows([own, other.padIds[0]]);
      expect(ownPad.locked_by_invoice_id).toBeNull();
      expect(theirPad.locked_by_invoice_id).toBeNull();
      const count = await t.db.select().from(invoices).where(eq(invoices.user_id, holder.user.id));
      expect(count).toHaveLength(0);
    });

    it('when a pad is already in transit, then a second return or turnover of it is a 409', async () => {
      const { holder, padIds, courier } = await holderWithPads(2);
      const first = await post('create-return-invoice', holder.headers, { pads: [padIds[0]], assigned_user_id: courier.user.id });
      expect(first.statusCode).toBe(201);
      const again = await post('create-return-invoice', holder.headers, { pads: padIds, assigned_user_id: courier.user.id });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain('Already in transit');
      const destination = await branchAt('Calapan Agency');
      const turnover = await post('create-turnover-invoice', holder.headers, {
        pads: padIds,
        branch_id: destination.id,
        assigned_user_id: courier.user.id,
      });
      expect(turnover.statusCode).toBe(409);
      expect((await padRows([padIds[1]]))[0].locked_by_invoice_id).toBeNull();
    });

    it('when a turnover names the caller’s own branch, an unknown branch or an inactive courier, then it is refused on that field', async () => {
      const { branch, holder, padIds, courier } = await holderWithPads(1);
      const own = await post('create-turnover-invoice', holder.headers, {
        pads: padIds,
        branch_id: branch.id,
        assigned_user_id: courier.user.id,
      });
      expect(own.statusCode).toBe(422);
      expect(own.json().errors.branch_id).toEqual(['Choose a branch other than your own.']);
      const unknown = await post('create-turnover-invoice', holder.headers, {
        pads: padIds,
        branch_id: 2_000_000_000,
        assigned_user_id: courier.user.id,
      });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors.branch_id).toEqual(['The selected branch does not exist.']);
      const inactive = await createUser(t.db, { role_id: 10, user_status_id: USER_STATUS.INACTIVE });
      const destination = await branchAt('Roxas Agency');
      const res = await post('create-turnover-invoice', holder.headers, {
        pads: padIds,
        branch_id: destination.id,
        assigned_user_id: inactive.id,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.assigned_user_id).toEqual([INVOICE_MSG.assigneeInvalid]);
      expect((await padRows(padIds))[0].locked_by_invoice_id).toBeNull();
    });

    it('when pads of two routes go back together, then the invoice has no single route but lists both pads', async () => {
      const { holder, branch, courier } = await holderWithPads(0);
      const p1 = await buildPad(t.db, { heldBy: { userId: holder.user.id, branchId: branch.id } });
      const p2 = await buildPad(t.db, { heldBy: { userId: holder.user.id, branchId: branch.id } });
      const res = await post('create-return-invoice', holder.headers, { pads: [p1.id, p2.id, p1.id], assigned_user_id: courier.user.id });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ route_id: null, route: null, pads: 2 });
    });

    it('when 20 identical returns race for the same pads, then exactly one is created', async () => {
      const { holder, padIds, courier } = await holderWithPads(2);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          post('create-return-invoice', holder.headers, { pads: padIds, assigned_user_id: courier.user.id }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(19);
      const made = await t.db.select().from(invoices).where(eq(invoices.user_id, holder.user.id));
      expect(made).toHaveLength(1);
      for (const pad of await padRows(padIds)) expect(pad.locked_by_invoice_id).toBe(made[0].id);
    });
  });

  describe('hand over', () => {
    async function carried() {
      const { holder, padIds, courier } = await holderWithPads(1);
      const res = await post('create-return-invoice', holder.headers, { pads: padIds, assigned_user_id: courier.user.id });
      return { holder, courier, id: res.json().data.id as number };
    }

    it('when roles 1, 2 or 3 hand over someone else’s custody, then it moves; others who see it but do not carry it are refused, and those who cannot see it get 404', async () => {
      for (const role of [1, 2, 3]) {
        const { id } = await carried();
        const boss = await signedIn(t, { role_id: role });
        const next = await createUser(t.db, { role_id: 11 });
        const res = await post(`hand-over-invoice/${id}`, boss.headers, { assigned_user_id: next.id });
        expect(res.statusCode, `role ${role}`).toBe(200);
        expect((await invoiceRow(id)).assigned_user_id).toBe(next.id);
      }
      const { id, holder } = await carried();
      const next = await createUser(t.db, { role_id: 11 });
      for (const role of [4, 5, 6, 7, 8, 9, 10, 11]) {
        const someone = await signedIn(t, { role_id: role });
        const res = await post(`hand-over-invoice/${id}`, someone.headers, { assigned_user_id: next.id });
        expect(res.statusCode, `role ${role}`).toBe([8, 9].includes(role) ? 403 : 404);
      }
      expect((await post(`hand-over-invoice/${id}`, holder.headers, { assigned_user_id: next.id })).statusCode).toBe(403);
      expect(await activityRows(id)).toHaveLength(1);
    });

    it('when the former courier tries again, or the courier hands to himself, then it is refused', async () => {
      const { id, courier } = await carried();
      const same = await post(`hand-over-invoice/${id}`, courier.headers, { assigned_user_id: courier.user.id });
      expect(same.statusCode).toBe(422);
      expect(same.json().errors.assigned_user_id[0]).toContain('already has the custody');
      const next = await createUser(t.db, { role_id: 10 });
      expect((await post(`hand-over-invoice/${id}`, courier.headers, { assigned_user_id: next.id })).statusCode).toBe(200);
      const other = await createUser(t.db, { role_id: 10 });
      const former = await post(`hand-over-invoice/${id}`, courier.headers, { assigned_user_id: other.id });
      expect(former.statusCode, 'a courier no longer carrying it no longer sees it').toBe(404);
      expect((await invoiceRow(id)).assigned_user_id).toBe(next.id);
    });

    it('when the invoice is unknown, completed, or the new courier is missing or inactive, then it is refused with a message', async () => {
      const { id, courier } = await carried();
      const admin = await signedIn(t, { role_id: 1 });
      expect((await post('hand-over-invoice/2000000000', admin.headers, { assigned_user_id: courier.user.id })).statusCode).toBe(404);
      expect((await post('hand-over-invoice/abc', admin.headers, { assigned_user_id: courier.user.id })).statusCode).toBe(422);
      const empty = await post(`hand-over-invoice/${id}`, courier.headers, {});
      expect(empty.statusCode).toBe(422);
      expect(empty.json().errors.assigned_user_id).toEqual([CUSTODY_MSG.handOverToRequired]);
      const inactive = await createUser(t.db, { user_status_id: USER_STATUS.INACTIVE });
      expect((await post(`hand-over-invoice/${id}`, courier.headers, { assigned_user_id: inactive.id })).statusCode).toBe(422);
      await t.db.update(invoices).set({ invoice_status_id: INVOICE_STATUS.COMPLETED }).where(eq(invoices.id, id));
      const next = await createUser(t.db, { role_id: 10 });
      const done = await post(`hand-over-invoice/${id}`, courier.headers, { assigned_user_id: next.id });
      expect(done.statusCode).toBe(409);
      expect(done.json().message).toBe('Only custody in transit can be handed over.');
    });

    it('when someone who cannot see an invoice hands it over, then it is not found, whatever its state (docs/design.md §5 "Who sees what")', async () => {
      const { id, courier } = await carried();
      const outsider = await signedIn(t, { role_id: 5, branch_id: (await branchAt('Outsider Wharf')).id });
      const strangerCourier = await signedIn(t, { role_id: 10, branch_id: headOffice.id });
      const next = await createUser(t.db, { role_id: 11 });
      for (const who of [outsider, strangerCourier]) {
        const res = await post(`hand-over-invoice/${id}`, who.headers, { assigned_user_id: next.id });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: INVOICE_MSG.notFound });
      }
      const missing = await post('hand-over-invoice/2000000000', outsider.headers, { assigned_user_id: next.id });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: INVOICE_MSG.notFound });
      const auditor = await signedIn(t, { role_id: 9 });
      expect(
        (await post(`hand-over-invoice/${id}`, auditor.headers, { assigned_user_id: next.id })).statusCode,
        'seen but not carried',
      ).toBe(403);

      await t.db.update(invoices).set({ invoice_status_id: INVOICE_STATUS.COMPLETED }).where(eq(invoices.id, id));
      const completed = await post(`hand-over-invoice/${id}`, outsider.headers, { assigned_user_id: next.id });
      expect(completed.statusCode, 'a completed invoice stays hidden too').toBe(404);
      expect((await post(`hand-over-invoice/${id}`, courier.headers, { assigned_user_id: next.id })).statusCode, 'seen and completed').toBe(
        409,
      );
      expect((await invoiceRow(id)).assigned_user_id).toBe(courier.user.id);
      expect(await activityRows(id)).toHaveLength(1);
    });

    it('when 20 hand-overs of one custody race, then exactly one succeeds and one activity is written', async () => {
      const { id, courier } = await carried();
      const next = await createUser(t.db, { role_id: 11 });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => post(`hand-over-invoice/${id}`, courier.headers, { assigned_user_id: next.id })),
      );
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.every((c) => c === 200 || (c >= 400 && c < 500))).toBe(true);
      expect(await activityRows(id)).toHaveLength(2);
    });

    it('when an administrator’s 20 identical hand-overs race, then exactly one moves the custody', async () => {
      const { id } = await carried();
      const admin = await signedIn(t, { role_id: 1 });
      const next = await createUser(t.db, { role_id: 10 });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => post(`hand-over-invoice/${id}`, admin.headers, { assigned_user_id: next.id })),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 409 || r.statusCode === 422)).toHaveLength(19);
      expect((await invoiceRow(id)).assigned_user_id).toBe(next.id);
      expect(await activityRows(id)).toHaveLength(2);
    });
  });

  describe('accepting returns and turnovers', () => {
    async function returnInTransit() {
      const { holder, padIds, courier } = await holderWithPads(1);
      const res = await post('create-return-invoice', holder.headers, { pads: padIds, assigned_user_id: courier.user.id });
      return { id: res.json().data.id as number, padIds, holder };
    }
    async function turnoverInTransit() {
      const { holder, padIds, courier } = await holderWithPads(1);
      const destination = await branchAt(`Dest ${Math.random().toString(36).slice(2, 8)}`);
      const res = await post('create-turnover-invoice', holder.headers, {
        pads: padIds,
        branch_id: destination.id,
        assigned_user_id: courier.user.id,
      });
      return { id: res.json().data.id as number, padIds, destination, holder };
    }

    it('when a return is accepted, then only role 8 may do it', async () => {
      const { id, padIds, holder } = await returnInTransit();
      for (const role of [1, 2, 3, 4, 5, 6, 7, 9, 10, 11]) {
        const someone = await signedIn(t, { role_id: role, branch_id: headOffice.id });
        const expected = [10, 11].includes(role) ? 404 : 403;
        expect((await accept(id, someone)).statusCode, `role ${role} (couriers see only what they carry)`).toBe(expected);
      }
      expect((await accept(id, holder)).statusCode).toBe(403);
      expect((await invoiceRow(id)).invoice_status_id).toBe(INVOICE_STATUS.IN_TRANSIT);
      expect((await padRows(padIds))[0].locked_by_invoice_id).toBe(id);
      const accounting = await signedIn(t, { role_id: 8 });
      expect((await accept(id, accounting)).statusCode).toBe(200);
      expect((await accept(id, accounting)).statusCode).toBe(409);
    });

    it('when a turnover is accepted, then roles 4 to 7 of the destination branch may, others and other branches may not', async () => {
      const { id, destination } = await turnoverInTransit();
      const elsewhere = await branchAt('Elsewhere');
      for (const role of [4, 5, 6, 7]) {
        const wrongBranch = await signedIn(t, { role_id: role, branch_id: elsewhere.id });
        expect((await accept(id, wrongBranch)).statusCode, `role ${role} elsewhere: not even visible`).toBe(404);
      }
      for (const role of [1, 2, 3, 8, 9, 10, 11]) {
        const wrongRole = await signedIn(t, { role_id: role, branch_id: destination.id });
        const expected = [10, 11].includes(role) ? 404 : 403;
        expect((await accept(id, wrongRole)).statusCode, `role ${role} at destination (couriers see only what they carry)`).toBe(expected);
      }
      expect((await invoiceRow(id)).invoice_status_id).toBe(INVOICE_STATUS.IN_TRANSIT);
      for (const role of [4, 5, 6, 7]) {
        const fresh = await turnoverInTransit();
        const receiver = await signedIn(t, { role_id: role, branch_id: fresh.destination.id });
        expect((await accept(fresh.id, receiver)).statusCode, `role ${role} at destination`).toBe(200);
        expect((await padRows(fresh.padIds))[0]).toMatchObject({
          holder_user_id: receiver.user.id,
          holder_branch_id: fresh.destination.id,
          locked_by_invoice_id: null,
        });
      }
    });

    it('when 20 accepts of one return race, then exactly one completes it', async () => {
      const { id, padIds } = await returnInTransit();
      const accounting = await signedIn(t, { role_id: 8 });
      const results = await Promise.all(Array.from({ length: 20 }, () => accept(id, accounting)));
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(19);
      expect((await activityRows(id)).filter((a) => a.invoice_status_id === INVOICE_STATUS.COMPLETED)).toHaveLength(1);
      expect((await padRows(padIds))[0]).toMatchObject({ holder_branch_id: headOffice.id, locked_by_invoice_id: null });
    });

    it('when 20 accepts of one turnover race, then exactly one completes it', async () => {
      const { id, destination } = await turnoverInTransit();
      const receivers: Session[] = [];
      for (let i = 0; i < 4; i += 1) receivers.push(await signedIn(t, { role_id: 4 + i, branch_id: destination.id }));
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => accept(id, receivers[i % 4])));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
    });
  });

  describe('lists', () => {
    it('when people list custodies, then roles 1, 2, 3, 8, 9 see all, couriers what they carry, others their own and their branch’s', async () => {
      const a = await branchAt('Alpha Wharf');
      const b = await branchAt('Bravo Pier');
      const creatorA = await createUser(t.db, { role_id: 5, branch_id: a.id });
      const courierX = await signedIn(t, { role_id: 10, branch_id: a.id });
      const courierY = await signedIn(t, { role_id: 11, branch_id: b.id });
      const pA = await buildPad(t.db, { heldBy: { userId: creatorA.id, branchId: a.id }, number: 987_654 });
      const toB = await buildInvoice(t.db, {
        type: INVOICE_TYPE.TURNOVER,
        status: INVOICE_STATUS.IN_TRANSIT,
        user_id: creatorA.id,
        from_branch_id: a.id,
        branch_id: b.id,
        assigned_user_id: courierX.user.id,
        pads: [pA],
      });
      const toHq = await buildInvoice(t.db, {
        type: INVOICE_TYPE.RETURN,
        status: INVOICE_STATUS.IN_TRANSIT,
        user_id: creatorA.id,
        from_branch_id: a.id,
        branch_id: headOffice.id,
        assigned_user_id: courierY.user.id,
      });
      const done = await buildInvoice(t.db, {
        type: INVOICE_TYPE.TURNOVER,
        status: INVOICE_STATUS.COMPLETED,
        user_id: creatorA.id,
        branch_id: b.id,
      });
      const ids = async (s: Session, query = '') =>
        ((await get(`get-in-transit-invoices${query}`, s.headers)).json().data as Array<{ id: number }>).map((i) => i.id);

      for (const role of [1, 2, 3, 8, 9]) {
        const viewer = await signedIn(t, { role_id: role, branch_id: b.id });
        const seen = await ids(viewer, '?per_page=100');
        expect(seen, `role ${role}`).toEqual(expect.arrayContaining([toB.id, toHq.id]));
        expect(seen).not.toContain(done.id);
      }
      expect(await ids(courierX)).toEqual([toB.id]);
      expect(await ids(courierY)).toEqual([toHq.id]);
      const atB = await signedIn(t, { role_id: 6, branch_id: b.id });
      expect(await ids(atB)).toEqual([toB.id]);
      const atA = await signedIn(t, { role_id: 7, branch_id: a.id });
      expect((await ids(atA)).sort()).toEqual([toB.id, toHq.id].sort());
      const unrelated = await signedIn(t, { role_id: 5, branch_id: (await branchAt('Charlie')).id });
      expect(await ids(unrelated)).toEqual([]);
      const noRole = await signedIn(t, {});
      expect(await ids(noRole)).toEqual([]);

      const auditor = await signedIn(t, { role_id: 9 });
      expect(await ids(auditor, '?search=bravo&per_page=100')).toEqual([toB.id]);
      expect(await ids(auditor, `?search=${pA.number}&per_page=100`)).toEqual([toB.id]);
      expect(await ids(auditor, `?search=${pA.series_from}&per_page=100`)).toEqual([toB.id]);
      expect(await ids(auditor, `?search=alpha&invoice_type=${INVOICE_TYPE.RETURN}&per_page=100`)).toEqual([toHq.id]);
      expect(await ids(auditor, '?search=50%25_x')).toEqual([]);

      const row = (await get('get-in-transit-invoices?search=bravo', auditor.headers)).json().data[0];
      expect(row).toMatchObject({
        invoice_type: { name: 'Turnover' },
        invoice_status: { name: 'In-Transit' },
        user: { branch: { name: 'Alpha Wharf' } },
        branch: { name: 'Bravo Pier' },
        assigned_to: `${courierX.user.first_name} ${courierX.user.last_name}`,
        pads: 1,
      });
    });

    it('when lists are paged or given bad parameters, then pages follow the spec envelope and bad input is a 422', async () => {
      const { holder } = await holderWithPads(12);
      const page1 = (await get('get-user-pads?page=1', holder.headers)).json();
      const page2 = (await get('get-user-pads?page=2', holder.headers)).json();
      expect(page2).toMatchObject({ current_page: 2, last_page: 2, per_page: 10, total: 12 });
      expect(page2.data).toHaveLength(2);
      const numbers = [...page1.data, ...page2.data].map((p: { number: number }) => p.number);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(new Set(numbers).size).toBe(12);
      const pastTheEnd = (await get('get-user-pads?page=3', holder.headers)).json();
      expect(pastTheEnd).toMatchObject({ data: [], current_page: 3, last_page: 2, total: 12 });
      const pad = (await get('get-user-pads?per_page=1', holder.headers)).json().data[0];
      await t.db.update(pads).set({ number: 987_653 }).where(eq(pads.id, pad.id));
      const found = (await get('get-user-pads?search=987653', holder.headers)).json();
      expect(found.data.map((p: { id: number }) => p.id)).toEqual([pad.id]);
      expect((await get('get-user-pads?search=no-such-pad', holder.headers)).json().total).toBe(0);
      expect((await get('get-user-pads?per_page=1000', holder.headers)).statusCode).toBe(422);
      expect((await get('get-in-transit-invoices?invoice_type=x', holder.headers)).statusCode).toBe(422);
      expect((await get('get-in-transit-invoices?invoice_type=', holder.headers)).statusCode).toBe(200);
      expect((await get('get-in-transit-invoices?page=0', holder.headers)).statusCode).toBe(422);
    });
  });
});
