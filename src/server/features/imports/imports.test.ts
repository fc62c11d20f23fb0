import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { ROLE } from '../../../shared/lookups.ts';
import { IMPORT_MSG } from '../../../shared/schemas/imports.ts';
import { imports } from '../../db/schema/imports.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { users } from '../../db/schema/users.ts';
import { createBranch, createRoute, createUser, signedIn, storedPadRows } from '../../test/factories.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';
import { resetTokenFrom, startSmtp } from '../../test/smtp.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** The events are recorded in the month before the real one, so its RAAF is of an ended month. */
const now = new Date();
const RECORDED = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10, 2));
const MONTH = RECORDED.toISOString().slice(0, 7);

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let custodian: { user: { last_name: string }; headers: { authorization: string } };
let admin: { headers: { authorization: string } };
let auditor: { headers: { authorization: string } };
let batangas: { id: number; name: string };
let cashier: { id: number; email: string };

function multipart(fields: Record<string, string>, file: { name: string; content: Buffer } | null) {
  const boundary = '----padtrack' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (who: { headers: { authorization: string } }, kind: string, dryRun: boolean, name: string, content: string | Buffer) => {
  const body = multipart({ kind, dry_run: String(dryRun) }, { name, content: Buffer.isBuffer(content) ? content : Buffer.from(content) });
  return t.app.inject({ method: 'POST', url: '/api/imports', headers: { ...who.headers, ...body.headers }, payload: body.payload });
};

const PAD_HEADER = 'route,series_from,series_to,pad_number,holder,used,cancelled,remarks';
const stored = async () => ({
  pads: (await t.db.select({ n: count() }).from(pads))[0].n,
  events: (await t.db.select({ n: count() }).from(padEvents))[0].n,
});

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  t.ctx.ledgerClock = () => RECORDED;
  custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, middle_name: 'Luz' });
  admin = await signedIn(t, { role_id: ROLE.ADMIN });
  auditor = await signedIn(t, { role_id: ROLE.AUDITOR });
  await createRoute(t.db, { name: 'Batangas - Calapan', tin: '000-111-222' });
  batangas = await createBranch(t.db, { name: 'Batangas Port' });
  await createBranch(t.db, { name: 'Calapan Terminal' });
  cashier = await createUser(t.db, { email: 'cashier@padtrack.test', role_id: ROLE.TICKETING_OFFICER, branch_id: batangas.id });
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
  await smtp.close();
});

describe('pad import (opening balances, docs/design.md §10)', () => {
  const good = [
    PAD_HEADER,
    `000-111-222,1201,1250,1,cashier@padtrack.test,1201-1237;1240,1238,Counter 2`,
    `Batangas - Calapan,1251,1300,2,Calapan Terminal,,,`,
  ].join('\n');

  it('when a dry run of a good file is sent, then every row is reported and nothing is stored but the import record', async () => {
    const before = await stored();
    const res = await upload(custodian, 'pads', true, 'go-live.csv', good);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ kind: 'pads', dry_run: true, applied: false, errors: [] });
    expect(data.totals).toEqual({ rows: 2, ok: 2, errors: 0, pads: 2, numbers_used: 38, numbers_cancelled: 1, users: 0 });
    expect(data.rows).toEqual([
      { line: 2, result: expect.stringContaining('held by cashier@padtrack.test: 11 not used, 38 used, 1 cancelled') },
      { line: 3, result: expect.stringContaining('held by Calapan Terminal: 50 not used, 0 used, 0 cancelled') },
    ]);
    expect(await stored()).toEqual(before);
    const [record] = await t.db.select().from(imports).where(eq(imports.id, data.id));
    expect(record).toMatchObject({ dry_run: true, applied: false });
  });

  it('when a row is bad, then the answer is 422 naming its line and column, and nothing is stored', async () => {
    const before = await stored();
    const file = [PAD_HEADER, `000-111-222,2001,2050,10,cashier@padtrack.test,,,`, `Nowhere,2051,2100,11,nobody@x.ph,2051-20x,,`].join(
      '\n',
    );
    const res = await upload(custodian, 'pads', false, 'mixed.csv', file);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(IMPORT_MSG.hasErrors(3));
    expect(res.json().data.errors).toEqual([
      { line: 3, column: 'route', message: IMPORT_MSG.routeUnknown('Nowhere') },
      { line: 3, column: 'holder', message: IMPORT_MSG.holderUnknown('nobody@x.ph') },
      { line: 3, column: 'used', message: IMPORT_MSG.rangeFormat('used') },
    ]);
    expect(res.json().data.applied).toBe(false);
    expect(await stored()).toEqual(before);
  });

  it('when rows overlap each other or numbers fall outside the pad, then each later line is named', async () => {
    const file = [PAD_HEADER, `000-111-222,3001,3050,20,Calapan Terminal,,,`, `000-111-222,3040,3090,20,Calapan Terminal,3095,,`].join(
      '\n',
    );
    const res = await upload(custodian, 'pads', true, 'overlap.csv', file);
    expect(res.statusCode).toBe(422);
    expect(res.json().data.errors).toEqual([{ line: 3, column: 'used', message: IMPORT_MSG.rangeOutside('used', '3095') }]);
    const again = await upload(custodian, 'pads', true, 'overlap.csv', file.replace(',3095,', ',,'));
    expect(again.json().data.errors).toEqual([
      { line: 3, column: 'series_from', message: IMPORT_MSG.overlapInFile(2) },
      { line: 3, column: 'pad_number', message: IMPORT_MSG.numberInFile(2) },
    ]);
  });

  it('when a good file is applied, then the pads are stored with their holders and states, the RAAF balances and the verifier passes', async () => {
    const res = await upload(custodian, 'pads', false, 'go-live.csv', good);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ applied: true, dry_run: false, errors: [] });
    const [held] = await storedPadRows(t.db).where(eq(pads.series_from, 1201));
    expect(held).toMatchObject({ holder_user_id: cashier.id, holder_branch_id: batangas.id, number: 1 });
    expect(held.series_status).toBe('2'.repeat(37) + '3' + '1' + '2' + '1'.repeat(10));
    const events = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, held.id));
    expect(events.map((e) => [e.kind, e.from_number, e.to_number, e.import_id])).toEqual([
      ['opening', 1201, 1250, data.id],
      ['used', 1201, 1237, data.id],
      ['used', 1240, 1240, data.id],
      ['cancelled', 1238, 1238, data.id],
    ]);
    expect(events[0].reason).toBe(`Opening balance (import #${data.id})`);
    const raaf = await t.app.inject({ method: 'GET', url: `/api/raaf?month=${MONTH}&user_id=${cashier.id}`, headers: admin.headers });
    expect(raaf.statusCode, raaf.body).toBe(200);
    const [row] = raaf.json().data.rows;
    expect(row.beginning.qty).toBe(0);
    expect(row.receipt).toMatchObject({ qty: 50, ranges: [[1201, 1250]] });
    expect(row.issued.qty).toBe(39);
    expect(row.ending).toMatchObject({
      qty: 11,
      ranges: [
        [1239, 1239],
        [1241, 1250],
      ],
    });
    expect(row.remarks).toContain(`Opening balance (import #${data.id}): 1201-1250 (50) received at go-live`);
    await expectLedgerVerified(t.db);
  });

  it('when a row overlaps a stored pad, then the line is named and nothing of the file is stored', async () => {
    const before = await stored();
    const file = [PAD_HEADER, `000-111-222,5001,5050,30,Calapan Terminal,,,`, `000-111-222,1290,1310,31,Calapan Terminal,,,`].join('\n');
    const res = await upload(custodian, 'pads', false, 'again.csv', file);
    expect(res.statusCode).toBe(422);
    expect(res.json().data.errors).toEqual([{ line: 3, column: 'series_from', message: IMPORT_MSG.overlapStored(2, '1251-1300') }]);
    expect(await stored()).toEqual(before);
  });

  it('when the file is an .xlsx workbook, then it is read like the CSV', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Pads');
    sheet.addRow(PAD_HEADER.split(','));
    sheet.addRow(['000-111-222', 6001, 6050, 40, 'Batangas Port', '6001-6010', '', '']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await upload(custodian, 'pads', true, 'go-live.xlsx', content);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.totals).toMatchObject({ rows: 1, ok: 1, pads: 1, numbers_used: 10 });
  });

  it('when the past imports are listed or a template is asked, then they are answered, each naming who ran it in full; an Auditor is refused', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/imports', headers: custodian.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0]).toMatchObject({ kind: 'pads', file_name: 'go-live.xlsx', dry_run: true });
    expect(list.json().data[0].created_by).toBe(`Test Luz ${custodian.user.last_name}`);
    expect(list.json().data.some((row: { applied: boolean }) => row.applied)).toBe(true);
    const template = await t.app.inject({ method: 'GET', url: '/api/imports/templates/pads', headers: custodian.headers });
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toContain('text/csv');
    expect(template.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(PAD_HEADER);
    expect((await t.app.inject({ method: 'GET', url: '/api/imports', headers: auditor.headers })).statusCode).toBe(403);
    expect((await upload(auditor, 'pads', true, 'x.csv', good)).statusCode).toBe(403);
  });
});

describe('user import (docs/design.md §10)', () => {
  const header = 'first_name,middle_name,last_name,email,role,branch,mobile';

  it('when users are imported, then they exist without a usable password and each gets a set-password link', async () => {
    const file = [header, `Maria,Santos,Reyes,maria.reyes@padtrack.test,Ticketing Officer,Batangas Port,09171234567`].join('\n');
    const dry = await upload(admin, 'users', true, 'users.csv', file);
    expect(dry.statusCode, dry.body).toBe(200);
    expect((await t.db.select().from(users).where(eq(users.email, 'maria.reyes@padtrack.test'))).length).toBe(0);
    const res = await upload(admin, 'users', false, 'users.csv', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.totals).toMatchObject({ users: 1, ok: 1 });
    const [maria] = await t.db.select().from(users).where(eq(users.email, 'maria.reyes@padtrack.test'));
    expect(maria).toMatchObject({ role_id: ROLE.TICKETING_OFFICER, branch_id: batangas.id, contact_number: '09171234567' });
    const mail = await smtp.mailTo('maria.reyes@padtrack.test');
    expect(mail.raw).toContain('Set your PadTrack password');
    const token = resetTokenFrom(mail);
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/update-password',
      payload: { token, password: 'Maria@2030', password_confirmation: 'Maria@2030' },
    });
    expect(set.statusCode, set.body).toBeLessThan(300);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'maria.reyes@padtrack.test', password: 'Maria@2030' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('when a user row is bad or repeats an e-mail, then the line and column are named and nobody is created', async () => {
    const file = [
      header,
      `Juan,,Cruz,juan@padtrack.test,Ticketing Officer,Calapan Terminal,09171234567`,
      `Pedro,,Penduko,maria.reyes@padtrack.test,Captain,Calapan Terminal,0917`,
    ].join('\n');
    const res = await upload(admin, 'users', false, 'users.csv', file);
    expect(res.statusCode).toBe(422);
    expect(res.json().data.errors).toEqual([
      { line: 3, column: 'email', message: IMPORT_MSG.emailTaken },
      { line: 3, column: 'role', message: IMPORT_MSG.roleUnknown('Captain') },
      { line: 3, column: 'mobile', message: IMPORT_MSG.mobileFormat },
    ]);
    expect((await t.db.select().from(users).where(eq(users.email, 'juan@padtrack.test'))).length).toBe(0);
  });
});
