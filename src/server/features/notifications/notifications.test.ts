import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateInZone } from '../../../shared/format.ts';
import { INVOICE_STATUS, ROLE, USER_STATUS } from '../../../shared/lookups.ts';
import {
  defaultAlertThresholds,
  type AlertThresholds,
  type NotificationList,
  type NotificationSettings,
} from '../../../shared/schemas/notifications.ts';
import { runJob } from '../../db/jobs.ts';
import { deliveries } from '../../db/schema/deliveries.ts';
import { jobRuns } from '../../db/schema/infrastructure.ts';
import { lossIncidents } from '../../db/schema/incidents.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { ledgerChecks } from '../../db/schema/ledger.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { users } from '../../db/schema/users.ts';
import { serverJobs } from '../../jobs.ts';
import { buildIssuedInvoice, createBranch, createUser, loginAs, signedIn } from '../../test/factories.ts';
import { startSmtp } from '../../test/smtp.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../test/test-app.ts';
import { sendDigests } from './digest.ts';
import { evaluateAlerts } from './evaluate.ts';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
let other: Awaited<ReturnType<typeof createSecondInstance>>;
let admin: { headers: Record<string, string> };

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  other = await createSecondInstance(t);
  admin = await loginAs(t, 'admin@padtrack.test', 'Admin@12345');
});
afterAll(async () => {
  await other.close();
  await t.close();
  await smtp.close();
});

const DAY_MS = 86_400_000;
/** A received mail's text with its quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const today = () => dateInZone(new Date(), t.config.timeZone);
const daysAgo = (n: number) => dateInZone(new Date(Date.now() - n * DAY_MS), t.config.timeZone);

async function setThresholds(overrides: Partial<AlertThresholds>) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/alert-settings',
    headers: admin.headers,
    payload: { thresholds: { ...defaultAlertThresholds(t.config.countEveryDays), ...overrides } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const ZERO: Partial<AlertThresholds> = {
  overdue_head_days: 0,
  overdue_accounting_days: 0,
  waiting_hours: 0,
  waiting_escalate_hours: 0,
  courier_stale_hours: 0,
};

const rowsOfSubject = (kind: string, subjectId: number | string) =>
  t.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.kind, kind), eq(notifications.subject_id, String(subjectId))))
    .orderBy(notifications.level, notifications.recipient_user_id);

async function listOf(headers: Record<string, string>, query = '') {
  const res = await t.app.inject({ method: 'GET', url: `/api/notifications${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  // -- the route's response schema fixes this shape.
  return res.json() as NotificationList;
}

/** An overdue issue held by a ticketing officer of a branch with its own head, and an Accounting user. */
async function overdueCast() {
  const branch = await createBranch(t.db);
  const head = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branch.id });
  const holder = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: branch.id });
  const accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING });
  const built = await buildIssuedInvoice(t.db, { requester: holder.user, toBranch: branch, expectedReturnDate: daysAgo(2) });
  return { branch, head, holder, accounting, ...built };
}

describe('alert kinds', () => {
  it('when an issue is past its return date, then its holder is told, the head and Accounting once the thresholds pass, and all resolve when it is extended', async () => {
    await setThresholds({});
    const cast = await overdueCast();
    await evaluateAlerts(t.ctx);
    expect((await rowsOfSubject('overdue_return', cast.invoice.id)).map((r) => [r.recipient_user_id, r.level])).toEqual([
      [cast.holder.user.id, 0],
    ]);
    const list = await listOf(cast.holder.headers, '?state=open');
    const item = list.data.find((row) => row.link === `/invoices?invoice=${cast.invoice.id}`);
    expect(item).toMatchObject({ kind: 'overdue_return', state: 'open', level: 0, read_at: null, resolved_at: null });
    expect(list.unread).toBeGreaterThanOrEqual(1);

    await setThresholds(ZERO);
    await evaluateAlerts(t.ctx);
    const levels = (await rowsOfSubject('overdue_return', cast.invoice.id)).map((r) => [r.recipient_user_id, r.level]);
    expect(levels).toContainEqual([cast.head.user.id, 1]);
    expect(levels).toContainEqual([cast.accounting.user.id, 2]);

    await t.db.update(invoices).set({ expected_return_date: '2099-12-31' }).where(eq(invoices.id, cast.invoice.id));
    await evaluateAlerts(t.ctx);
    const after = await rowsOfSubject('overdue_return', cast.invoice.id);
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(after.every((row) => row.resolved_at !== null)).toBe(true);
    const resolved = await listOf(cast.holder.headers, '?state=resolved&kind=overdue_return');
    expect(resolved.data.find((row) => row.id === item?.id)).toMatchObject({ state: 'resolved' });
  });

  it('when an invoice waits in transit past the thresholds, then receiver and courier are told (and the Custodian), escalated, and resolved on accept', async () => {
    await setThresholds(ZERO);
    const accounting = await createUser(t.db, { role_id: ROLE.ACCOUNTING });
    const built = await buildIssuedInvoice(t.db, { status: INVOICE_STATUS.IN_TRANSIT, createdAt: new Date(Date.now() - 3_600_000) });
    await evaluateAlerts(t.ctx);
    const waiting = (await rowsOfSubject('waiting_acceptance', built.invoice.id)).map((r) => [r.recipient_user_id, r.level]);
    expect(waiting).toContainEqual([built.requester.id, 0]);
    expect(waiting).toContainEqual([built.courier.id, 0]);
    expect(waiting).toContainEqual([built.custodian.id, 1]);
    expect(waiting).toContainEqual([accounting.id, 1]);
    const stale = (await rowsOfSubject('courier_stale', built.invoice.id)).map((r) => [r.recipient_user_id, r.level]);
    expect(stale).toContainEqual([built.courier.id, 0]);
    expect(stale).toContainEqual([built.custodian.id, 1]);

    await setThresholds({});
    const young = await buildIssuedInvoice(t.db, { status: INVOICE_STATUS.IN_TRANSIT, createdAt: new Date() });
    await evaluateAlerts(t.ctx);
    expect(await rowsOfSubject('waiting_acceptance', young.invoice.id)).toEqual([]);

    await t.db
      .update(invoices)
      .set({ invoice_status_id: INVOICE_STATUS.COMPLETED, accepted_by: built.requester.id, accepted_at: new Date() })
      .where(eq(invoices.id, built.invoice.id));
    await evaluateAlerts(t.ctx);
    const after = [
      ...(await rowsOfSubject('waiting_acceptance', built.invoice.id)),
      ...(await rowsOfSubject('courier_stale', built.invoice.id)),
    ];
    expect(after.length).toBe(waiting.length + stale.length);
    expect(after.every((row) => row.resolved_at !== null)).toBe(true);
  });

  it('when a loss is reported, then its approvers are told and mailed at once, and it resolves when decided', async () => {
    const reporter = await createUser(t.db, { role_id: ROLE.TICKETING_OFFICER });
    const custodian = await createUser(t.db, { role_id: ROLE.CUSTODIAN });
    const seq = Math.floor(Math.random() * 1_000_000);
    const [incident] = await t.db
      .insert(lossIncidents)
      .values({
        number: `LOSS-T-${seq}`,
        year: 2099,
        seq,
        place: 'Calapan pier',
        occurred_at: new Date(),
        circumstances: 'Bag stolen',
        reported_by: reporter.id,
      })
      .returning();
    await Promise.all([evaluateAlerts(t.ctx, { kinds: ['loss_reported'] }), evaluateAlerts(other.ctx, { kinds: ['loss_reported'] })]);
    const rows = await rowsOfSubject('loss_reported', incident.id);
    expect(rows.map((r) => r.recipient_user_id)).toContain(custodian.id);
    expect(rows.map((r) => r.recipient_user_id)).not.toContain(reporter.id);
    const mails = await t.db
      .select()
      .from(deliveries)
      .where(like(deliveries.dedupe_key, `alert:${rows.find((r) => r.recipient_user_id === custodian.id)?.id}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ target: custodian.email, kind: 'loss_reported' });
    expect(mails[0].body_text).toContain(`http://padtrack.test/incidents?incident=${incident.id}`);

    await t.db
      .update(lossIncidents)
      .set({ status: 'rejected', decided_by: custodian.id, decided_at: new Date(), rejection_reason: 'Found' })
      .where(eq(lossIncidents.id, incident.id));
    await evaluateAlerts(t.ctx, { kinds: ['loss_reported'] });
    expect((await rowsOfSubject('loss_reported', incident.id)).every((row) => row.resolved_at !== null)).toBe(true);
  });

  it('when the latest ledger check failed, then Admin, Accounting and Auditor are mailed at once through SMTP with the link, and it resolves when a check passes', async () => {
    const auditor = await createUser(t.db, { role_id: ROLE.AUDITOR });
    const at = new Date();
    const check = {
      mode: 'full',
      source: 'schedule',
      ran_by: 'test',
      started_at: at,
      finished_at: at,
      pads: 1,
      events: 1,
      certificates: 0,
      problem_lines: [],
    };
    const [failed] = await t.db
      .insert(ledgerChecks)
      .values({ ...check, ok: false, problems: 2 })
      .returning();
    await evaluateAlerts(t.ctx, { kinds: ['check_failed'] });
    const rows = await rowsOfSubject('check_failed', failed.id);
    expect(rows.map((r) => r.recipient_user_id)).toContain(auditor.id);
    expect(rows.every((row) => row.mailed_at !== null)).toBe(true);

    const sender = serverJobs(t.ctx, t.database).find((job) => job.name === 'send-mail');
    if (!sender) throw new Error('no sender job');
    await runJob(t.db, sender, { manual: true });
    const mail = await smtp.mailTo(auditor.email);
    expect(mail.raw).toContain('Ledger check failed');
    expect(decoded(mail.raw)).toContain('http://padtrack.test/dashboard');

    await t.db.insert(ledgerChecks).values({ ...check, ok: true, problems: 0 });
    await evaluateAlerts(t.ctx, { kinds: ['check_failed'] });
    expect((await rowsOfSubject('check_failed', failed.id)).every((row) => row.resolved_at !== null)).toBe(true);
  });
  it('when the daily backup failed, then Admin and Accounting are told with its error until a later run succeeds', async () => {
    const accounting = await createUser(t.db, { role_id: ROLE.ACCOUNTING });
    const auditor = await createUser(t.db, { role_id: ROLE.AUDITOR });
    const run = { name: 'daily-backup', period: '2026-11-20', instance: 'test', attempts: 3, started_at: new Date() };
    await t.db.insert(jobRuns).values({ ...run, status: 'failed', last_error: 'pg_dump: connection refused' });
    await evaluateAlerts(t.ctx, { kinds: ['check_failed'] });
    const rows = await rowsOfSubject('check_failed', 'daily-backup');
    expect(rows.map((row) => row.recipient_user_id)).toEqual(expect.arrayContaining([accounting.id]));
    expect(rows.map((row) => row.recipient_user_id)).not.toContain(auditor.id);
    expect(rows[0]).toMatchObject({ title: 'Backup of 2026-11-20 failed', link: '/jobs', resolved_at: null });
    expect(rows[0].body).toContain('pg_dump: connection refused');

    await t.db.insert(jobRuns).values({ ...run, period: '2026-11-21', status: 'ok', attempts: 1, started_at: new Date(Date.now() + 1000) });
    await evaluateAlerts(t.ctx, { kinds: ['check_failed'] });
    expect((await rowsOfSubject('check_failed', 'daily-backup')).every((row) => row.resolved_at !== null)).toBe(true);
  });
});

describe('the digest', () => {
  it('when evaluators and digests run in a burst on two instances, then each key is one row and each person gets one digest a day listing each open item once', async () => {
    await setThresholds(ZERO);
    const cast = await overdueCast();
    const second = await buildIssuedInvoice(t.db, { requester: cast.holder.user, toBranch: cast.branch, expectedReturnDate: daysAgo(1) });
    const day = today();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const ctx = i % 2 === 0 ? t.ctx : other.ctx;
        return evaluateAlerts(ctx).then(() => sendDigests(ctx, day));
      }),
    );
    for (const invoice of [cast.invoice, second.invoice]) {
      const rows = await rowsOfSubject('overdue_return', invoice.id);
      expect(new Set(rows.map((row) => row.dedupe_key)).size).toBe(rows.length);
    }
    const digests = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.dedupe_key, `digest:${cast.holder.user.id}:${day}`));
    expect(digests).toHaveLength(1);
    const text = digests[0].body_text;
    expect(text.split(`/invoices?invoice=${cast.invoice.id}\n`).length - 1).toBe(1);
    expect(text.split(`/invoices?invoice=${second.invoice.id}\n`).length - 1).toBe(1);
    expect(digests[0].body_html).toContain(`href="http://padtrack.test/invoices?invoice=${cast.invoice.id}"`);

    const sender = serverJobs(t.ctx, t.database).find((job) => job.name === 'send-mail');
    if (!sender) throw new Error('no sender job');
    const otherSender = serverJobs(other.ctx, t.database).find((job) => job.name === 'send-mail');
    if (!otherSender) throw new Error('no sender job');
    await Promise.all([runJob(t.db, sender, { manual: true }), runJob(other.ctx.db, otherSender, { manual: true })]);
    await runJob(t.db, sender, { manual: true });
    const mail = await smtp.mailTo(cast.holder.user.email);
    expect(decoded(mail.raw)).toContain(`http://padtrack.test/invoices?invoice=${second.invoice.id}`);
    expect(smtp.received.filter((m) => m.to.includes(cast.holder.user.email))).toHaveLength(1);
  });

  it('when both instances look at the digest job after 07:00, then one runs it for the day and the day is in the mail key', async () => {
    await setThresholds({});
    const cast = await overdueCast();
    await evaluateAlerts(t.ctx);
    const job = (ctx: typeof t.ctx) => serverJobs(ctx, t.database).find((candidate) => candidate.name === 'digest');
    const mine = job(t.ctx);
    const theirs = job(other.ctx);
    if (!mine || !theirs) throw new Error('no digest job');
    const day = mine.period(new Date());
    const outcomes = await Promise.all([runJob(t.db, mine), runJob(other.ctx.db, theirs), runJob(t.db, mine)]);
    expect(outcomes.filter((outcome) => outcome?.status === 'ok')).toHaveLength(1);
    const rows = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.dedupe_key, `digest:${cast.holder.user.id}:${day}`));
    expect(rows).toHaveLength(1);
    const morning = new Date(`${today()}T06:59:00+08:00`);
    expect(mine.period(morning)).toBe(daysAgo(1));
  });

  it('when a user is deactivated, then their open items move to their branch head and they get no digest', async () => {
    await setThresholds({});
    const cast = await overdueCast();
    await evaluateAlerts(t.ctx);
    expect((await rowsOfSubject('overdue_return', cast.invoice.id)).map((r) => r.recipient_user_id)).toEqual([cast.holder.user.id]);

    await t.db.update(users).set({ user_status_id: USER_STATUS.INACTIVE }).where(eq(users.id, cast.holder.user.id));
    await evaluateAlerts(t.ctx);
    const rows = await rowsOfSubject('overdue_return', cast.invoice.id);
    expect(rows.find((r) => r.recipient_user_id === cast.holder.user.id)?.resolved_at).not.toBeNull();
    expect(rows.find((r) => r.recipient_user_id === cast.head.user.id && r.level === 0)?.resolved_at).toBeNull();

    const day = today();
    await sendDigests(t.ctx, day);
    expect(
      await t.db
        .select()
        .from(deliveries)
        .where(eq(deliveries.dedupe_key, `digest:${cast.holder.user.id}:${day}`)),
    ).toEqual([]);
    const [headDigest] = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.dedupe_key, `digest:${cast.head.user.id}:${day}`));
    expect(headDigest.body_text).toContain(`/invoices?invoice=${cast.invoice.id}`);
  });

  it('when a user turned a kind off, then its items are not in their digest but stay in the app', async () => {
    await setThresholds(ZERO);
    const courier = await signedIn(t, { role_id: ROLE.DRIVER });
    const built = await buildIssuedInvoice(t.db, {
      status: INVOICE_STATUS.IN_TRANSIT,
      courier: courier.user,
      createdAt: new Date(Date.now() - 3_600_000),
    });
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/notification-settings',
      headers: courier.headers,
      payload: { kinds: [{ kind: 'courier_stale', email: false }] },
    });
    expect(off.statusCode, off.body).toBe(200);
    await evaluateAlerts(t.ctx);
    const day = today();
    await sendDigests(t.ctx, day);
    const [digest] = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.dedupe_key, `digest:${courier.user.id}:${day}`));
    expect(digest.body_text).toContain('Waiting to be accepted');
    expect(digest.body_text).not.toContain('Courier custody stale');
    const list = await listOf(courier.headers, '?kind=courier_stale');
    expect(list.data.map((row) => row.link)).toContain(`/invoices?invoice=${built.invoice.id}`);
  });
});

describe('the API', () => {
  it('when a user marks their own notification read, then it is read and the unread count drops; someone else gets 404', async () => {
    await setThresholds({});
    const cast = await overdueCast();
    await evaluateAlerts(t.ctx);
    const before = await listOf(cast.holder.headers);
    const item = before.data.find((row) => row.kind === 'overdue_return' && row.read_at === null);
    if (!item) throw new Error('no item');
    const theirs = await t.app.inject({ method: 'POST', url: `/api/notifications/${item.id}/read`, headers: cast.head.headers });
    expect(theirs.statusCode).toBe(404);
    const res = await t.app.inject({ method: 'POST', url: `/api/notifications/${item.id}/read`, headers: cast.holder.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.read_at).not.toBeNull();
    const after = await listOf(cast.holder.headers);
    expect(after.unread).toBe(before.unread - 1);
    const [stored] = await t.db.select().from(notifications).where(eq(notifications.id, item.id));
    expect(stored.read_at).not.toBeNull();
  });

  it('when a user turns off a mandatory kind, then 422 names it; an optional kind is saved', async () => {
    const me = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/notification-settings',
      headers: me.headers,
      payload: { kinds: [{ kind: 'overdue_return', email: false }] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('Overdue return is always mailed and cannot be turned off.');
    const good = await t.app.inject({
      method: 'PUT',
      url: '/api/notification-settings',
      headers: me.headers,
      payload: { kinds: [{ kind: 'low_stock', email: false }] },
    });
    expect(good.statusCode, good.body).toBe(200);
    const got = await t.app.inject({ method: 'GET', url: '/api/notification-settings', headers: me.headers });
    // -- the route's response schema fixes this shape.
    const settings = (got.json() as { data: NotificationSettings }).data;
    expect(settings.kinds.find((k) => k.kind === 'low_stock')).toMatchObject({ email: false, mandatory: false });
    expect(settings.kinds.find((k) => k.kind === 'loss_reported')).toMatchObject({ email: true, mandatory: true });
  });

  it('when someone other than Admin or Accounting asks for the alert settings, then 403; bad thresholds are a 422; reorder points are saved', async () => {
    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    expect((await t.app.inject({ method: 'GET', url: '/api/alert-settings', headers: custodian.headers })).statusCode).toBe(403);
    const accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING });
    const got = await t.app.inject({ method: 'GET', url: '/api/alert-settings', headers: accounting.headers });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({
      mail_configured: true,
      mail_message: null,
      defaults: { count_due_days: t.config.countEveryDays },
    });

    const thresholds = { ...defaultAlertThresholds(), waiting_hours: -1 };
    const bad = await t.app.inject({ method: 'PUT', url: '/api/alert-settings', headers: accounting.headers, payload: { thresholds } });
    expect(bad.statusCode).toBe(422);
    const order = await t.app.inject({
      method: 'PUT',
      url: '/api/alert-settings',
      headers: accounting.headers,
      payload: { thresholds: { ...defaultAlertThresholds(), overdue_head_days: 9, overdue_accounting_days: 2 } },
    });
    expect(order.statusCode).toBe(422);

    const built = await buildIssuedInvoice(t.db);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/alert-settings',
      headers: accounting.headers,
      payload: {
        thresholds: defaultAlertThresholds(t.config.countEveryDays),
        reorder_points: [
          { branch_id: built.toBranch.id, route_id: built.route.id, minimum: 500, lead_days: 10, snoozed_until: '2099-01-31' },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.reorder_points).toEqual([
      expect.objectContaining({
        branch_id: built.toBranch.id,
        route_id: built.route.id,
        minimum: 500,
        lead_days: 10,
        snoozed_until: '2099-01-31',
      }),
    ]);
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/alert-settings',
      headers: accounting.headers,
      payload: {
        thresholds: defaultAlertThresholds(),
        reorder_points: [{ branch_id: 999_999, route_id: built.route.id, minimum: 1, lead_days: 1 }],
      },
    });
    expect(missing.statusCode).toBe(422);
  });
});
