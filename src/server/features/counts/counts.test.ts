import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { COUNT_MSG } from '../../../shared/schemas/counts.ts';
import { countItems, countSessions } from '../../db/schema/counts.ts';
import { lossIncidents } from '../../db/schema/incidents.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { encodePadLabel } from '../../lib/pad-label.ts';
import { issueAndAccept } from '../../test/custody.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
const role: Record<number, Who> = {};
let holder: Who;
let otherHolder: Who;
let branchHead: Who;
let otherBranchHead: Who;
let courier: Who;
let branchId: number;
let routeId: number;
let padIds: number[];

const { call, ok } = apiCalls(() => t);

const label = (padId: number) => encodePadLabel(t.ctx.badgeSecret, padId);

const issueTo = (who: Who, ids: number[]) => issueAndAccept(t, { holder: who, custodian: role[3], courier, routeId, padIds: ids });

beforeAll(async () => {
  t = await createTestApp();
  const headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  const otherBranchId = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  for (const r of [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]) {
    const { user, headers } = await signedIn(t, { role_id: r, branch_id: headOfficeId });
    role[r] = { id: user.id, headers };
  }
  const h = await signedIn(t, { role_id: 7, branch_id: branchId, first_name: 'Ana', last_name: 'Cruz' });
  holder = { id: h.user.id, headers: h.headers };
  const h2 = await signedIn(t, { role_id: 6, branch_id: branchId, first_name: 'Dino', last_name: 'Reyes' });
  otherHolder = { id: h2.user.id, headers: h2.headers };
  const bh = await signedIn(t, { role_id: 5, branch_id: branchId, first_name: 'Ben', last_name: 'Head' });
  branchHead = { id: bh.user.id, headers: bh.headers };
  const obh = await signedIn(t, { role_id: 5, branch_id: otherBranchId });
  otherBranchHead = { id: obh.user.id, headers: obh.headers };
  const c = await signedIn(t, { role_id: 10, branch_id: headOfficeId });
  courier = { id: c.user.id, headers: c.headers };
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(role[3], 'POST', '/api/add-pad', { route_id: routeId, series_from: 1001, series_to: 1500, pad_size: 50 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
  await issueTo(holder, padIds.slice(0, 4));
  await issueTo(otherHolder, [padIds[4]]);
});
afterAll(async () => {
  await t.close();
});

describe('pad labels', () => {
  it('when a label code is scanned, then it resolves to its pad only, also for a courier; forged, altered or bare ids are 404', async () => {
    const body = await ok(call(role[3], 'GET', `/api/pad-by-label?code=${encodeURIComponent(label(padIds[2]))}`));
    expect(body.data).toMatchObject({ id: padIds[2], number: 3, series_number: '1101-1150' });
    const code = label(padIds[2]);
    const altered = code.slice(0, -1) + (code.endsWith('A') ? 'B' : 'A');
    const otherId = code.replace(`PT1P${padIds[2]}-`, `PT1P${padIds[3]}-`);
    for (const forged of [altered, otherId, String(padIds[2]), `PT1P${padIds[2]}-000000000000`]) {
      const res = await call(role[3], 'GET', `/api/pad-by-label?code=${encodeURIComponent(forged)}`);
      expect(res.statusCode, forged).toBe(404);
      expect(res.json().message).toBe(COUNT_MSG.labelUnknown);
    }
    const byCourier = await ok(call(courier, 'GET', `/api/pad-by-label?code=${encodeURIComponent(code)}`));
    expect(byCourier.data).toMatchObject({ id: padIds[2], number: 3 });
  });

  it('when labels are printed on A4 and 4x6, then the PDF names each pad, its route and series', async () => {
    for (const size of ['a4', '4x6']) {
      const res = await call(role[3], 'GET', `/api/pad-labels?ids=${padIds[0]},${padIds[1]}&size=${size}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = pdfToText(res.rawPayload);
      expect(text).toContain('Batangas - Calapan');
      expect(text).toMatch(/Pad 1\b/);
      expect(text).toContain('Series 1051-1100');
      expect(text).toContain(label(padIds[1]));
    }
    expect((await call(role[3], 'GET', '/api/pad-labels?ids=999999')).statusCode).toBe(404);
    expect((await call(role[3], 'GET', '/api/pad-labels?ids=abc')).statusCode).toBe(422);
  });
});

describe('who may count', () => {
  it('when roles outside 1, 3, 5, 8, 9 start a count, then 403; roles 1, 3, 8, 9 may count anyone', async () => {
    for (const r of [2, 4, 6, 7, 10, 11])
      expect((await call(role[r], 'POST', '/api/counts', { user_id: holder.id })).statusCode, `role ${r}`).toBe(403);
    for (const r of [1, 8, 9]) await ok(call(role[r], 'POST', '/api/counts', { user_id: otherHolder.id }), 201);
  });

  it('when a holder counts their own pads, then 403 says someone else must; a Branch Head counts only their branch users', async () => {
    const self = await call(role[3], 'POST', '/api/counts', { user_id: role[3].id });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(COUNT_MSG.countSelf);
    const ownBranch = await call(branchHead, 'POST', '/api/counts', { branch_id: branchId });
    expect(ownBranch.json().message).toBe(COUNT_MSG.countSelf);
    expect((await call(branchHead, 'POST', '/api/counts', { user_id: branchHead.id })).statusCode).toBe(403);
    expect((await call(otherBranchHead, 'POST', '/api/counts', { user_id: holder.id })).statusCode).toBe(403);
    const body = await ok(call(branchHead, 'POST', '/api/counts', { user_id: otherHolder.id }), 201);
    expect(body.data.holder).toEqual({ type: 'user', id: otherHolder.id, name: 'Dino Reyes' });
    expect((await call(role[3], 'POST', '/api/counts', {})).json().errors).toEqual({ user_id: [COUNT_MSG.holderRequired] });
    expect((await call(role[3], 'POST', '/api/counts', { user_id: 999999 })).statusCode).toBe(422);
  });
});

describe('a count from start to close', () => {
  let countId: number;
  const variancesOf = async () =>
    (await ok(call(role[3], 'GET', `/api/counts/${countId}/variances`))).data as Array<{
      id: number;
      kind: string;
      pad: { id: number };
      detail: string;
      resolution: null | { action: string };
    }>;
  const scan = (body: object) => call(role[3], 'POST', `/api/counts/${countId}/items`, body);

  it('when the Custodian starts a count of a holder, then 201 lists the pads the books place there', async () => {
    await ok(call(holder, 'POST', `/api/pads/${padIds[2]}/usage`, { from: 1101, to: 1110 }));
    const body = await ok(call(role[3], 'POST', '/api/counts', { user_id: holder.id }), 201);
    countId = body.data.id;
    expect(body.data.status).toBe('open');
    expect(body.data.expected.map((p: { id: number }) => p.id)).toEqual(padIds.slice(0, 4));
  });

  it('when the scripted scan finds every kind of variance, then each is listed with its numbers', async () => {
    await ok(scan({ code: label(padIds[0]), first_unused: 1001 }));
    await ok(scan({ pad_id: padIds[1], first_unused: 1056 }));
    await ok(scan({ code: label(padIds[2]), first_unused: 1105 }));
    await ok(scan({ code: label(padIds[4]), first_unused: 1201 }));
    expect((await scan({ pad_id: padIds[0], first_unused: 1100 })).statusCode).toBe(422);
    expect((await scan({ code: 'PT1P1-FORGEDFORGED' })).statusCode).toBe(404);
    expect((await ok(call(role[3], 'POST', `/api/counts/${countId}/end-scan`))).message).toBe(COUNT_MSG.scanEnded(1));
    const found = await variancesOf();
    expect(found.map((v) => [v.pad.id, v.kind])).toEqual([
      [padIds[1], 'unrecorded_use'],
      [padIds[2], 'unused_recorded'],
      [padIds[3], 'missing'],
      [padIds[4], 'found_elsewhere'],
    ]);
    expect(found[0].detail).toContain('Numbers 1051-1055 used but not recorded');
    expect(found[1].detail).toContain('Numbers 1105-1110 recorded as used but unused');
    expect(found[3].detail).toContain('Dino Reyes');
  });

  it('when the count is closed with variances unresolved, then 409 says how many, and it stays open', async () => {
    const res = await call(role[3], 'POST', `/api/counts/${countId}/close`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(COUNT_MSG.unresolved(4));
    expect((await ok(call(role[3], 'GET', `/api/counts/${countId}`))).data.status).toBe('open');
  });

  it('when a variance is resolved through range usage, then the usage action records it with its ledger event', async () => {
    const [unrecorded] = await variancesOf();
    const wrong = await call(role[3], 'POST', `/api/counts/${countId}/variances/${(await variancesOf())[2].id}/resolve`, {
      action: 'usage',
      reason: 'x',
    });
    expect(wrong.statusCode).toBe(422);
    expect(
      (await call(role[8], 'POST', `/api/counts/${countId}/variances/${unrecorded.id}/resolve`, { action: 'accept', reason: 'x' }))
        .statusCode,
    ).toBe(403);
    const body = await ok(
      call(role[3], 'POST', `/api/counts/${countId}/variances/${unrecorded.id}/resolve`, {
        action: 'usage',
        reason: 'receipts issued, stubs found',
      }),
    );
    expect(body.data.resolution).toMatchObject({ action: 'usage', reason: 'receipts issued, stubs found' });
    const pad = (await ok(call(role[3], 'GET', `/api/get-pad/${padIds[1]}`))).data;
    expect(pad.next_number).toBe(1056);
    const [event] = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padIds[1])).orderBy(desc(padEvents.seq)).limit(1);
    expect(event).toMatchObject({ kind: 'used', from_number: 1051, to_number: 1055, actor_user_id: role[3].id });
    await expectLedgerVerified(t.db);
    const again = await call(role[3], 'POST', `/api/counts/${countId}/variances/${unrecorded.id}/resolve`, {
      action: 'accept',
      reason: 'x',
    });
    expect(again.statusCode).toBe(409);
  });

  it('when a missing pad is resolved by a loss incident, then the incident is reported through the incidents service', async () => {
    const missing = (await variancesOf()).find((v) => v.kind === 'missing');
    const body = await ok(
      call(role[3], 'POST', `/api/counts/${countId}/variances/${missing?.id}/resolve`, { action: 'incident', reason: 'not in the safe' }),
    );
    const [incident] = await t.db.select().from(lossIncidents).where(eq(lossIncidents.id, body.data.resolution.incident_id));
    expect(incident).toMatchObject({
      status: 'reported',
      reported_by: role[3].id,
      circumstances: `Found by count #${countId}: not in the safe`,
    });
    for (const v of (await variancesOf()).filter((x) => x.resolution === null))
      await ok(
        call(role[3], 'POST', `/api/counts/${countId}/variances/${v.id}/resolve`, { action: 'accept', reason: 'explained by the holder' }),
      );
  });

  it('when closing before the holder signs off, then 409; the counter cannot sign for them; the holder can', async () => {
    expect((await call(role[3], 'POST', `/api/counts/${countId}/close`)).json().message).toBe(COUNT_MSG.notSignedOff);
    expect((await call(role[3], 'POST', `/api/counts/${countId}/sign-off`, {})).statusCode).toBe(403);
    expect((await call(otherHolder, 'POST', `/api/counts/${countId}/sign-off`, {})).statusCode).toBe(403);
    const signed = await ok(call(holder, 'POST', `/api/counts/${countId}/sign-off`, {}));
    expect(signed.data.signed_off_by).toEqual({ id: holder.id, full_name: 'Ana Cruz' });
    const closed = await ok(call(role[3], 'POST', `/api/counts/${countId}/close`));
    expect(closed.data.status).toBe('closed');
    expect(closed.data.variances_open).toBe(0);
  });

  it('when a closed count is changed, then the API says 409 and the database refuses by trigger', async () => {
    expect((await scan({ pad_id: padIds[3], first_unused: 1151 })).json().message).toBe(COUNT_MSG.closedAlready);
    const attempts = [
      sql`update count_items set first_unused = 1 where count_id = ${countId}`,
      sql`delete from count_items where count_id = ${countId}`,
      sql`insert into count_items (count_id, pad_id, expected) values (${countId}, ${padIds[5]}, false)`,
      sql`update count_resolutions set reason = 'changed' where count_id = ${countId}`,
      sql`delete from count_resolutions where count_id = ${countId}`,
      sql`update count_sessions set signature = null where id = ${countId}`,
      sql`update count_sessions set status = 'open', closed_at = null where id = ${countId}`,
      sql`delete from count_sessions where id = ${countId}`,
      sql`truncate count_sessions cascade`,
    ];
    for (const attempt of attempts) {
      const failure = await t.db.execute(attempt).then(
        () => 'applied',
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
      );
      expect(failure).toMatch(/append-only/);
    }
  });

  it('when the certificate is read, then it names who counted whom, the pads, and every variance with its resolution', async () => {
    const res = await call(holder, 'GET', `/api/counts/${countId}/certificate`);
    expect(res.statusCode).toBe(200);
    const text = pdfToText(res.rawPayload);
    expect(text).toContain('Physical Count Certificate');
    expect(text).toContain('Ana Cruz');
    expect(text).toMatch(/Pad 2 \(Batangas -\s+Numbers used but not\s+Numbers 1051-1055 used but not\s+Record the usage: receipts issued/);
    expect(text).toMatch(/Pad 4 \(Batangas -\s+Pad missing\s+Not found with Ana Cruz\s+Open a loss incident/);
    expect(text).toContain('LOSS-2026-0001: not in the safe');
    expect(text).toContain('Pad found elsewhere');
    expect(text).toContain('Numbers 1105-1110 recorded as');
    const zone = `(${t.ctx.config.timeZone})`;
    expect(text).toMatch(/Counted by\s+Holder\s+\S.*\s+Ana Cruz\s+Custodian, Head Office\s+Ticketing Officer, Calapan/);
    for (const label of ['Started', 'Closed']) expect(text).toMatch(new RegExp(`${label}\\s+\\d{2} \\w{3} \\d{4} \\d{2}:\\d{2} \\(`));
    expect(text.split(zone).length - 1).toBeGreaterThanOrEqual(6);
    expect(text.match(/\d{2} \w{3} \d{4} \d{2}:\d{2}(?! \()/g) ?? []).toEqual([]);
    expect((await call(otherBranchHead, 'GET', `/api/counts/${countId}/certificate`)).statusCode).toBe(403);
  });
});

describe('parallel scans', () => {
  it('when 20 scans of the same pads land at once, then each pad has one row', async () => {
    const body = await ok(call(role[8], 'POST', '/api/counts', { user_id: holder.id }), 201);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(role[8], 'POST', `/api/counts/${body.data.id}/items`, { code: label(padIds[i % 4]), first_unused: 1001 + (i % 4) * 50 + 40 }),
      ),
    );
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    const rows = await t.db.select().from(countItems).where(eq(countItems.count_id, body.data.id));
    expect(rows.map((r) => r.pad_id).sort((a, b) => a - b)).toEqual(padIds.slice(0, 4));
    expect(rows.every((r) => r.state === 'found')).toBe(true);
  });
});

describe('count schedule', () => {
  type Groups = { groups: Array<{ kind: string; count: number; items: Array<{ label: string }> }> };
  const dueLabels = async (who: Who) =>
    ((await ok(call(who, 'GET', '/api/my-actions'))).data as Groups).groups
      .find((g) => g.kind === 'count_due')
      ?.items.map((i) => i.label) ?? [];

  it('when a holder was counted within COUNT_EVERY_DAYS, then only the others are "count due" in Needs my action and on the Dashboard', async () => {
    expect(await dueLabels(role[3])).toContain('Dino Reyes · never counted');
    expect((await dueLabels(role[3])).some((l) => l.startsWith('Ana Cruz'))).toBe(false);
    expect(await dueLabels(branchHead)).toEqual(['Dino Reyes · never counted']);
    expect(await dueLabels(otherBranchHead)).toEqual([]);
    expect(await dueLabels(holder)).toEqual([]);
    const dashboard = (await ok(call(role[9], 'GET', '/api/dashboard'))).data;
    expect(dashboard.counts_due.items.map((i: { label: string }) => i.label)).toContain('Dino Reyes · never counted');
  });

  it('when the schedule is shorter than the time since the last count, then the holder is due with the date of that count', async () => {
    t.ctx.config.countEveryDays = 0;
    try {
      const ana = (await dueLabels(role[3])).find((l) => l.startsWith('Ana Cruz'));
      expect(ana).toMatch(/^Ana Cruz · last counted \d{4}-\d{2}-\d{2}$/);
    } finally {
      t.ctx.config.countEveryDays = 90;
    }
  });
});

describe('last count per holder', () => {
  const last = (who: Who | null, query: string) => call(who, 'GET', `/api/counts/last?${query}`);

  it('when a holder has a closed count, then their screens read its date and number; a holder never counted reads none', async () => {
    const [closed] = await t.db
      .select()
      .from(countSessions)
      .where(and(eq(countSessions.holder_user_id, holder.id), eq(countSessions.status, 'closed')))
      .orderBy(desc(countSessions.closed_at))
      .limit(1);
    expect(closed.closed_at).not.toBeNull();
    for (const reader of [role[9], role[3], holder, branchHead]) {
      const body = await ok(last(reader, `user_id=${holder.id}`));
      expect(body.data).toEqual({
        holder: { type: 'user', id: holder.id, name: 'Ana Cruz' },
        last_counted_at: new Date(closed.closed_at as Date).toISOString(),
        count_id: closed.id,
      });
    }
    expect((await ok(last(role[1], `user_id=${otherHolder.id}`))).data).toEqual({
      holder: { type: 'user', id: otherHolder.id, name: 'Dino Reyes' },
      last_counted_at: null,
      count_id: null,
    });
    expect((await ok(last(role[8], `branch_id=${branchId}`))).data).toEqual({
      holder: { type: 'branch', id: branchId, name: 'Calapan Terminal' },
      last_counted_at: null,
      count_id: null,
    });
  });

  it('when someone outside the holder’s RAAF readers asks, then 403; no holder, both, or an unknown one is 422 with a message', async () => {
    expect((await last(otherBranchHead, `user_id=${holder.id}`)).statusCode).toBe(403);
    expect((await last(courier, `user_id=${holder.id}`)).statusCode).toBe(403);
    expect((await last(role[7], `user_id=${holder.id}`)).statusCode).toBe(403);
    const none = await last(role[3], '');
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain(COUNT_MSG.holderRequired);
    const both = await last(role[3], `user_id=${holder.id}&branch_id=${branchId}`);
    expect(both.statusCode).toBe(422);
    expect(both.body).toContain(COUNT_MSG.oneHolder);
    const unknown = await last(role[3], 'user_id=999999');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).not.toBe('');
    expect((await last(null, `user_id=${holder.id}`)).statusCode).toBe(401);
  });
});

describe('full names', () => {
  it('when the holder has a middle name, then the count, the list search, the last-count lookup and count due all name them in full', async () => {
    const m = await signedIn(t, { role_id: 7, branch_id: branchId, first_name: 'Maria', middle_name: 'Luz', last_name: 'Santos' });
    const maria = { id: m.user.id, headers: m.headers };
    await issueTo(maria, [padIds[9]]);
    const started = await ok(call(role[3], 'POST', '/api/counts', { user_id: maria.id }), 201);
    expect(started.data.holder).toEqual({ type: 'user', id: maria.id, name: 'Maria Luz Santos' });
    const listed = await ok(call(role[3], 'GET', `/api/counts?search=${encodeURIComponent('Maria Luz Santos')}`));
    expect(listed.data.map((row: { id: number; holder: { name: string } }) => [row.id, row.holder.name])).toEqual([
      [started.data.id, 'Maria Luz Santos'],
    ]);
    expect((await ok(call(role[3], 'GET', `/api/counts/last?user_id=${maria.id}`))).data.holder.name).toBe('Maria Luz Santos');
    const due = (await ok(call(role[3], 'GET', '/api/my-actions'))).data.groups.find((g: { kind: string }) => g.kind === 'count_due');
    expect(due.items.map((i: { label: string }) => i.label)).toContain('Maria Luz Santos · never counted');
  });
});
