import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, eq } from 'drizzle-orm';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { cancellation, issueAndAccept } from '../../test/custody.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}
interface Group {
  qty: number;
  ranges: Array<[number, number]>;
}
interface RaafBody {
  rows: Array<{
    route: { id: number };
    beginning: Group;
    receipt: Group;
    issued: Group & { by_kind: Record<string, number> };
    ending: Group;
    remarks: string[];
  }>;
}

let t: TestApp;
let holder: Who;
let branchHead: Who;
let custodian: Who;
let accounting: Who;
let routeId: number;
let padId: number;

const { call, ok, at } = apiCalls(() => t);

const cancel = (who: Who, from: number, to: number, details: string) =>
  ok(call(who, 'POST', `/api/pads/${padId}/outcome`, cancellation(from, to, details)));

async function routeRow(month: string) {
  const body = (await ok(call(holder, 'GET', `/api/raaf?month=${month}&user_id=${holder.id}`))).data as RaafBody;
  const row = body.rows.find((r) => r.route.id === routeId);
  if (!row) throw new Error('route row missing');
  return row;
}

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const calapan = await createBranch(t.db, { name: 'Calapan Terminal' });
  const person = async (role_id: number, branch_id: number, first_name: string, last_name: string): Promise<Who> => {
    const { user, headers } = await signedIn(t, { role_id, branch_id, first_name, last_name });
    return { id: user.id, headers };
  };
  custodian = await person(3, headOffice.id, 'Dina', 'Santos');
  accounting = await person(8, headOffice.id, 'Elmer', 'Lim');
  holder = await person(7, calapan.id, 'Ana', 'Cruz');
  branchHead = await person(5, calapan.id, 'Ben', 'Head');
  const courier = await person(10, headOffice.id, 'Carlo', 'Dizon');
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;

  at('2026-10-05T02:00:00Z');
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1001, series_to: 1050, pad_size: 50 }), 201);
  [{ id: padId }] = await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number));
  await issueAndAccept(t, { holder, custodian, courier, routeId, padIds: [padId] });

  at('2026-10-20T02:00:00Z');
  await cancel(custodian, 1005, 1006, 'coffee');
  at('2026-11-03T02:00:00Z');
  await cancel(accounting, 1007, 1007, 'ink');
  at('2026-11-10T02:00:00Z');
  await ok(call(branchHead, 'POST', '/api/outcome-reverts', { pad_id: padId, from: 1005, to: 1007, reason: 'Cancelled by mistake' }));
  t.ctx.ledgerClock = undefined;
});
afterAll(async () => {
  await t.close();
});

describe('one revert over numbers cancelled in two months by two people', () => {
  const octoberCorrection = 'Correction: 1005-1006 (2) cancellation undone: Cancelled by mistake; cancelled by Dina Santos on 20 Oct 2026';
  const novemberUndo = '1007 (1) cancellation undone: Cancelled by mistake; cancelled by Elmer Lim on 03 Nov 2026';

  it('when the revert is stored, then the numbers are unused again by one cancel_reverted event and the ledger verifies', async () => {
    const pad = (await ok(call(holder, 'GET', `/api/get-pad/${padId}`))).data as { series: Array<{ number: number; status: number }> };
    expect(pad.series.filter((entry) => entry.number >= 1005 && entry.number <= 1007).map((entry) => entry.status)).toEqual([1, 1, 1]);
    const [last] = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padId)).orderBy(desc(padEvents.seq)).limit(1);
    expect(last).toMatchObject({
      kind: 'cancel_reverted',
      from_number: 1005,
      to_number: 1007,
      actor_user_id: branchHead.id,
      holder_user_id: holder.id,
      business_date: '2026-11-10',
    });
    await expectLedgerVerified(t.db);
  });

  it('when November is read, then 1005-1006 is a correction naming October\u2019s canceller and 1007 is not, naming November\u2019s', async () => {
    const row = await routeRow('2026-11');
    expect(row.beginning).toEqual({
      qty: 48,
      ranges: [
        [1001, 1004],
        [1007, 1050],
      ],
    });
    expect(row.receipt).toEqual({ qty: 3, ranges: [[1005, 1007]] });
    expect(row.issued).toEqual({ qty: 1, ranges: [[1007, 1007]], by_kind: { used: 0, cancelled: 1, lost: 0, transferred: 0 } });
    expect(row.ending).toEqual({ qty: 50, ranges: [[1001, 1050]] });
    expect(row.remarks).toEqual(['Cancelled 1007 (1): Spoiled (torn, stained, misprinted): ink', octoberCorrection, novemberUndo]);
  });

  it('when October is read, then it still shows only its own cancellation of 1005-1006, never the November undo', async () => {
    const row = await routeRow('2026-10');
    expect(row.receipt).toEqual({ qty: 50, ranges: [[1001, 1050]] });
    expect(row.issued).toEqual({ qty: 2, ranges: [[1005, 1006]], by_kind: { used: 0, cancelled: 2, lost: 0, transferred: 0 } });
    expect(row.ending).toEqual({
      qty: 48,
      ranges: [
        [1001, 1004],
        [1007, 1050],
      ],
    });
    expect(row.remarks).toEqual(['Cancelled 1005-1006 (2): Spoiled (torn, stained, misprinted): coffee']);
  });

  it('when November\u2019s PDF is printed, then it carries the two undo remarks, each with its own canceller and day', async () => {
    const res = await call(holder, 'GET', `/api/raaf?month=2026-11&user_id=${holder.id}&format=pdf`);
    expect(res.statusCode).toBe(200);
    const text = pdfToText(res.rawPayload).replace(/\s+/g, ' ');
    expect(text).toContain(`Batangas - Calapan: ${octoberCorrection}`);
    expect(text).toContain(`Batangas - Calapan: ${novemberUndo}`);
    expect(text).not.toContain('1005-1007 (3)');
  });
});
