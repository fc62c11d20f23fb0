import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, sql } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import type { LatestLedgerCheck } from '../../../shared/schemas/ledger.ts';
import type { MyActions } from '../../../shared/schemas/my-actions.ts';
import { runJobOnce } from '../../db/jobs.ts';
import { ledgerChecks } from '../../db/schema/ledger.ts';
import { serverJobs } from '../../jobs.ts';
import { signedIn } from '../../test/factories.ts';
import { verifierGround } from '../../test/ledger.ts';
import { startSmtp } from '../../test/smtp.ts';

type Ground = Awaited<ReturnType<typeof verifierGround>>;
type Session = Awaited<ReturnType<typeof signedIn>>;

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let ground: Ground;
let people: { admin: Session; accounting: Session; auditor: Session; custodian: Session; itAdmin: Session };

beforeAll(async () => {
  smtp = await startSmtp();
  ground = await verifierGround({ SMTP_URL: smtp.url });
  const { t } = ground;
  people = {
    admin: await signedIn(t, { role_id: ROLE.ADMIN }),
    accounting: await signedIn(t, { role_id: ROLE.ACCOUNTING }),
    auditor: await signedIn(t, { role_id: ROLE.AUDITOR }),
    custodian: await signedIn(t, { role_id: ROLE.CUSTODIAN }),
    itAdmin: await signedIn(t, { role_id: ROLE.IT_ADMIN }),
  };
});
afterAll(async () => {
  await ground.t.close();
  await smtp.close();
});

const DAY_MS = 86_400_000;

/** Runs the scheduled job as the job runner does, for the period `now` falls in. */
async function scheduledCheck(now: Date) {
  const job = serverJobs(ground.t.ctx, ground.t.database).find((candidate) => candidate.name === 'ledger-check');
  if (!job) throw new Error('no ledger-check job');
  return runJobOnce(ground.t.db, job, now);
}

async function latest(who: Session) {
  const res = await ground.t.app.inject({ method: 'GET', url: '/api/ledger-checks/latest', headers: who.headers });
  return { status: res.statusCode, body: res.json() as { data: LatestLedgerCheck } };
}

async function ledgerGroup(who: Session) {
  const res = await ground.t.app.inject({ method: 'GET', url: '/api/my-actions', headers: who.headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: MyActions }).data.groups.find((group) => group.kind === 'ledger_check');
}

const storedChecks = () => ground.t.db.select().from(ledgerChecks).orderBy(desc(ledgerChecks.id));

describe('the scheduled ledger check', () => {
  it('when no check has run yet, then Admin, Accounting and Auditor read an empty latest check with the schedule, and others are refused', async () => {
    for (const who of [people.admin, people.accounting, people.auditor]) {
      const res = await latest(who);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ check: null, every_days: 7 });
    }
    for (const who of [people.custodian, people.itAdmin]) expect((await latest(who)).status).toBe(403);
    expect(await ledgerGroup(people.accounting)).toBeUndefined();
  });

  it('when a scheduled check finds an edited old event, then the failure is stored, mailed to Admin, Accounting and Auditor and waits in their Needs my action until a later check passes', async () => {
    const { freshPads, markUsed, tamper } = ground;
    const [pad] = await freshPads(8_100_001, 8_100_050);
    expect((await markUsed(pad.id, [8_100_001, 8_100_002])).statusCode).toBe(200);
    const week = new Date('2026-11-02T03:00:00Z');
    expect(await scheduledCheck(week)).toBe(true);
    expect(await scheduledCheck(week)).toBe(false);
    const clean = await latest(people.accounting);
    expect(clean.body.data.check).toMatchObject({ ok: true, mode: 'full', source: 'schedule', problems: 0, problem_lines: [] });
    expect(clean.body.data.check?.pads).toBeGreaterThanOrEqual(1);
    expect(clean.body.data.check?.ran_by).toMatch(/^scheduled check on instance /);
    expect(await ledgerGroup(people.accounting)).toBeUndefined();

    await tamper(sql`update pad_events set from_number = 8100003, to_number = 8100004 where pad_id = ${pad.id} and kind = 'used'`);
    const mailsBefore = smtp.received.length;
    expect(await scheduledCheck(new Date(week.getTime() + 7 * DAY_MS))).toBe(true);

    const [stored] = await storedChecks();
    expect(stored).toMatchObject({ ok: false, mode: 'full', source: 'schedule' });
    expect(stored.problems).toBeGreaterThanOrEqual(1);
    expect(stored.problem_lines[0]).toBe(`pad ${pad.id} (route ${pad.route_id}, pad no. 1, 8100001-8100050):`);
    expect(stored.problem_lines.join('\n')).toMatch(/was altered: its hash does not match its content/);
    const failed = await latest(people.auditor);
    expect(failed.status).toBe(200);
    expect(failed.body.data.check).toMatchObject({
      id: stored.id,
      ok: false,
      problems: stored.problems,
      problem_lines: stored.problem_lines,
    });

    for (const who of [people.admin, people.accounting, people.auditor]) {
      const mail = await smtp.mailTo(who.user.email);
      expect(mail.raw).toMatch(/Subject: PadTrack ledger check FAILED: \d+ problem\(s\)/);
      expect(mail.raw.replace(/=\r?\n/g, '')).toContain(`pad ${pad.id} (route ${pad.route_id}`);
    }
    const newMail = smtp.received.slice(mailsBefore);
    for (const who of [people.custodian, people.itAdmin]) expect(newMail.some((mail) => mail.to.includes(who.user.email))).toBe(false);

    for (const who of [people.admin, people.accounting, people.auditor]) {
      expect(await ledgerGroup(who)).toEqual({
        kind: 'ledger_check',
        title: 'Ledger check failed',
        count: 1,
        menu_path: '/dashboard',
        list_path: '/dashboard',
        items: [{ id: stored.id, label: expect.stringMatching(/^\d+ problem\(s\) found by the full check of /), path: '/dashboard' }],
      });
    }
    expect(await ledgerGroup(people.custodian)).toBeUndefined();

    await tamper(sql`update pad_events set from_number = 8100001, to_number = 8100002 where pad_id = ${pad.id} and kind = 'used'`);
    expect(await scheduledCheck(new Date(week.getTime() + 14 * DAY_MS))).toBe(true);
    const passed = await latest(people.admin);
    expect(passed.body.data.check).toMatchObject({ ok: true, problems: 0 });
    expect((await storedChecks()).map((row) => row.ok)).toEqual([true, false, true]);
    for (const who of [people.admin, people.accounting, people.auditor]) expect(await ledgerGroup(who)).toBeUndefined();
  });
});
