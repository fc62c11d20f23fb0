import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { ISSUANCE_STATUS, ROLE } from '../../../shared/lookups.ts';
import { sqlState, violatedConstraint } from '../../db/client.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, createUser, signedIn, storedPadRows } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { appendPadEvents, type PadEventInput } from './lifecycle.ts';
import { verifyLedger } from './verifier.ts';

let t: TestApp;
let headOffice: Awaited<ReturnType<typeof createBranch>>;

beforeAll(async () => {
  t = await createTestApp();
  headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
});
afterAll(async () => {
  await t.close();
});

type Session = Awaited<ReturnType<typeof signedIn>>;

async function post(who: Session, url: string, payload: object, status = 200) {
  const res = await t.app.inject({ method: 'POST', url: `/api/${url}`, headers: who.headers, payload });
  expect(res.statusCode, res.body).toBe(status);
  return res.json().data as { id: number };
}

/** Three fresh pads of a new route, received into the head office's stock through add-pad. */
async function receivedPads(custodian: Session) {
  const route = await createRoute(t.db);
  await post(custodian, 'add-pad', { route_id: route.id, series_from: 1001, series_to: 1150 }, 201);
  const rows = await storedPadRows(t.db).where(eq(pads.route_id, route.id)).orderBy(asc(pads.id));
  return { route, ids: rows.map((p) => p.id) };
}

/** What an error thrown by the database says, whichever driver threw it. */
async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  return { state: sqlState(error), constraint: violatedConstraint(error) };
}

describe('ledger event writer', () => {
  it('when pads are issued and accepted, then the pads carry the new holder and the events record the move, chained and verifiable', async () => {
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
    const branch = await createBranch(t.db, { name: 'Branch E' });
    const holder = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branch.id });
    const courier = await createUser(t.db, { role_id: ROLE.DRIVER, branch_id: headOffice.id });
    const { route, ids } = await receivedPads(custodian);
    const request = await post(holder, 'create-request-invoice', { branch_id: headOffice.id, route_id: route.id, pads: 3 }, 201);
    const issued = await post(
      custodian,
      'issue-invoice',
      { invoice_id: request.id, pads: ids, assigned_user_id: courier.id, expected_return: 3 },
      201,
    );

    const inTransit = await storedPadRows(t.db).where(inArray(pads.id, ids)).orderBy(asc(pads.id));
    expect(inTransit.map((p) => [p.issuance_status_id, p.locked_by_invoice_id, p.holder_user_id, p.holder_branch_id])).toEqual(
      ids.map(() => [ISSUANCE_STATUS.ISSUED, issued.id, null, headOffice.id]),
    );

    await post(holder, `accept-invoice/${issued.id}`, {});
    const accepted = await storedPadRows(t.db).where(inArray(pads.id, ids)).orderBy(asc(pads.id));
    expect(accepted.map((p) => [p.issuance_status_id, p.locked_by_invoice_id, p.holder_user_id, p.holder_branch_id])).toEqual(
      ids.map(() => [ISSUANCE_STATUS.ISSUED, null, holder.user.id, branch.id]),
    );
    const events = await t.db
      .select()
      .from(padEvents)
      .where(inArray(padEvents.pad_id, ids))
      .orderBy(asc(padEvents.pad_id), asc(padEvents.seq));
    expect(
      events.map((e) => [
        e.pad_id,
        e.seq,
        e.kind,
        e.from_number,
        e.to_number,
        e.qty,
        e.holder_user_id,
        e.holder_branch_id,
        e.counterparty_user_id,
        e.counterparty_branch_id,
        e.invoice_id,
        e.actor_user_id,
      ]),
    ).toEqual(
      ids.flatMap((id, i) => {
        const from = 1001 + i * 50;
        return [
          [id, 1, 'received', from, from + 49, 50, null, headOffice.id, null, null, null, custodian.user.id],
          [id, 2, 'transfer_out', from, from + 49, 50, null, headOffice.id, holder.user.id, branch.id, issued.id, holder.user.id],
          [id, 3, 'transfer_in', from, from + 49, 50, holder.user.id, branch.id, null, headOffice.id, issued.id, holder.user.id],
        ];
      }),
    );
    expect(events.every((e, k) => k % 3 === 0 || e.prev_hash === events[k - 1].hash)).toBe(true);
    expect((await verifyLedger(t.db, { mode: 'full' })).problems).toEqual([]);
  });

  it('when an event carries text with quotes, backslashes, commas, braces and the word NULL, then it is stored exactly and the chain verifies', async () => {
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
    const { route, ids } = await receivedPads(custodian);
    const reason = 'NULL, "quoted" \\ back{slash}\nand more';
    await t.db.transaction((tx) =>
      appendPadEvents(tx, t.ctx, [
        {
          padId: ids[0],
          routeId: route.id,
          kind: 'cancelled',
          from: 1001,
          to: 1001,
          holderUserId: null,
          holderBranchId: headOffice.id,
          actorId: custodian.user.id,
          reason,
        },
        {
          padId: ids[0],
          routeId: route.id,
          kind: 'cancel_reverted',
          from: 1001,
          to: 1001,
          holderUserId: null,
          holderBranchId: headOffice.id,
          actorId: null,
          deviceAt: new Date('2026-01-02T03:04:05.678Z'),
        },
      ]),
    );
    const [cancelled, reverted] = await t.db
      .select()
      .from(padEvents)
      .where(eq(padEvents.pad_id, ids[0]))
      .orderBy(asc(padEvents.seq))
      .offset(1);
    expect([cancelled.reason, cancelled.actor_user_id, cancelled.device_at]).toEqual([reason, custodian.user.id, null]);
    expect([reverted.reason, reverted.actor_user_id, reverted.device_at?.toISOString()]).toEqual([null, null, '2026-01-02T03:04:05.678Z']);
    expect((await verifyLedger(t.db, { mode: 'full' })).problems).toEqual([]);
  });

  it('when an event names a user, branch, invoice or route that does not exist, then the insert is refused as a foreign key would refuse it', async () => {
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
    const { route, ids } = await receivedPads(custodian);
    const base: PadEventInput = {
      padId: ids[1],
      routeId: route.id,
      kind: 'used',
      from: 1051,
      to: 1051,
      holderUserId: null,
      holderBranchId: headOffice.id,
      actorId: custodian.user.id,
    };
    const cases: Array<[Partial<PadEventInput>, string]> = [
      [{ holderUserId: 999_999 }, 'pad_events_holder_user_id_fkey'],
      [{ actorId: 999_999 }, 'pad_events_actor_user_id_fkey'],
      [{ counterpartyUserId: 999_999 }, 'pad_events_counterparty_user_id_fkey'],
      [{ holderBranchId: 999_999 }, 'pad_events_holder_branch_id_fkey'],
      [{ invoiceId: 999_999 }, 'pad_events_invoice_id_fkey'],
      [{ routeId: 999_999 }, 'pad_events_route_id_fkey'],
    ];
    for (const [change, constraint] of cases) {
      expect(await refusal(t.db.transaction((tx) => appendPadEvents(tx, t.ctx, [{ ...base, ...change }]))), constraint).toEqual({
        state: '23503',
        constraint,
      });
    }
    expect(await t.db.select().from(padEvents).where(eq(padEvents.pad_id, ids[1]))).toHaveLength(1);
  });

  it('when a user or route named only by events is deleted or renumbered, then it is refused as a foreign key would refuse it; one no event names goes', async () => {
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
    const { route, ids } = await receivedPads(custodian);
    const actor = await createUser(t.db, { role_id: ROLE.DRIVER, branch_id: headOffice.id });
    const unnamed = await createUser(t.db, { role_id: ROLE.DRIVER, branch_id: headOffice.id });
    await t.db.transaction((tx) =>
      appendPadEvents(tx, t.ctx, [
        {
          padId: ids[2],
          routeId: route.id,
          kind: 'used',
          from: 1101,
          to: 1101,
          holderUserId: null,
          holderBranchId: headOffice.id,
          actorId: actor.id,
        },
      ]),
    );
    const actorRefusal = { state: '23503', constraint: 'pad_events_actor_user_id_fkey' };
    expect(await refusal(t.db.execute(sql`delete from users where id = ${actor.id}`))).toEqual(actorRefusal);
    expect(await refusal(t.db.execute(sql`update users set id = ${actor.id + 100_000} where id = ${actor.id}`))).toEqual(actorRefusal);
    await t.db.execute(sql`delete from pads where route_id = ${route.id}`);
    expect(await refusal(t.db.execute(sql`delete from routes where id = ${route.id}`))).toEqual({
      state: '23503',
      constraint: 'pad_events_route_id_fkey',
    });
    await t.db.execute(sql`delete from users where id = ${unnamed.id}`);
    expect(await t.db.execute(sql`select 1 from users where id = ${unnamed.id}`)).toMatchObject({ rows: [] });
  });
});
