import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { PAPER_USE_MSG } from '../../../shared/schemas/paper-uses.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { establishments, outages, paperUses } from '../../db/schema/paper-use.ts';
import { registeredSeries } from '../../db/schema/registered-series.ts';
import { buildPad, createBranch, createRoute, type PadRow, signedIn, storedPadRows } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { relinkWindow } from './paper-uses.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let coveredId: number;
let uncoveredId: number;
let routeId: number;
let holder: Who;
let outport: Who;
let accounting: Who;
let atp = 0;

const { call, ok, at } = apiCalls(() => t);

/** A pad held by `who` at `branchId`, inside a registered series of that role (none when null). */
async function padIn(role: string | null, who: Who, branchId: number): Promise<PadRow> {
  const pad = await buildPad(t.db, { route_id: routeId, size: 20, heldBy: { userId: who.id, branchId } });
  if (role === null) return pad;
  atp += 1;
  const [series] = await t.db
    .insert(registeredSeries)
    .values({
      route_id: routeId,
      branch_id: branchId,
      form_type: 'invoice',
      atp_number: `OCN-${atp}`,
      atp_date: '2026-01-05',
      printer: 'Mindoro Press',
      series_from: pad.series_from,
      series_to: pad.series_to,
      role,
    })
    .returning();
  await t.db.update(pads).set({ registered_series_id: series.id }).where(eq(pads.id, pad.id));
  const [linked] = await storedPadRows(t.db).where(eq(pads.id, pad.id));
  return linked;
}

async function declareOutage(starts: string, ends: string | null) {
  const [outage] = await t.db
    .insert(outages)
    .values({
      branch_id: coveredId,
      starts_at: new Date(starts),
      ends_at: ends ? new Date(ends) : null,
      cause: 'network',
      declared_by: accounting.id,
    })
    .returning();
  return outage;
}

const usesOf = (padId: number) => t.db.select().from(paperUses).where(eq(paperUses.pad_id, padId)).orderBy(asc(paperUses.id));
const use = (who: Who, pad: PadRow, from: number, to = from, extra: object = {}) =>
  call(who, 'POST', `/api/pads/${pad.id}/usage`, { from, to, ...extra });

async function gridSet(who: Who, pad: PadRow, used: number[]) {
  const current = (await ok(call(who, 'GET', `/api/get-pad/${pad.id}`))).data as {
    number: number;
    pad_status_id: number;
    issuance_status_id: number;
    remarks: string | null;
    series: Array<{ number: number }>;
  };
  return call(who, 'PUT', `/api/update-pad/${pad.id}`, {
    number: current.number,
    pad_status_id: current.pad_status_id,
    issuance_status_id: current.issuance_status_id,
    remarks: current.remarks,
    series: current.series.map((entry) => ({ number: entry.number, status: used.includes(entry.number) ? 2 : 1 })),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  coveredId = (await createBranch(t.db, { name: 'Calapan Port' })).id;
  uncoveredId = (await createBranch(t.db, { name: 'Bulalacao Outport' })).id;
  await t.db.insert(establishments).values([
    { branch_id: coveredId, bir_branch_code: '00012', covered: true, e_invoicing_since: '2026-10-01', invoicing_system: 'EIS Cloud' },
    { branch_id: uncoveredId, bir_branch_code: '00013', covered: false },
  ]);
  routeId = (await createRoute(t.db, { name: 'Calapan - Batangas' })).id;
  const h = await signedIn(t, { role_id: 7, branch_id: coveredId, first_name: 'Ana', last_name: 'Cruz' });
  holder = { id: h.user.id, headers: h.headers };
  const o = await signedIn(t, { role_id: 7, branch_id: uncoveredId, first_name: 'Olga', last_name: 'Tan' });
  outport = { id: o.user.id, headers: o.headers };
  const a = await signedIn(t, { role_id: 8, branch_id: headOffice.id });
  accounting = { id: a.user.id, headers: a.headers };
});
afterAll(async () => {
  t.ctx.ledgerClock = undefined;
  await t.close();
});

describe('usage at an e-invoicing establishment (issue 38)', () => {
  it('when a contingency number is used inside an outage there, then the use is linked to the outage and no exception opens', async () => {
    const outage = await declareOutage('2026-10-05T00:00:00Z', '2026-10-05T06:00:00Z');
    const pad = await padIn('contingency', holder, coveredId);
    at('2026-10-05T02:00:00Z');
    await ok(use(holder, pad, pad.series_from, pad.series_from + 1));
    expect(await usesOf(pad.id)).toMatchObject([
      {
        branch_id: coveredId,
        pad_id: pad.id,
        route_id: routeId,
        registered_series_id: pad.registered_series_id,
        series_role: 'contingency',
        number_from: pad.series_from,
        number_to: pad.series_from + 1,
        holder_user_id: holder.id,
        used_at: new Date('2026-10-05T02:00:00Z'),
        business_date: '2026-10-05',
        recorded_by: holder.id,
        outage_id: outage.id,
        state: 'linked',
        undone_at: null,
      },
    ]);
    const list = await ok(call(accounting, 'GET', '/api/paper-use-exceptions?per_page=100'));
    expect(list.data.map((row: { pad: { id: number } }) => row.pad.id)).not.toContain(pad.id);
  });

  it('when a converted number is used outside any outage, then an open exception is stored with the usage', async () => {
    const pad = await padIn('converted', holder, coveredId);
    at('2026-10-06T03:00:00Z');
    await ok(use(holder, pad, pad.series_from));
    expect(await usesOf(pad.id)).toMatchObject([{ series_role: 'converted', state: 'open', outage_id: null, business_date: '2026-10-06' }]);
  });

  it('when a regular series number is used there after go-live, then 409 names the role and nothing is stored', async () => {
    const pad = await padIn('regular', holder, coveredId);
    at('2026-10-07T02:00:00Z');
    const res = await use(holder, pad, pad.series_from);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(PAPER_USE_MSG.roleRefused(pad.number, 'regular', '2026-10-01'));
    expect(res.json().message).toContain(`Pad ${pad.number} is in a regular series`);
    const [stored] = await storedPadRows(t.db).where(eq(pads.id, pad.id));
    expect(stored.series_status).toBe('1'.repeat(20));
    expect(await t.db.select().from(padEvents).where(eq(padEvents.pad_id, pad.id))).toEqual([]);
    expect(await usesOf(pad.id)).toEqual([]);
  });

  it('when a retired series number is used there, then 409 names the retired role', async () => {
    const pad = await padIn('retired', holder, coveredId);
    at('2026-10-07T02:00:00Z');
    const res = await use(holder, pad, pad.series_from);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('is in a retired series: retired series may not be used');
    expect(await usesOf(pad.id)).toEqual([]);
  });

  it('when a pad with no registered series is used there, then 409 asks to register its series with a role', async () => {
    const pad = await padIn(null, holder, coveredId);
    at('2026-10-07T02:00:00Z');
    const res = await use(holder, pad, pad.series_from);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(PAPER_USE_MSG.noSeries(pad.number, '2026-10-01'));
    expect(await usesOf(pad.id)).toEqual([]);
  });

  it('when a regular number is used at an uncovered establishment, then the usage is recorded and no paper use is written', async () => {
    const pad = await padIn('regular', outport, uncoveredId);
    at('2026-10-07T02:00:00Z');
    await ok(use(outport, pad, pad.series_from));
    const [stored] = await storedPadRows(t.db).where(eq(pads.id, pad.id));
    expect(stored.series_status[0]).toBe('2');
    expect(await usesOf(pad.id)).toEqual([]);
  });

  it('when a regular number is used at a covered establishment before its go-live day, then nothing changes', async () => {
    const pad = await padIn('regular', holder, coveredId);
    at('2026-09-30T15:59:00Z');
    await ok(use(holder, pad, pad.series_from));
    expect(await usesOf(pad.id)).toEqual([]);
    at('2026-09-30T16:00:00Z');
    const res = await use(holder, pad, pad.series_from + 1);
    expect(res.statusCode, 'midnight of 1 October in Manila is go-live').toBe(409);
  });

  it('when usage skips numbers, then only the used range is a paper use (the skipped ones are cancelled, not used)', async () => {
    const pad = await padIn('contingency', holder, coveredId);
    at('2026-10-08T02:00:00Z');
    await ok(use(holder, pad, pad.series_from + 3, pad.series_from + 4, { reason: 'Torn' }));
    expect(await usesOf(pad.id)).toMatchObject([{ number_from: pad.series_from + 3, number_to: pad.series_from + 4, state: 'open' }]);
  });

  it('when an offline usage is replayed later, then the device time decides its outage', async () => {
    const outage = await declareOutage('2026-10-09T00:00:00Z', '2026-10-09T04:00:00Z');
    const pad = await padIn('contingency', holder, coveredId);
    at('2026-10-09T09:00:00Z');
    await ok(use(holder, pad, pad.series_from, pad.series_from, { device_at: '2026-10-09T10:30:00+08:00' }));
    expect(await usesOf(pad.id)).toMatchObject([{ used_at: new Date('2026-10-09T02:30:00Z'), state: 'linked', outage_id: outage.id }]);
  });

  it('when the grid marks numbers used and then unmarks them, then the paper use is written and then marked undone', async () => {
    const pad = await padIn('supplementary', holder, coveredId);
    at('2026-10-10T02:00:00Z');
    await ok(gridSet(holder, pad, [pad.series_from, pad.series_from + 1]));
    const [written] = await usesOf(pad.id);
    expect(written).toMatchObject({ number_from: pad.series_from, number_to: pad.series_from + 1, state: 'open', undone_at: null });
    at('2026-10-10T03:00:00Z');
    await ok(gridSet(holder, pad, []));
    expect(await usesOf(pad.id)).toMatchObject([{ id: written.id, undone_at: new Date('2026-10-10T03:00:00Z') }]);
  });

  it('when the grid marks a regular series number used at a covered place, then 409 and the pad is unchanged', async () => {
    const pad = await padIn('regular', holder, coveredId);
    at('2026-10-10T02:00:00Z');
    const res = await gridSet(holder, pad, [pad.series_from]);
    expect(res.statusCode).toBe(409);
    const [stored] = await storedPadRows(t.db).where(eq(pads.id, pad.id));
    expect(stored.series_status).toBe('1'.repeat(20));
  });

  it('when one number in the middle of a use is unmarked, then the use is undone and its other numbers stay as new uses', async () => {
    const pad = await padIn('contingency', holder, coveredId);
    const first = pad.series_from;
    at('2026-10-11T02:00:00Z');
    await ok(use(holder, pad, first, first + 2));
    at('2026-10-11T05:00:00Z');
    await ok(gridSet(holder, pad, [first, first + 2]));
    const rows = await usesOf(pad.id);
    expect(rows).toMatchObject([
      { number_from: first, number_to: first + 2, undone_at: new Date('2026-10-11T05:00:00Z') },
      { number_from: first, number_to: first, state: 'open', used_at: new Date('2026-10-11T02:00:00Z'), undone_at: null },
      { number_from: first + 2, number_to: first + 2, state: 'open', used_at: new Date('2026-10-11T02:00:00Z'), undone_at: null },
    ]);
  });
});

describe('relinkWindow (issue 38)', () => {
  it('when Accounting declares an outage afterwards (POST /api/outages) over an open exception, then the exception is linked to it', async () => {
    const pad = await padIn('contingency', holder, coveredId);
    at('2026-10-14T02:00:00Z');
    await ok(use(holder, pad, pad.series_from, pad.series_from + 1));
    const [open] = await usesOf(pad.id);
    expect(open.state).toBe('open');
    const declared = await ok(
      call(accounting, 'POST', '/api/outages', {
        branch_id: coveredId,
        starts_at: '2026-10-14T09:30:00+08:00',
        ends_at: '2026-10-14T11:00:00+08:00',
        cause: 'network',
      }),
      201,
    );
    expect(await usesOf(pad.id)).toMatchObject([{ id: open.id, state: 'linked', outage_id: declared.data.id }]);
    const list = await ok(call(accounting, 'GET', '/api/paper-use-exceptions?per_page=100'));
    expect(list.data.map((row: { id: number }) => row.id)).not.toContain(open.id);
  });

  it('when an outage is declared afterwards over an open exception, then the exception links to it; narrowing opens it again', async () => {
    const pad = await padIn('contingency', holder, coveredId);
    at('2026-10-12T02:00:00Z');
    await ok(use(holder, pad, pad.series_from));
    const [open] = await usesOf(pad.id);
    expect(open.state).toBe('open');
    const outage = await declareOutage('2026-10-12T01:00:00Z', '2026-10-12T05:00:00Z');
    expect(await t.db.transaction((tx) => relinkWindow(tx, outage))).toEqual({ linked: 1, unlinked: 0 });
    expect(await usesOf(pad.id)).toMatchObject([{ id: open.id, state: 'linked', outage_id: outage.id }]);

    const [narrowed] = await t.db
      .update(outages)
      .set({ ends_at: new Date('2026-10-12T01:30:00Z') })
      .where(eq(outages.id, outage.id))
      .returning();
    expect(await t.db.transaction((tx) => relinkWindow(tx, narrowed))).toEqual({ linked: 0, unlinked: 1 });
    expect(await usesOf(pad.id)).toMatchObject([{ id: open.id, state: 'open', outage_id: null }]);
  });

  it('when an outage covers a justified exception, then the decision stands', async () => {
    const pad = await padIn('contingency', holder, coveredId);
    at('2026-10-13T02:00:00Z');
    await ok(use(holder, pad, pad.series_from));
    const [row] = await usesOf(pad.id);
    await ok(
      call(accounting, 'POST', `/api/paper-use-exceptions/${row.id}/decision`, {
        decision: 'justified',
        reason_code: 'outage_not_declared',
        reason_text: 'Power went off; the declaration came the next day',
      }),
    );
    const outage = await declareOutage('2026-10-13T00:00:00Z', '2026-10-13T05:00:00Z');
    expect(await t.db.transaction((tx) => relinkWindow(tx, outage))).toEqual({ linked: 0, unlinked: 0 });
    expect(await usesOf(pad.id)).toMatchObject([{ state: 'justified', outage_id: null }]);
  });
});
