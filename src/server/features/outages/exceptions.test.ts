import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { EXCEPTION_REASON_LABELS, PAPER_USE_MSG, type PaperUseException } from '../../../shared/schemas/paper-uses.ts';
import type { MyActions } from '../../../shared/schemas/my-actions.ts';
import { pads } from '../../db/schema/pads.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { establishments, paperUses } from '../../db/schema/paper-use.ts';
import { registeredSeries } from '../../db/schema/registered-series.ts';
import { issueAndAccept } from '../../test/custody.ts';
import { createBranch, createRoute, signedIn, storedPadRows, type PadRow } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { runJob } from '../../db/jobs.ts';
import { serverJobs } from '../../jobs.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let coveredId: number;
let otherCoveredId: number;
let routeId: number;
let accounting: Who;
let admin: Who;
let auditor: Who;
let branchHead: Who;
let custodian: Who;
let courier: Who;
let atp = 0;

const { call, ok, at } = apiCalls(() => t);

interface Holder extends Who {
  pads: PadRow[];
}
const holders = new Map<string, Holder>();

/**
 * Holders of two contingency pads each (every pad its own registered series), received and issued to them in September
 * through the API, before anything else touches the ledger: their RAAFs balance, and October stays open for the tests.
 */
async function holderAt(branchId: number, firstName: string): Promise<void> {
  const { user, headers } = await signedIn(t, { role_id: 7, branch_id: branchId, first_name: firstName, last_name: 'Cruz' });
  const who = { id: user.id, headers };
  const held: PadRow[] = [];
  for (let k = 0; k < 2; k += 1) {
    atp += 1;
    const from = 5000 + atp * 10;
    await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: from, series_to: from + 9, pad_size: 10 }), 201);
    const [pad] = await storedPadRows(t.db).where(and(eq(pads.route_id, routeId), eq(pads.series_from, from)));
    const [series] = await t.db
      .insert(registeredSeries)
      .values({
        route_id: routeId,
        branch_id: branchId,
        form_type: 'invoice',
        atp_number: `EXC-${atp}`,
        atp_date: '2026-01-05',
        printer: 'Mindoro Press',
        series_from: from,
        series_to: from + 9,
        role: 'contingency',
      })
      .returning();
    await t.db.update(pads).set({ registered_series_id: series.id }).where(eq(pads.id, pad.id));
    held.push(pad);
  }
  await issueAndAccept(t, { holder: who, custodian, courier, routeId, padIds: held.map((pad) => pad.id) });
  holders.set(firstName, { ...who, pads: held });
}

const holder = (name: string): Holder => {
  const found = holders.get(name);
  if (!found) throw new Error(`no holder ${name}`);
  return found;
};

/** The holder uses the first `count` numbers of their next pad at `when`, outside any outage: answers the pad and the exception. */
async function exceptionOf(name: string, when: string, count = 1) {
  const who = holder(name);
  const pad = who.pads.shift();
  if (!pad) throw new Error(`${name} has no pad left`);
  at(when);
  await ok(call(who, 'POST', `/api/pads/${pad.id}/usage`, { from: pad.series_from, to: pad.series_from + count - 1 }));
  const [row] = await t.db.select().from(paperUses).where(eq(paperUses.pad_id, pad.id)).orderBy(asc(paperUses.id));
  expect(row).toMatchObject({ state: 'open', holder_user_id: who.id });
  return { pad, row };
}

const list = async (who: Who, query = '') =>
  (await ok(call(who, 'GET', `/api/paper-use-exceptions?per_page=100${query}`))) as { data: PaperUseException[]; total: number };
const decide = (who: Who, id: number, body: object) => call(who, 'POST', `/api/paper-use-exceptions/${id}/decision`, body);
const justify = {
  decision: 'justified',
  reason_code: 'outage_not_declared',
  reason_text: 'Network down at 09:00; not declared until noon',
};
const certify = (who: Who, month: string) => call(who, 'POST', '/api/raaf/certify', { month, user_id: who.id });
const myActions = async (who: Who) => (await ok(call(who, 'GET', '/api/my-actions'))).data as MyActions;

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  coveredId = (await createBranch(t.db, { name: 'Calapan Port' })).id;
  otherCoveredId = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  await t.db.insert(establishments).values([
    { branch_id: coveredId, bir_branch_code: '00012', covered: true, e_invoicing_since: '2026-10-01', invoicing_system: 'EIS Cloud' },
    { branch_id: otherCoveredId, bir_branch_code: '00014', covered: true, e_invoicing_since: '2026-10-01', invoicing_system: 'EIS Cloud' },
  ]);
  routeId = (await createRoute(t.db, { name: 'Calapan - Batangas' })).id;
  const signed = async (role_id: number, branch_id: number) => {
    const { user, headers } = await signedIn(t, { role_id, branch_id });
    return { id: user.id, headers };
  };
  accounting = await signed(8, headOffice.id);
  admin = await signed(1, headOffice.id);
  auditor = await signed(9, headOffice.id);
  branchHead = await signed(5, coveredId);
  custodian = await signed(3, headOffice.id);
  courier = await signed(10, headOffice.id);
  at('2026-09-20T02:00:00Z');
  for (const name of ['Lina', 'Mara', 'Pia', 'Rosa', 'Sara', 'Tess', 'Uma']) await holderAt(coveredId, name);
  await holderAt(otherCoveredId, 'Nico');
});
afterAll(async () => {
  t.ctx.ledgerClock = undefined;
  await t.close();
});

describe('GET /api/paper-use-exceptions', () => {
  it('when a number is used outside an outage, then Accounting, Admin and the Auditor see the exception with who, where and when', async () => {
    const who = holder('Lina');
    const { pad, row } = await exceptionOf('Lina', '2026-10-03T01:15:00Z', 3);
    for (const reader of [accounting, admin, auditor]) {
      const shown = (await list(reader)).data.find((item) => item.id === row.id);
      expect((await ok(call(reader, 'GET', `/api/paper-use-exceptions/${row.id}`))).data).toEqual(shown);
      expect(shown).toEqual({
        id: row.id,
        establishment: { id: coveredId, name: 'Calapan Port' },
        pad: { id: pad.id, number: pad.number },
        route: { id: routeId, label: expect.stringContaining('Calapan - Batangas') },
        number_from: pad.series_from,
        number_to: pad.series_from + 2,
        numbers: `${pad.series_from}-${pad.series_from + 2}`,
        series_role: 'contingency',
        used_at: '2026-10-03T01:15:00.000Z',
        business_date: '2026-10-03',
        holder: { id: who.id, name: 'Lina Cruz' },
        recorded_by: { id: who.id, name: 'Lina Cruz' },
        state: 'open',
        decision: null,
      });
    }
  });

  it('when the list is filtered by state and establishment, then only those exceptions come back', async () => {
    const here = await exceptionOf('Mara', '2026-10-04T01:00:00Z');
    const there = await exceptionOf('Nico', '2026-10-04T02:00:00Z');
    const ids = (q: string) => list(accounting, q).then((answer) => answer.data.map((item) => item.id));
    expect(await ids(`&branch_id=${otherCoveredId}`)).toEqual([there.row.id]);
    expect(await ids(`&branch_id=${coveredId}`)).toContain(here.row.id);
    await ok(
      decide(accounting, there.row.id, { ...justify, decision: 'rejected', reason_code: 'other', reason_text: 'No outage that day' }),
    );
    expect(await ids('&state=rejected')).toEqual([there.row.id]);
    expect(await ids('&state=open')).not.toContain(there.row.id);
    expect(await ids('&state=open')).toContain(here.row.id);
  });

  it('when someone outside Accounting, Admin and the Auditor asks, then 403; a bad state is 422', async () => {
    expect((await call(branchHead, 'GET', '/api/paper-use-exceptions')).statusCode).toBe(403);
    expect((await call(branchHead, 'GET', '/api/paper-use-exceptions/1')).statusCode).toBe(403);
    expect((await call(accounting, 'GET', '/api/paper-use-exceptions/999999')).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/paper-use-exceptions')).statusCode).toBe(401);
    const res = await call(accounting, 'GET', '/api/paper-use-exceptions?state=linked');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.state).toEqual([PAPER_USE_MSG.stateFilter]);
  });
});

describe('POST /api/paper-use-exceptions/{id}/decision', () => {
  it('when an exception is open, then it is immediately in Needs my action for Accounting and Admin, linking to the exceptions screen', async () => {
    const who = holder('Pia');
    const { pad, row } = await exceptionOf('Pia', '2026-10-05T01:00:00Z');
    for (const decider of [accounting, admin]) {
      const group = (await myActions(decider)).groups.find((g) => g.kind === 'paper_use_exception');
      expect(group).toMatchObject({ title: 'Paper used outside an outage', menu_path: '/outages', list_path: '/outages?tab=exceptions' });
      expect(group?.count).toBeGreaterThanOrEqual(1);
      expect(group?.items).toContainEqual({
        id: row.id,
        label: expect.stringContaining(`${pad.series_from} · pad ${pad.number} · Calapan - Batangas · Calapan Port`),
        path: `/outages?tab=exceptions&exception=${row.id}`,
      });
    }
    expect((await myActions(who)).groups.map((g) => g.kind)).not.toContain('paper_use_exception');
    expect((await myActions(auditor)).groups.map((g) => g.kind)).not.toContain('paper_use_exception');
  });

  it("when the holder's month has an open exception, then certifying the RAAF is 409 until Accounting justifies it", async () => {
    const who = holder('Rosa');
    const { pad, row } = await exceptionOf('Rosa', '2026-10-06T01:00:00Z');
    const second = await exceptionOf('Rosa', '2026-10-07T01:00:00Z');
    const refused = await certify(who, '2026-10');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(PAPER_USE_MSG.certifyBlocked(2, pad.series_from, '2026-10'));

    const decided = await ok(decide(accounting, row.id, justify));
    expect(decided.message).toBe('Exception justified');
    expect(decided.data).toMatchObject({
      id: row.id,
      state: 'justified',
      decision: {
        reason_code: 'outage_not_declared',
        reason_label: EXCEPTION_REASON_LABELS.outage_not_declared,
        reason_text: justify.reason_text,
        decided_by: { id: accounting.id },
      },
    });
    const [stored] = await t.db.select().from(paperUses).where(eq(paperUses.id, row.id));
    expect(stored).toMatchObject({ state: 'justified', reason_code: 'outage_not_declared', decided_by: accounting.id });
    expect(stored.decided_at).toBeInstanceOf(Date);
    expect((await certify(who, '2026-10')).json().message).toBe(PAPER_USE_MSG.certifyBlocked(1, second.pad.series_from, '2026-10'));

    const again = await decide(admin, row.id, { ...justify, decision: 'rejected' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PAPER_USE_MSG.alreadyDecided('justified'));

    await ok(decide(admin, second.row.id, { ...justify, reason_code: 'customer_required_paper' }));
    await ok(certify(who, '2026-10'), 201);
  });

  it('when an exception is rejected, then it is decided too and no longer blocks certification', async () => {
    const who = holder('Sara');
    const { row } = await exceptionOf('Sara', '2026-10-08T01:00:00Z');
    expect((await certify(who, '2026-10')).statusCode).toBe(409);
    const rejected = await ok(
      decide(accounting, row.id, { decision: 'rejected', reason_code: 'other', reason_text: 'No outage was reported' }),
    );
    expect(rejected.data).toMatchObject({ state: 'rejected', decision: { reason_code: 'other', reason_label: 'Other' } });
    await ok(certify(who, '2026-10'), 201);
  });

  it('when a usage is undone, then its exception is marked undone, leaves the list and blocks nothing', async () => {
    const who = holder('Tess');
    const { pad, row } = await exceptionOf('Tess', '2026-10-09T01:00:00Z');
    const current = (await ok(call(who, 'GET', `/api/get-pad/${pad.id}`))).data as {
      number: number;
      pad_status_id: number;
      issuance_status_id: number;
      remarks: string | null;
      series: Array<{ number: number }>;
    };
    at('2026-10-09T02:00:00Z');
    await ok(
      call(who, 'PUT', `/api/update-pad/${pad.id}`, {
        number: current.number,
        pad_status_id: current.pad_status_id,
        issuance_status_id: current.issuance_status_id,
        remarks: current.remarks,
        series: current.series.map((entry) => ({ number: entry.number, status: 1 })),
      }),
    );
    const [stored] = await t.db.select().from(paperUses).where(eq(paperUses.id, row.id));
    expect(stored.undone_at).toEqual(new Date('2026-10-09T02:00:00Z'));
    expect((await list(accounting)).data.map((item) => item.id)).not.toContain(row.id);
    const items = (await myActions(accounting)).groups.find((g) => g.kind === 'paper_use_exception')?.items ?? [];
    expect(items.map((item) => item.id)).not.toContain(row.id);
    expect((await decide(accounting, row.id, justify)).statusCode).toBe(404);
    expect((await call(accounting, 'GET', `/api/paper-use-exceptions/${row.id}`)).statusCode).toBe(404);
    await ok(certify(who, '2026-10'), 201);
  });

  it('when the decision is not Accounting or Admin, or its reason is missing or unlisted, then it is refused and the exception stays open', async () => {
    const { row } = await exceptionOf('Uma', '2026-10-10T01:00:00Z');
    expect((await decide(auditor, row.id, justify)).statusCode).toBe(403);
    expect((await decide(branchHead, row.id, justify)).statusCode).toBe(403);
    const unlisted = await decide(accounting, row.id, { ...justify, reason_code: 'felt_like_it' });
    expect(unlisted.statusCode).toBe(422);
    expect(unlisted.json().errors.reason_code).toEqual([PAPER_USE_MSG.reasonNotListed]);
    const noText = await decide(accounting, row.id, { ...justify, reason_text: '  ' });
    expect(noText.statusCode).toBe(422);
    expect(noText.json().errors.reason_text).toEqual([PAPER_USE_MSG.reasonTextRequired]);
    const noDecision = await decide(accounting, row.id, { ...justify, decision: 'maybe' });
    expect(noDecision.json().errors.decision).toEqual([PAPER_USE_MSG.decisionRequired]);
    expect((await decide(accounting, 999_999, justify)).statusCode).toBe(404);
    const [stored] = await t.db.select().from(paperUses).where(eq(paperUses.id, row.id));
    expect(stored).toMatchObject({ state: 'open', decided_by: null, reason_code: null });
  });
});

describe('the alert (issue 37)', () => {
  it('when an exception is open, then Accounting and Admin are alerted and mailed at once with its link, and the alert resolves when it is decided', async () => {
    const { row } = await exceptionOf('Lina', '2026-10-11T01:00:00Z');
    const alerts = () =>
      t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.kind, 'paper_use_exception'), eq(notifications.subject_id, String(row.id))));
    const urgent = serverJobs(t.ctx, t.database).find((job) => job.name === 'alerts-urgent');
    if (!urgent) throw new Error('no alerts-urgent job');
    await runJob(t.db, urgent, { manual: true });
    const open = await alerts();
    expect(open.map((alert) => alert.recipient_user_id)).toEqual(expect.arrayContaining([accounting.id, admin.id]));
    expect(open.map((alert) => alert.recipient_user_id)).not.toContain(auditor.id);
    for (const alert of open) {
      expect(alert).toMatchObject({ link: `/outages?tab=exceptions&exception=${row.id}`, resolved_at: null });
      expect(alert.mailed_at).not.toBeNull();
    }
    await ok(decide(accounting, row.id, justify));
    await runJob(t.db, urgent, { manual: true });
    expect((await alerts()).every((alert) => alert.resolved_at !== null)).toBe(true);
  });
});
