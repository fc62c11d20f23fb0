import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages.ts';
import { parseTrustProxy } from '../../config.ts';
import { accessTokens, passwordResets } from '../../db/schema/users.ts';
import { hashToken } from '../../lib/tokens.ts';
import { createUser, loginAs, signedIn, TEST_PASSWORD } from '../../test/factories.ts';
import { resetTokenFrom, startSmtp } from '../../test/smtp.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { ACCOUNT_LIMITS } from './routes.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const forgot = (email: string, remoteAddress: string, headers: Record<string, string> = {}, app = t) =>
  app.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email }, remoteAddress, headers });

const resetWith = (token: string, password: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/update-password',
    payload: { token, password, password_confirmation: password },
    remoteAddress,
  });

const mailCount = (email: string) => smtp.received.filter((m) => m.to.includes(email)).length;

describe('account limits and reset tokens', () => {
  it('when one e-mail asks for resets from many clients, then the per-e-mail limit answers 429 (docs/SECURITY.md "Rate limits")', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < ACCOUNT_LIMITS.forgotPerEmail.max; i += 1) {
      expect((await forgot(user.email, `10.4.0.${i + 1}`)).statusCode).toBe(200);
    }
    const over = await forgot(user.email.toUpperCase(), '10.4.1.1');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ message: MSG.tooManyRequests });
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    expect((await forgot('someone-else@example.com', '10.4.1.1')).statusCode).toBe(200);
  });

  it('when one client asks for resets of many e-mails, then the per-client limit answers 429 (docs/SECURITY.md "Rate limits")', async () => {
    for (let i = 0; i < ACCOUNT_LIMITS.forgotPerClient.max; i += 1) {
      expect((await forgot(`client-${i}@example.com`, '10.4.2.1')).statusCode).toBe(200);
    }
    expect((await forgot('client-last@example.com', '10.4.2.1')).statusCode).toBe(429);
    expect((await forgot('client-last@example.com', '10.4.2.2')).statusCode).toBe(200);
  });

  it('when one reset token is tried from many clients, then the per-token limit answers 429 (docs/SECURITY.md "Rate limits")', async () => {
    const token = 'y'.repeat(43);
    for (let i = 0; i < ACCOUNT_LIMITS.updatePasswordPerToken.max; i += 1) {
      const res = await resetWith(token, 'Guess@1234', `10.4.3.${i + 1}`);
      expect(res.json().errors.password).toEqual([MSG.invalidOrExpiredToken]);
    }
    expect((await resetWith(token, 'Guess@1234', '10.4.4.1')).statusCode).toBe(429);
  });

  it('when X-Forwarded-For changes on every request and no proxy is trusted, then the limiter still counts one client (docs/SECURITY.md "Running behind a proxy")', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= ACCOUNT_LIMITS.forgotPerClient.max; i += 1) {
      statuses.push((await forgot(`xff-${i}@example.com`, '10.3.0.1', { 'x-forwarded-for': `203.0.113.${i + 1}` })).statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it('when TRUST_PROXY names the proxy, then the forwarded address is the client; the setting parses as Fastify accepts (docs/SECURITY.md "Running behind a proxy")', async () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 10.0.0.0/8')).toEqual(['10.0.0.1', '10.0.0.0/8']);

    const behindProxy = await createTestApp({ SMTP_URL: smtp.url, TRUST_PROXY: '10.3.1.1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= ACCOUNT_LIMITS.forgotPerClient.max; i += 1) {
        statuses.push(
          (await forgot(`proxied-${i}@example.com`, '10.3.1.1', { 'x-forwarded-for': `203.0.113.${i + 1}` }, behindProxy)).statusCode,
        );
      }
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await behindProxy.close();
    }
  });

  it('when forgot-password is answered, then the answer is sent before any database work for the e-mail starts (docs/design.md §5 "Accounts and sessions")', async () => {
    const user = await createUser(t.db);
    let release!: () => void;
    let locked!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users, password_resets in access exclusive mode`);
      locked();
      await gate;
    });
    await isLocked;
    const safety = setTimeout(release, 10_000);
    try {
      const known = await forgot(user.email, '10.5.0.1');
      const unknown = await forgot('nobody-here@example.com', '10.5.0.2');
      expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
      expect(known.body).toBe(unknown.body);
      expect(mailCount(user.email)).toBe(0);
    } finally {
      release();
      clearTimeout(safety);
      await holder;
    }
    expect(resetTokenFrom(await smtp.mailTo(user.email))).toMatch(/^[\w-]{40,}$/);
  });

  it('when a new link is sent, then the older link stops working; a reset voids every other outstanding link (docs/design.md §5 "Accounts and sessions")', async () => {
    const user = await createUser(t.db);
    await forgot(user.email, '10.6.0.1');
    const first = resetTokenFrom(await smtp.mailTo(user.email));
    const mailsBefore = mailCount(user.email);
    await forgot(user.email, '10.6.0.2');
    for (let i = 0; i < 100 && mailCount(user.email) === mailsBefore; i += 1) await new Promise((r) => setTimeout(r, 50));
    const second = resetTokenFrom(await smtp.mailTo(user.email));
    expect(second).not.toBe(first);

    const stale = await resetWith(first, 'Stale@1234');
    expect(stale.statusCode).toBe(422);
    expect(stale.json().errors.password).toEqual([MSG.invalidOrExpiredToken]);

    const parallel = 'p'.repeat(43);
    await t.db
      .insert(passwordResets)
      .values({ user_id: user.id, token_hash: hashToken(parallel), expires_at: new Date(Date.now() + 600_000) });
    expect((await resetWith(second, 'Fresh@1234')).statusCode).toBe(200);
    const after = await resetWith(parallel, 'Other@1234');
    expect(after.statusCode).toBe(422);
    await loginAs(t, user.email, 'Fresh@1234');
  });

  it('when anyone signs in, then expired sign-ins and used or expired reset tokens are purged (docs/SECURITY.md "Who may do what")', async () => {
    const user = await createUser(t.db);
    const past = new Date(Date.now() - 60_000);
    await t.db.insert(accessTokens).values({ user_id: user.id, token_hash: hashToken('expired-session'), expires_at: past });
    await t.db.insert(passwordResets).values([
      { user_id: user.id, token_hash: hashToken('expired-reset'), expires_at: past },
      { user_id: user.id, token_hash: hashToken('used-reset'), expires_at: new Date(Date.now() + 600_000), used_at: past },
      { user_id: user.id, token_hash: hashToken('live-reset'), expires_at: new Date(Date.now() + 600_000) },
    ]);
    await signedIn(t, { role_id: 5 });
    const sessions = await t.db.select().from(accessTokens).where(eq(accessTokens.user_id, user.id));
    const resets = await t.db
      .select({ token_hash: passwordResets.token_hash })
      .from(passwordResets)
      .where(eq(passwordResets.user_id, user.id));
    expect(sessions).toEqual([]);
    expect(resets).toEqual([{ token_hash: hashToken('live-reset') }]);
  });

  it('when a user changes the own e-mail, then the current password is required and checked (docs/SECURITY.md "Who may do what")', async () => {
    const { user, headers } = await signedIn(t, { role_id: 5 });
    const names = { first_name: 'Ana', last_name: 'Reyes' };
    const update = (payload: Record<string, string>) =>
      t.app.inject({ method: 'PUT', url: '/api/update-profile', headers, payload: { ...names, ...payload } });

    const missing = await update({ email: 'new-address@example.com' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.current_password).toEqual([MSG.currentPasswordRequired]);
    const wrong = await update({ email: 'new-address@example.com', current_password: 'Wrong@1234' });
    expect(wrong.json().errors.current_password).toEqual([MSG.currentPasswordWrong]);
    const sameEmail = await update({ email: user.email.toUpperCase() });
    expect(sameEmail.statusCode).toBe(200);

    const ok = await update({ email: 'new-address@example.com', current_password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().userProfile.email).toBe('new-address@example.com');
  });

  it('when the API answers JSON, then it says Cache-Control: no-store (docs/SECURITY.md "Who may do what")', async () => {
    const { headers } = await signedIn(t, { role_id: 5 });
    const profile = await t.app.inject({ method: 'GET', url: '/api/user-profile', headers });
    expect(profile.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/user-profile' });
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});
