import net from 'node:net';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { deliveries } from '../../db/schema/deliveries.ts';
import { createMailer } from '../../lib/mail.ts';
import { createUser } from '../../test/factories.ts';
import { startSmtp, type ReceivedMail } from '../../test/smtp.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../test/test-app.ts';
import { enqueueDelivery } from './lifecycle.ts';
import { claimDueDeliveries } from './repo.ts';
import { CLAIM_LEASE_MS, messageIdOf, sendDueDeliveries, SKIPPED_DEACTIVATED } from './sender.ts';

const MINUTE = 60_000;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
let other: Awaited<ReturnType<typeof createSecondInstance>>;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  other = await createSecondInstance(t);
});
afterAll(async () => {
  await other.close();
  await t.close();
  await smtp.close();
});

/** A port nothing listens on: connecting is refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let seq = 0;
async function enqueue(values: { to?: string; recipientUserId?: number | null; key?: string } = {}) {
  seq += 1;
  const to = values.to ?? `outbox-${Date.now()}-${seq}@padtrack.test`;
  const dedupeKey = values.key ?? `test:${Date.now()}:${seq}`;
  const isNew = await enqueueDelivery(t.db, {
    channel: 'email',
    recipientUserId: values.recipientUserId ?? null,
    to,
    kind: 'test',
    dedupeKey,
    subject: `Outbox test ${seq}`,
    text: `Hello ${seq}`,
    html: `<p>Hello ${seq}</p>`,
  });
  return { to, dedupeKey, isNew };
}

const stored = async (dedupeKey: string) => {
  const [row] = await t.db.select().from(deliveries).where(eq(deliveries.dedupe_key, dedupeKey));
  return row;
};
const mailsTo = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));
const messageIdHeader = (mail: ReceivedMail) => /^Message-ID:\s*(\S+)/im.exec(mail.raw)?.[1];
/** A clock that starts a little after the database's now(), so rows enqueued now are due. */
const clockFrom = () => Date.now() + 1000;

describe('the outbox', () => {
  it('when the same dedupe key is enqueued twice, then it is one delivery and the second call says so', async () => {
    const first = await enqueue();
    const second = await enqueue({ key: first.dedupeKey, to: 'someone-else@padtrack.test' });
    expect(first.isNew).toBe(true);
    expect(second.isNew).toBe(false);
    const rows = await t.db.select().from(deliveries).where(eq(deliveries.dedupe_key, first.dedupeKey));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ target: first.to, attempts: 0, sent_at: null, channel: 'email', body_html: `<p>Hello ${seq - 1}</p>` });
  });

  it('when two instances tick the sender concurrently 20 times each, then every delivery reaches the SMTP server exactly once', async () => {
    await sendDueDeliveries(t.ctx);
    const queued = await Promise.all(Array.from({ length: 12 }, () => enqueue()));
    const now = () => new Date(clockFrom());
    const ticks = Array.from({ length: 40 }, (_, i) => sendDueDeliveries(i % 2 === 0 ? t.ctx : other.ctx, { now, batch: 2 }));
    const tallies = await Promise.all(ticks);
    expect(tallies.reduce((sum, tally) => sum + tally.sent, 0)).toBe(12);
    for (const { to, dedupeKey } of queued) {
      const mails = mailsTo(to);
      expect(mails, to).toHaveLength(1);
      expect(messageIdHeader(mails[0])).toBe(messageIdOf(dedupeKey));
      const row = await stored(dedupeKey);
      expect(row.sent_at).not.toBeNull();
      expect(row.attempts).toBe(1);
      expect(row.last_error).toBeNull();
    }
  });

  it('when SMTP refuses for a while, then the tries follow the backoff with the error kept, and once it is back one mail goes', async () => {
    await sendDueDeliveries(t.ctx);
    const working = t.ctx.mailer;
    t.ctx.mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
      from: t.config.mailFrom,
      dataDir: t.config.dataDir,
      log: pino({ level: 'silent' }),
    });
    try {
      const { to, dedupeKey } = await enqueue();
      let at = clockFrom();
      const tick = () => sendDueDeliveries(t.ctx, { now: () => new Date(at) });
      const waits = [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 360 * MINUTE, 1440 * MINUTE, 1440 * MINUTE];
      for (const [i, wait] of waits.entries()) {
        expect((await tick()).failed, `try ${i + 1}`).toBe(1);
        const row = await stored(dedupeKey);
        expect(row.attempts).toBe(i + 1);
        expect(row.last_error).toMatch(/ECONNREFUSED/);
        expect(row.sent_at).toBeNull();
        expect(row.next_attempt_at.getTime()).toBe(at + wait);
        at += wait - 1000;
        expect((await tick()).failed, `a second early`).toBe(0);
        at += 1000;
      }
      t.ctx.mailer = working;
      expect(await tick()).toEqual({ sent: 1, failed: 0, skipped: 0 });
      at += 3 * 1440 * MINUTE;
      expect(await tick()).toEqual({ sent: 0, failed: 0, skipped: 0 });
      expect(mailsTo(to)).toHaveLength(1);
      const row = await stored(dedupeKey);
      expect(row.sent_at?.getTime()).toBe(at - 3 * 1440 * MINUTE);
      expect(row.attempts).toBe(waits.length + 1);
      expect(row.last_error).toMatch(/ECONNREFUSED/);
    } finally {
      t.ctx.mailer = working;
    }
  });

  it('when an instance stops after sending and before marking, then the other re-sends after the lease with the same Message-ID', async () => {
    await sendDueDeliveries(t.ctx);
    const { to, dedupeKey } = await enqueue();
    const at = clockFrom();
    const [claimed] = await claimDueDeliveries(t.db, new Date(at), new Date(at + CLAIM_LEASE_MS), 5);
    expect(claimed.dedupe_key).toBe(dedupeKey);
    await t.ctx.mailer.send({ to: claimed.target, subject: claimed.subject, text: claimed.body_text, messageId: messageIdOf(dedupeKey) });
    expect(await sendDueDeliveries(other.ctx, { now: () => new Date(at + MINUTE) })).toEqual({ sent: 0, failed: 0, skipped: 0 });
    expect(await sendDueDeliveries(other.ctx, { now: () => new Date(at + CLAIM_LEASE_MS) })).toEqual({ sent: 1, failed: 0, skipped: 0 });
    const mails = mailsTo(to);
    expect(mails).toHaveLength(2);
    expect(mails.map(messageIdHeader)).toEqual([messageIdOf(dedupeKey), messageIdOf(dedupeKey)]);
    const row = await stored(dedupeKey);
    expect(row.attempts).toBe(2);
    expect(row.sent_at).not.toBeNull();
  });

  it('when the recipient is deactivated, then nothing is sent and the delivery is marked done with the reason', async () => {
    await sendDueDeliveries(t.ctx);
    const gone = await createUser(t.db, { user_status_id: USER_STATUS.INACTIVE });
    const active = await createUser(t.db);
    const skipped = await enqueue({ to: gone.email, recipientUserId: gone.id });
    const sent = await enqueue({ to: active.email, recipientUserId: active.id });
    expect(await sendDueDeliveries(t.ctx, { now: () => new Date(clockFrom()) })).toEqual({ sent: 1, failed: 0, skipped: 1 });
    expect(mailsTo(gone.email)).toHaveLength(0);
    expect(mailsTo(active.email)).toHaveLength(1);
    expect(await stored(skipped.dedupeKey)).toMatchObject({ last_error: SKIPPED_DEACTIVATED, attempts: 1 });
    expect((await stored(skipped.dedupeKey)).sent_at).not.toBeNull();
    expect((await stored(sent.dedupeKey)).last_error).toBeNull();
  });
});
