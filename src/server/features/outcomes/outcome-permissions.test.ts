import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import { can, type OutcomeForRules } from '../../../shared/permissions.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { outcomeRequests } from '../../db/schema/outcomes.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { users } from '../../db/schema/users.ts';
import { buildPad, createBranch, createRoute, signedIn, type PadRow } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Issue 33 item 3: every outcome route answers each role as src/shared/permissions.ts says with the pad in hand, the
 * route's guard included (it once refused the Admin because it asked the pad rule without a pad).
 */

interface Person {
  user: { id: number; role_id: number | null; branch_id: number | null };
  headers: { authorization: string };
}

const ROLE_NAME = Object.fromEntries(Object.entries(ROLE).map(([name, id]) => [id, name]));
const ROLES: Array<number | null> = [...Object.values(ROLE), null];
const label = (role: number | null) => (role === null ? 'no role' : `${role} ${ROLE_NAME[role]}`);

let t: TestApp;
let home: number;
let away: number;
let routeId: number;
const actors = new Map<number | null, Person>();
let homeClerk: Person;
let awayClerk: Person;
let custodian: Person;

const NOT_USED = '1';
const CANCELLED = '3';
const cancel = (number: number) => ({
  from: number,
  to: number,
  outcome: 'cancelled',
  reason: 'Spoiled (torn, stained, misprinted)',
  copies_retained: true,
});
const post = (who: Person, url: string, payload: object = {}) => t.app.inject({ method: 'POST', url, headers: who.headers, payload });

const padOf = (holder: Person) =>
  buildPad(t.db, { route_id: routeId, heldBy: { userId: holder.user.id, branchId: holder.user.branch_id } });
/** The pad as the outcome rules see it: its holder, and the branch of the holding user. */
const recordOf = (pad: PadRow, holder: Person): OutcomeForRules => ({
  holder_user_id: pad.holder_user_id,
  holder_branch_id: pad.holder_branch_id,
  locked_by_invoice_id: pad.locked_by_invoice_id,
  holder_user_branch_id: holder.user.branch_id,
});

async function stateOf(pad: PadRow): Promise<string> {
  const [row] = await t.db.select({ series_status: pads.series_status }).from(pads).where(eq(pads.id, pad.id));
  return row.series_status[0];
}

const requestsOf = (pad: PadRow) =>
  t.db
    .select({
      id: outcomeRequests.id,
      status: outcomeRequests.status,
      requested_by: outcomeRequests.requested_by,
      decided_by: outcomeRequests.decided_by,
    })
    .from(outcomeRequests)
    .where(eq(outcomeRequests.pad_id, pad.id));

/** A pending request to cancel the pad's first number, asked by its holder, a Ticketing Officer who may not approve. */
async function pendingOn(holder: Person) {
  const pad = await padOf(holder);
  const res = await post(holder, `/api/pads/${pad.id}/outcome`, cancel(pad.series_from));
  expect(res.statusCode, res.body).toBe(202);
  return { pad, holder, requestId: res.json().data.request_id as number };
}

/** The pad's first number cancelled by the Custodian, an approver. */
async function cancelledOn(holder: Person) {
  const pad = await padOf(holder);
  const res = await post(custodian, `/api/pads/${pad.id}/outcome`, cancel(pad.series_from));
  expect(res.statusCode, res.body).toBe(200);
  return { pad, holder };
}

beforeAll(async () => {
  t = await createTestApp();
  home = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  away = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  for (const role of ROLES) actors.set(role, await signedIn(t, { role_id: role, branch_id: home }));
  homeClerk = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: home });
  awayClerk = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: away });
  custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: away });
});
afterAll(async () => {
  await t.close();
});

const actor = (role: number | null) => {
  const person = actors.get(role);
  if (!person) throw new Error(`no actor for role ${label(role)}`);
  return person;
};

describe('POST /api/pads/{id}/outcome for every role', () => {
  it('when each role cancels a number of a pad it holds and of a pad held at another branch, then each answers 200 (applied), 202 (asked) or 403 as number.requestOutcome and number.approveOutcome say with the pad, and the number and the request are stored so', async () => {
    const predicted: Record<string, unknown> = {};
    const seen: Record<string, unknown> = {};
    for (const role of ROLES) {
      const who = actor(role);
      for (const [scope, holder] of [
        ['own pad', who],
        ['pad held at another branch', awayClerk],
      ] as const) {
        const pad = await padOf(holder);
        const record = recordOf(pad, holder);
        const status = !can(who.user, 'number.requestOutcome', record) ? 403 : can(who.user, 'number.approveOutcome', record) ? 200 : 202;
        const res = await post(who, `/api/pads/${pad.id}/outcome`, cancel(pad.series_from));
        const key = `${label(role)}, ${scope}`;
        predicted[key] = {
          status,
          state: status === 200 ? CANCELLED : NOT_USED,
          requests: status === 202 ? [{ status: 'pending', requested_by: who.user.id, decided_by: null }] : [],
        };
        seen[key] = {
          status: res.statusCode,
          state: await stateOf(pad),
          requests: (await requestsOf(pad)).map(({ status: requestStatus, requested_by, decided_by }) => ({
            status: requestStatus,
            requested_by,
            decided_by,
          })),
        };
      }
    }
    expect(seen).toEqual(predicted);
  });

  it('when the Admin cancels a number of a pad someone else holds, then it is cancelled at once (200) with the Admin as approver on the event', async () => {
    const admin = actor(ROLE.ADMIN);
    const pad = await padOf(awayClerk);
    const res = await post(admin, `/api/pads/${pad.id}/outcome`, cancel(pad.series_from));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.number_counts).toMatchObject({ cancelled: 1 });
    expect(await stateOf(pad)).toBe(CANCELLED);
    const [event] = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, pad.id)).orderBy(desc(padEvents.seq)).limit(1);
    expect(event).toMatchObject({
      kind: 'cancelled',
      from_number: pad.series_from,
      actor_user_id: admin.user.id,
      approver_user_id: admin.user.id,
    });
    expect(await requestsOf(pad)).toEqual([]);
  });
});

describe('GET /api/outcome-requests for every role', () => {
  it('when each role lists the waiting requests, then roles with ledger.read get exactly the pending requests number.approveOutcome lets them decide, everyone else 403, and nothing is decided', async () => {
    await pendingOn(homeClerk);
    await pendingOn(awayClerk);
    const pending = await t.db
      .select({
        id: outcomeRequests.id,
        record: {
          holder_user_id: padCustody.holder_user_id,
          holder_branch_id: padCustody.holder_branch_id,
          locked_by_invoice_id: padCustody.locked_by_invoice_id,
          holder_user_branch_id: users.branch_id,
        },
      })
      .from(outcomeRequests)
      .innerJoin(padCustody, eq(padCustody.pad_id, outcomeRequests.pad_id))
      .leftJoin(users, eq(users.id, padCustody.holder_user_id))
      .where(eq(outcomeRequests.status, 'pending'));
    const predicted: Record<string, unknown> = {};
    const seen: Record<string, unknown> = {};
    for (const role of ROLES) {
      const who = actor(role);
      const res = await t.app.inject({ method: 'GET', url: '/api/outcome-requests?per_page=100', headers: who.headers });
      predicted[label(role)] = can(who.user, 'ledger.read')
        ? {
            status: 200,
            ids: pending
              .filter((request) => can(who.user, 'number.approveOutcome', request.record))
              .map((request) => request.id)
              .sort((a, b) => a - b),
          }
        : { status: 403 };
      seen[label(role)] =
        res.statusCode === 200
          ? { status: 200, ids: (res.json().data as Array<{ id: number }>).map((request) => request.id).sort((a, b) => a - b) }
          : { status: res.statusCode };
    }
    expect(seen).toEqual(predicted);
    expect(pending.length).toBeGreaterThanOrEqual(2);
    const stillPending = await t.db.select({ id: outcomeRequests.id }).from(outcomeRequests).where(eq(outcomeRequests.status, 'pending'));
    expect(stillPending.map((row) => row.id).sort((a, b) => a - b)).toEqual(pending.map((row) => row.id).sort((a, b) => a - b));
  });
});

describe('deciding a waiting request, every role', () => {
  for (const decision of ['approve', 'reject'] as const) {
    it(`when each role tries to ${decision} a request on a pad held at its branch and one held at another, then each answers 200 or 403 as number.approveOutcome says with the pad, and the request and the number are stored so`, async () => {
      const predicted: Record<string, unknown> = {};
      const seen: Record<string, unknown> = {};
      for (const role of ROLES) {
        const who = actor(role);
        for (const [scope, holder] of [
          ['pad held at its branch', homeClerk],
          ['pad held at another branch', awayClerk],
        ] as const) {
          const { pad, requestId } = await pendingOn(holder);
          const allowed = can(who.user, 'number.approveOutcome', recordOf(pad, holder));
          const res = await post(
            who,
            `/api/outcome-requests/${requestId}/${decision}`,
            decision === 'reject' ? { reason: 'The receipt is fine' } : {},
          );
          const key = `${label(role)}, ${scope}`;
          const decided = decision === 'approve' ? 'approved' : 'rejected';
          predicted[key] = {
            status: allowed ? 200 : 403,
            state: allowed && decision === 'approve' ? CANCELLED : NOT_USED,
            request: allowed ? { status: decided, decided_by: who.user.id } : { status: 'pending', decided_by: null },
          };
          const [request] = await t.db
            .select({ status: outcomeRequests.status, decided_by: outcomeRequests.decided_by })
            .from(outcomeRequests)
            .where(eq(outcomeRequests.id, requestId));
          seen[key] = { status: res.statusCode, state: await stateOf(pad), request };
        }
      }
      expect(seen).toEqual(predicted);
    });
  }
});

describe('POST /api/outcome-reverts for every role', () => {
  it('when each role undoes a cancellation on a pad held at its branch and one held at another, then each answers 200 or 403 as number.revertOutcome says with the pad, and the number and the ledger are stored so', async () => {
    const predicted: Record<string, unknown> = {};
    const seen: Record<string, unknown> = {};
    for (const role of ROLES) {
      const who = actor(role);
      for (const [scope, holder] of [
        ['pad held at its branch', homeClerk],
        ['pad held at another branch', awayClerk],
      ] as const) {
        const { pad } = await cancelledOn(holder);
        const allowed = can(who.user, 'number.revertOutcome', recordOf(pad, holder));
        const res = await post(who, '/api/outcome-reverts', {
          pad_id: pad.id,
          from: pad.series_from,
          to: pad.series_from,
          reason: 'Cancelled by mistake',
        });
        const key = `${label(role)}, ${scope}`;
        predicted[key] = { status: allowed ? 200 : 403, state: allowed ? NOT_USED : CANCELLED, reverts: allowed ? 1 : 0 };
        const reverts = await t.db
          .select({ id: padEvents.id })
          .from(padEvents)
          .where(and(eq(padEvents.pad_id, pad.id), eq(padEvents.kind, 'cancel_reverted')));
        seen[key] = { status: res.statusCode, state: await stateOf(pad), reverts: reverts.length };
      }
    }
    expect(seen).toEqual(predicted);
  });
});
