import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { dayTimeText, monthText } from '../../../shared/format.ts';
import { ROLE } from '../../../shared/lookups.ts';
import { OUTAGE_MSG } from '../../../shared/schemas/outages.ts';
import { pads } from '../../db/schema/pads.ts';
import { outageEvidence, outages, paperUses } from '../../db/schema/paper-use.ts';
import { createBranch, createRoute, sessionsForAllRoles, signedIn, type Sessions } from '../../test/factories.ts';
import { postImport } from '../../test/imports.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

type Headers = Record<string, string>;
type Signed = { user: { id: number; first_name: string; last_name: string; branch_id: number | null }; headers: Headers };
let t: TestApp;
let sessions: Sessions;
let accounting: Signed;
let headBatangas: Signed;
let supervisorBatangas: Signed;
let headCalapan: Signed;
let ticketing: Signed;
let batangas: { id: number; name: string };
let calapan: { id: number; name: string };
let outport: { id: number; name: string };

const call = (headers: Headers, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const outage = (over: Record<string, unknown> = {}) => ({
  branch_id: batangas.id,
  starts_at: '2027-01-05T09:00:00+08:00',
  ends_at: '2027-01-05T12:00:00+08:00',
  cause: 'network',
  details: 'Fibre cut at the pier; the POS could not reach the invoicing system',
  notice_reference: null,
  ...over,
});
const storedOutages = (branchId: number) => t.db.select().from(outages).where(eq(outages.branch_id, branchId)).orderBy(outages.id);
const coverBranch = async (branchId: number, since: string) => {
  const res = await call(accounting.headers, 'PUT', `/api/branches/${branchId}/e-invoicing`, {
    bir_branch_code: '00012',
    covered: true,
    e_invoicing_since: since,
    permit_reference: 'PTU-EIS-2026-0042',
    invoicing_system: 'FerryPOS 4',
  });
  expect(res.statusCode, res.body).toBe(200);
};

/** A multipart body as a browser's FormData sends it. */
function multipart(files: Array<{ name: string; type: string; content: Buffer }>) {
  const boundary = '----padtrack' + Math.random().toString(16).slice(2);
  const parts = files.map((file) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a tiny picture')]);

beforeAll(async () => {
  t = await createTestApp();
  sessions = await sessionsForAllRoles(t);
  batangas = await createBranch(t.db, { name: 'Batangas Port' });
  calapan = await createBranch(t.db, { name: 'Calapan Terminal' });
  outport = await createBranch(t.db, { name: 'Abra de Ilog Outport' });
  accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING });
  headBatangas = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: batangas.id });
  supervisorBatangas = await signedIn(t, { role_id: ROLE.SUPERVISOR, branch_id: batangas.id });
  headCalapan = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: calapan.id });
  ticketing = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: batangas.id });
  await coverBranch(batangas.id, '2027-01-01');
  await coverBranch(calapan.id, '2027-01-01');
});

afterAll(async () => {
  await t?.close();
});

describe('declaring outages', () => {
  it("when the establishment's Branch Head declares one, then it is stored as theirs and read back with its window", async () => {
    const res = await call(headBatangas.headers, 'POST', '/api/outages', outage());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: OUTAGE_MSG.declared,
      data: {
        branch: { id: batangas.id, name: 'Batangas Port' },
        starts_at: '2027-01-05T01:00:00.000Z',
        ends_at: '2027-01-05T04:00:00.000Z',
        state: 'closed',
        cause: 'network',
        cause_label: 'Network or internet down',
        declared_by: { id: headBatangas.user.id },
        evidence: [],
        linked_uses: 0,
        frozen: null,
      },
    });
    const [stored] = await storedOutages(batangas.id);
    expect(stored).toMatchObject({ declared_by: headBatangas.user.id, cause: 'network', closed_by: headBatangas.user.id });
    expect(stored.starts_at.toISOString()).toBe('2027-01-05T01:00:00.000Z');
    const read = await call(ticketing.headers, 'GET', `/api/outages/${stored.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.id).toBe(stored.id);
  });

  it('when it overlaps another outage of the same establishment, then 409 names that window and nothing is stored', async () => {
    const before = await storedOutages(batangas.id);
    const res = await call(
      supervisorBatangas.headers,
      'POST',
      '/api/outages',
      outage({ starts_at: '2027-01-05T11:00:00+08:00', ends_at: null }),
    );
    expect(res.statusCode, res.body).toBe(409);
    const window = `${dayTimeText(before[0].starts_at, t.ctx.config.timeZone)} \u2013 ${dayTimeText(before[0].ends_at, t.ctx.config.timeZone)}`;
    expect(res.json().message).toBe(OUTAGE_MSG.overlap(window, before[0].id));
    expect(await storedOutages(batangas.id)).toEqual(before);
    const touching = await call(
      supervisorBatangas.headers,
      'POST',
      '/api/outages',
      outage({ starts_at: '2027-01-05T12:00:00+08:00', ends_at: '2027-01-05T13:00:00+08:00', cause: 'power' }),
    );
    expect(touching.statusCode, touching.body).toBe(201);
    const elsewhere = await call(headCalapan.headers, 'POST', '/api/outages', outage({ branch_id: calapan.id }));
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
  });

  it('when two overlapping outages are declared at once, then one is stored and the other gets 409', async () => {
    const before = (await storedOutages(calapan.id)).length;
    const window = outage({ branch_id: calapan.id, starts_at: '2027-04-01T08:00:00+08:00', ends_at: '2027-04-01T09:00:00+08:00' });
    const answers = await Promise.all([
      call(headCalapan.headers, 'POST', '/api/outages', window),
      call(accounting.headers, 'POST', '/api/outages', { ...window, ends_at: null }),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    expect(await storedOutages(calapan.id)).toHaveLength(before + 1);
  });

  it('when the end is not after the start, then 422 on ends_at and nothing is stored', async () => {
    const before = await storedOutages(batangas.id);
    for (const ends_at of ['2027-01-06T09:00:00+08:00', '2027-01-06T08:00:00+08:00']) {
      const res = await call(accounting.headers, 'POST', '/api/outages', outage({ starts_at: '2027-01-06T09:00:00+08:00', ends_at }));
      expect(res.statusCode, ends_at).toBe(422);
      expect(res.json().errors.ends_at).toEqual([OUTAGE_MSG.endBeforeStart]);
    }
    const badTime = await call(accounting.headers, 'POST', '/api/outages', outage({ starts_at: '2027-01-06 09:00' }));
    expect(badTime.statusCode).toBe(422);
    expect(badTime.json().errors.starts_at).toEqual([OUTAGE_MSG.dateTime('Start')]);
    const badCause = await call(accounting.headers, 'POST', '/api/outages', outage({ cause: 'typhoon' }));
    expect(badCause.statusCode).toBe(422);
    expect(await storedOutages(batangas.id)).toEqual(before);
  });

  it('when the place does not issue e-invoices, then 409 says so and nothing is stored', async () => {
    const res = await call(accounting.headers, 'POST', '/api/outages', outage({ branch_id: outport.id }));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(OUTAGE_MSG.notCovered('Abra de Ilog Outport'));
    expect(await storedOutages(outport.id)).toEqual([]);
    const missing = await call(accounting.headers, 'POST', '/api/outages', outage({ branch_id: 999_999 }));
    expect(missing.statusCode).toBe(422);
  });

  it("when someone else declares one, then only Admin, Accounting and the establishment's Branch Head or Supervisor may", async () => {
    const before = await storedOutages(batangas.id);
    const late = (hour: number) => outage({ starts_at: `2027-02-0${hour}T09:00:00+08:00`, ends_at: `2027-02-0${hour}T10:00:00+08:00` });
    expect((await call(headCalapan.headers, 'POST', '/api/outages', late(1))).statusCode).toBe(403);
    for (const { role_id, headers } of [...sessions.others, { role_id: 2, headers: sessions.itAdmin }]) {
      if (role_id === ROLE.ACCOUNTING) continue;
      const res = await call(headers, 'POST', '/api/outages', late(2));
      expect(res.statusCode, `role ${role_id}`).toBe(403);
    }
    expect(await storedOutages(batangas.id)).toEqual(before);
    const admin = await call(sessions.admin, 'POST', '/api/outages', late(3));
    expect(admin.statusCode, admin.body).toBe(201);
    expect((await call(headCalapan.headers, 'GET', `/api/outages/${admin.json().data.id}`)).statusCode).toBe(404);
    expect((await call(headCalapan.headers, 'PUT', `/api/outages/${admin.json().data.id}`, late(4))).statusCode).toBe(404);
  });
});

describe('closing, editing and listing outages', () => {
  let openId: number;

  it('when an open outage is closed, then it has its end, who closed it, and a second close is refused', async () => {
    const declared = await call(
      ticketing.headers,
      'POST',
      '/api/outages',
      outage({ starts_at: '2027-03-01T08:00:00+08:00', ends_at: null }),
    );
    expect(declared.statusCode).toBe(403);
    const open = await call(
      headBatangas.headers,
      'POST',
      '/api/outages',
      outage({ starts_at: '2027-03-01T08:00:00+08:00', ends_at: null, cause: 'power' }),
    );
    expect(open.statusCode, open.body).toBe(201);
    openId = open.json().data.id;
    expect(open.json().data).toMatchObject({ state: 'open', ends_at: null, closed_by: null });
    const early = await call(supervisorBatangas.headers, 'POST', `/api/outages/${openId}/close`, { ends_at: '2027-03-01T07:00:00+08:00' });
    expect(early.statusCode).toBe(422);
    expect(early.json().errors.ends_at).toEqual([OUTAGE_MSG.endBeforeStart]);
    const closed = await call(supervisorBatangas.headers, 'POST', `/api/outages/${openId}/close`, { ends_at: '2027-03-01T10:30:00+08:00' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      message: OUTAGE_MSG.closed,
      data: { state: 'closed', ends_at: '2027-03-01T02:30:00.000Z', closed_by: { id: supervisorBatangas.user.id } },
    });
    const [stored] = await t.db.select().from(outages).where(eq(outages.id, openId));
    expect(stored).toMatchObject({ closed_by: supervisorBatangas.user.id, ends_at: new Date('2027-03-01T02:30:00Z') });
    const again = await call(supervisorBatangas.headers, 'POST', `/api/outages/${openId}/close`, { ends_at: '2027-03-01T11:30:00+08:00' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(OUTAGE_MSG.alreadyClosed);
  });

  it('when an outage is edited, then its window, cause and words change, and an overlap is refused', async () => {
    const res = await call(accounting.headers, 'PUT', `/api/outages/${openId}`, {
      starts_at: '2027-03-01T07:30:00+08:00',
      ends_at: '2027-03-01T11:00:00+08:00',
      cause: 'invoicing_system',
      details: 'The invoicing system was down, not the power',
      notice_reference: 'TKT-88812',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      cause: 'invoicing_system',
      notice_reference: 'TKT-88812',
      starts_at: '2027-02-28T23:30:00.000Z',
    });
    const overlap = await call(accounting.headers, 'PUT', `/api/outages/${openId}`, {
      starts_at: '2027-01-05T10:00:00+08:00',
      ends_at: '2027-03-01T11:00:00+08:00',
      cause: 'invoicing_system',
    });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().message).toMatch(/^This window overlaps outage #\d+ \(/);
    const [stored] = await t.db.select().from(outages).where(eq(outages.id, openId));
    expect(stored.starts_at.toISOString()).toBe('2027-02-28T23:30:00.000Z');
  });

  it('when outages are listed, then the filters apply and branch staff see their own establishment only', async () => {
    const all = await call(accounting.headers, 'GET', '/api/outages?per_page=100');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().total).toBe((await t.db.select().from(outages)).length);
    const calapanOnly = await call(sessions.admin, 'GET', `/api/outages?branch_id=${calapan.id}`);
    expect(calapanOnly.json().data.map((row: { branch: { id: number } }) => row.branch.id)).toEqual([calapan.id, calapan.id]);
    expect(calapanOnly.json().data.map((row: { id: number }) => row.id)).toEqual(
      (await storedOutages(calapan.id)).sort((a, b) => b.starts_at.getTime() - a.starts_at.getTime()).map((row) => row.id),
    );
    const march = await call(accounting.headers, 'GET', `/api/outages?branch_id=${batangas.id}&from=2027-03-01&to=2027-03-31`);
    expect(march.json().data.map((row: { id: number }) => row.id)).toEqual([openId]);
    const january5 = await call(accounting.headers, 'GET', `/api/outages?branch_id=${batangas.id}&from=2027-01-05&to=2027-01-05`);
    expect(january5.json().total).toBe(2);
    const openOnes = await call(accounting.headers, 'GET', '/api/outages?state=open');
    expect(openOnes.json().data.every((row: { state: string }) => row.state === 'open')).toBe(true);
    const own = await call(ticketing.headers, 'GET', '/api/outages?per_page=100');
    expect(own.json().total).toBe((await storedOutages(batangas.id)).length);
    expect((await call(headCalapan.headers, 'GET', `/api/outages?branch_id=${batangas.id}`)).statusCode).toBe(403);
    expect((await call(accounting.headers, 'GET', '/api/outages?from=2027-03-02&to=2027-03-01')).statusCode).toBe(422);
    const driver = sessions.others.find((s) => s.role_id === ROLE.DRIVER);
    expect((await call(driver?.headers ?? {}, 'GET', '/api/outages')).statusCode).toBe(403);
  });

  it('when evidence is added, then a PNG is kept and opens by its signed link, and other files are refused', async () => {
    const bad = multipart([{ name: 'notes.txt', type: 'image/png', content: Buffer.from('not a picture') }]);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/outages/${openId}/evidence`,
      headers: { ...headBatangas.headers, ...bad.headers },
      payload: bad.payload,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(OUTAGE_MSG.fileType('notes.txt'));
    const good = multipart([{ name: 'router.png', type: 'image/png', content: PNG }]);
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/outages/${openId}/evidence`,
      headers: { ...headBatangas.headers, ...good.headers },
      payload: good.payload,
    });
    expect(added.statusCode, added.body).toBe(201);
    const [file] = added.json().data.evidence;
    expect(file).toMatchObject({
      file_name: 'router.png',
      content_type: 'image/png',
      size: PNG.length,
      uploaded_by: { id: headBatangas.user.id },
    });
    expect(await t.db.select().from(outageEvidence).where(eq(outageEvidence.outage_id, openId))).toHaveLength(1);
    expect(added.json().data.evidence_count).toBe(1);
    expect(added.json().data.declared_by.name).toBe(`${headBatangas.user.first_name} ${headBatangas.user.last_name}`);
    const bySigned = await t.app.inject({ method: 'GET', url: file.url });
    expect(bySigned.statusCode).toBe(200);
    expect(bySigned.headers['content-type']).toBe('image/png');
    expect(bySigned.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/outages/${openId}/evidence/${file.id}` })).statusCode).toBe(401);
    expect((await call(headCalapan.headers, 'GET', `/api/outages/${openId}/evidence/${file.id}`)).statusCode).toBe(404);
    const outsider = multipart([{ name: 'x.png', type: 'image/png', content: PNG }]);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/outages/${openId}/evidence`,
      headers: { ...headCalapan.headers, ...outsider.headers },
      payload: outsider.payload,
    });
    expect(foreign.statusCode).toBe(404);
    const json = await call(headBatangas.headers, 'POST', `/api/outages/${openId}/evidence`, { files: [] });
    expect(json.statusCode).toBe(422);
  });
});

describe('outages a certified RAAF relies on', () => {
  /** Last month, where the ledger can certify: the pad arrives on the 10th at 08:30 Manila time. */
  const now = new Date();
  const at = (day: number, hour: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, day, hour));
  const MONTH = at(10, 0).toISOString().slice(0, 7);
  let padId: number;
  let cashier: Signed;
  let fixedId: number;
  let openId: number;

  beforeAll(async () => {
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    const port = await createBranch(t.db, { name: 'Roxas Port' });
    cashier = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: port.id, email: 'roxas@padtrack.test' });
    await coverBranch(port.id, '2020-01-01');
    const route = await createRoute(t.db, { name: 'Roxas - Caticlan', tin: '000-222-333' });
    t.ctx.ledgerClock = () => at(10, 0);
    const file = [
      'route,series_from,series_to,pad_number,holder,used,cancelled,remarks',
      '000-222-333,5001,5050,21,roxas@padtrack.test,,,',
    ].join('\n');
    const opening = await postImport(t, custodian.headers, { kind: 'pads', dryRun: false, name: 'opening.csv', content: file });
    expect(opening.statusCode, opening.body).toBe(200);
    t.ctx.ledgerClock = undefined;
    const series = await call(accounting.headers, 'POST', '/api/registered-series', {
      route_id: route.id,
      branch_id: port.id,
      form_type: 'invoice',
      atp_number: 'OCN-2026-0500',
      atp_date: '2019-05-02',
      printer: 'Roxas Press',
      delivery_date: null,
      series_from: 5001,
      series_to: 5050,
      remarks: null,
    });
    expect(series.statusCode, series.body).toBe(201);
    expect(series.json().data.pads).toBe(1);
    const role = await call(accounting.headers, 'PUT', `/api/registered-series/${series.json().data.id}/role`, {
      role: 'contingency',
      reason: 'For outages',
    });
    expect(role.statusCode, role.body).toBe(200);
    const fixed = await call(
      accounting.headers,
      'POST',
      '/api/outages',
      outage({ branch_id: port.id, starts_at: at(10, 1).toISOString(), ends_at: at(10, 5).toISOString() }),
    );
    expect(fixed.statusCode, fixed.body).toBe(201);
    fixedId = fixed.json().data.id;
    const open = await call(
      accounting.headers,
      'POST',
      '/api/outages',
      outage({ branch_id: port.id, starts_at: at(20, 1).toISOString(), ends_at: null }),
    );
    expect(open.statusCode, open.body).toBe(201);
    openId = open.json().data.id;
    const [pad] = await t.db.select().from(pads).where(eq(pads.route_id, route.id));
    padId = pad.id;
    for (const [from, to, usedAt] of [
      [5001, 5003, at(10, 3)],
      [5004, 5004, at(20, 3)],
    ] as const) {
      t.ctx.ledgerClock = () => usedAt;
      const used = await call(cashier.headers, 'POST', `/api/pads/${padId}/usage`, { from, to, device_at: usedAt.toISOString() });
      expect(used.statusCode, used.body).toBe(200);
    }
    t.ctx.ledgerClock = undefined;
    const uses = await t.db.select().from(paperUses).where(eq(paperUses.pad_id, padId)).orderBy(paperUses.number_from);
    expect(uses.map((use) => [use.state, use.outage_id])).toEqual([
      ['linked', fixedId],
      ['linked', openId],
    ]);
    const certified = await call(cashier.headers, 'POST', '/api/raaf/certify', { month: MONTH, user_id: cashier.user.id });
    expect(certified.statusCode, certified.body).toBe(201);
  });

  it('when its times change after the RAAF is certified, then 409 names the RAAF and the outage stays as it was', async () => {
    const before = await t.db.select().from(outages).where(eq(outages.id, fixedId));
    const who = `${cashier.user.first_name} ${cashier.user.last_name}`;
    const read = await call(accounting.headers, 'GET', `/api/outages/${fixedId}`);
    expect(read.json().data).toMatchObject({ linked_uses: 1, linked_numbers: 3, frozen: OUTAGE_MSG.frozen(who, monthText(MONTH)) });
    const res = await call(accounting.headers, 'PUT', `/api/outages/${fixedId}`, {
      starts_at: at(10, 0).toISOString(),
      ends_at: at(10, 5).toISOString(),
      cause: 'network',
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(OUTAGE_MSG.frozen(who, monthText(MONTH)));
    expect(await t.db.select().from(outages).where(eq(outages.id, fixedId))).toEqual(before);
    const words = await call(accounting.headers, 'PUT', `/api/outages/${fixedId}`, {
      starts_at: at(10, 1).toISOString(),
      ends_at: at(10, 5).toISOString(),
      cause: 'network',
      details: 'Fibre cut, repaired by 13:00',
    });
    expect(words.statusCode, words.body).toBe(200);
    expect(words.json().data.details).toBe('Fibre cut, repaired by 13:00');
  });

  it('when a relied-on open outage is closed, then an end that keeps its uses is allowed and one that drops them is not', async () => {
    const who = `${cashier.user.first_name} ${cashier.user.last_name}`;
    const cutting = await call(accounting.headers, 'POST', `/api/outages/${openId}/close`, { ends_at: at(20, 2).toISOString() });
    expect(cutting.statusCode, cutting.body).toBe(409);
    expect(cutting.json().message).toBe(OUTAGE_MSG.closeUnlinks(who, monthText(MONTH)));
    const [still] = await t.db.select().from(outages).where(eq(outages.id, openId));
    expect(still.ends_at).toBeNull();
    const closing = await call(accounting.headers, 'POST', `/api/outages/${openId}/close`, { ends_at: at(20, 6).toISOString() });
    expect(closing.statusCode, closing.body).toBe(200);
    const [use] = await t.db.select().from(paperUses).where(eq(paperUses.outage_id, openId));
    expect(use.state).toBe('linked');
  });

  it('when an outage is declared later over an open exception, then it links it, and narrowing the window opens it again', async () => {
    const usedAt = new Date(Date.now() - 60 * 60_000);
    const used = await call(cashier.headers, 'POST', `/api/pads/${padId}/usage`, { from: 5005, to: 5005, device_at: usedAt.toISOString() });
    expect(used.statusCode, used.body).toBe(200);
    const useOf = async () => (await t.db.select().from(paperUses).where(eq(paperUses.number_from, 5005)))[0];
    expect(await useOf()).toMatchObject({ state: 'open', outage_id: null });
    const starts = new Date(usedAt.getTime() - 60 * 60_000);
    const late = await call(
      cashier.headers,
      'POST',
      '/api/outages',
      outage({ branch_id: cashier.user.branch_id, starts_at: starts.toISOString(), ends_at: null }),
    );
    expect(late.statusCode).toBe(403);
    const declared = await call(
      accounting.headers,
      'POST',
      '/api/outages',
      outage({ branch_id: cashier.user.branch_id, starts_at: starts.toISOString(), ends_at: null }),
    );
    expect(declared.statusCode, declared.body).toBe(201);
    expect(declared.json().data).toMatchObject({ linked_uses: 1, linked_numbers: 1 });
    expect(await useOf()).toMatchObject({ state: 'linked', outage_id: declared.json().data.id });
    const narrowed = await call(accounting.headers, 'PUT', `/api/outages/${declared.json().data.id}`, {
      starts_at: starts.toISOString(),
      ends_at: new Date(usedAt.getTime() - 30 * 60_000).toISOString(),
      cause: 'power',
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(narrowed.json().data.linked_uses).toBe(0);
    expect(await useOf()).toMatchObject({ state: 'open', outage_id: null });
  });
});
