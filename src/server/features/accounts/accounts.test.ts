import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages.ts';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { users } from '../../db/schema/users.ts';
import { createUser, loginAs, signedIn, TEST_PASSWORD } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { resetTokenFrom, startSmtp } from '../../test/smtp.ts';

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

const registration = (email: string) => ({
  first_name: 'Maria',
  middle_name: '',
  last_name: 'Santos',
  email,
  mobile_number: '09171234567',
  password: 'Strong@123',
  password_confirmation: 'Strong@123',
});

describe('accounts', () => {
  it('when the app starts, then health reports the database ok and APP_TIMEZONE, the zone the screens show times in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', time_zone: t.ctx.config.timeZone });
  });

  it('when the seeded admin signs in, then the user comes back with role, full name, a token and APP_TIMEZONE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'admin@padtrack.test', password: 'Admin@12345' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[\w-]{40,}$/);
    expect(body.time_zone).toBe('Asia/Manila');
    expect(body.user).toMatchObject({ role_id: 1, role: { id: 1, name: 'Admin' }, full_name: 'System Administrator' });
    expect(body.user.password_hash).toBeUndefined();
  });

  it('when someone registers, signs in and updates the profile, then the profile shows the new names', async () => {
    const reg = await t.app.inject({ method: 'POST', url: '/api/register-account', payload: registration('maria@example.com') });
    expect(reg.statusCode).toBe(201);
    expect(reg.json().user).toMatchObject({ role_id: null, branch_id: null, status: { name: 'Active' } });

    const { headers } = await loginAs(t, 'maria@example.com', 'Strong@123');
    const update = await t.app.inject({
      method: 'PUT',
      url: '/api/update-profile',
      headers,
      payload: {
        first_name: 'Maria Clara',
        last_name: 'Santos',
        email: 'maria.clara@example.com',
        current_password: 'Strong@123',
        role_id: 1,
      },
    });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({ message: MSG.profileUpdated, userProfile: { first_name: 'Maria Clara', role_id: null } });

    const profile = await t.app.inject({ method: 'GET', url: '/api/user-profile', headers });
    expect(profile.json().data).toMatchObject({ first_name: 'Maria Clara', email: 'maria.clara@example.com', role_id: null });
  });

  it('when registration breaks the rules, then each field says why in the spec words', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register-account',
      payload: {
        ...registration('not-an-email'),
        first_name: '',
        mobile_number: '12345',
        password: 'weak',
        password_confirmation: 'other',
      },
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(errors.first_name).toEqual(['First name is required']);
    expect(errors.email).toEqual([MSG.invalidEmail]);
    expect(errors.mobile_number).toEqual([MSG.invalidMobile]);
    expect(errors.password).toEqual([MSG.strongPassword]);
  });

  it('when the confirmation differs, then "Passwords do not match"; when the e-mail is taken, then 422 on email', async () => {
    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/api/register-account',
      payload: { ...registration('pair@example.com'), password_confirmation: 'Strong@1234' },
    });
    expect(mismatch.json().errors.password_confirmation).toEqual([MSG.passwordsDoNotMatch]);
    const existing = await createUser(t.db);
    const taken = await t.app.inject({ method: 'POST', url: '/api/register-account', payload: registration(existing.email.toUpperCase()) });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toEqual([MSG.emailTaken]);
  });

  it('when a user forgets the password, then the mailed link resets it once and older sessions end', async () => {
    const user = await createUser(t.db);
    const before = await loginAs(t, user.email);
    const forgot = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: user.email } });
    expect(forgot.json()).toEqual({ message: MSG.resetLinkSent });
    const mail = await smtp.mailTo(user.email);
    expect(mail.raw).toContain('http://padtrack.test/reset-password/');
    const token = resetTokenFrom(mail);

    const payload = { token, password: 'Changed@456', password_confirmation: 'Changed@456' };
    const first = await t.app.inject({ method: 'POST', url: '/api/update-password', payload });
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe(MSG.passwordUpdated);

    const second = await t.app.inject({ method: 'POST', url: '/api/update-password', payload });
    expect(second.statusCode).toBe(422);
    expect(second.json().errors.password).toEqual([MSG.invalidOrExpiredToken]);

    const old = await t.app.inject({ method: 'GET', url: '/api/user-profile', headers: before.headers });
    expect(old.statusCode).toBe(401);
    await loginAs(t, user.email, 'Changed@456');
  });

  it('when the reset confirmation differs, then the spec message; an unknown e-mail gets the same answer and no mail', async () => {
    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/api/update-password',
      payload: { token: 'x'.repeat(43), password: 'Changed@456', password_confirmation: 'Changed@457' },
    });
    expect(mismatch.json().errors.password_confirmation).toEqual([MSG.confirmDoesNotMatch]);

    const count = smtp.received.length;
    const unknown = await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'nobody@example.com' } });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ message: MSG.resetLinkSent });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.length).toBe(count);
  });

  it('when a user logs out, then the token no longer works', async () => {
    const { headers } = await signedIn(t, { role_id: 5 });
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/user-profile', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('when an inactive user signs in, then it is refused with the inactive message', async () => {
    const user = await createUser(t.db, { user_status_id: USER_STATUS.INACTIVE });
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MSG.accountInactive);
  });

  it('when the password is wrong five times in a minute, then the sixth attempt gets 429', async () => {
    const user = await createUser(t.db);
    const attempt = () => t.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: 'Wrong@12345' } });
    for (let i = 0; i < 5; i += 1) expect((await attempt()).statusCode).toBe(422);
    const sixth = await attempt();
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers['retry-after']).toBeDefined();
  });

  it('when bodies are malformed, of the wrong type or huge, then 4xx and never 500', async () => {
    const bad = [
      { url: '/api/login', payload: '{"email": ', headers: { 'content-type': 'application/json' } },
      { url: '/api/login', payload: { email: 42, password: ['x'] } },
      { url: '/api/register-account', payload: { ...registration('big@example.com'), first_name: 'a'.repeat(100_000) } },
      { url: '/api/forgot-password', payload: { email: 'b'.repeat(100_000) } },
      { url: '/api/update-password', payload: { token: {}, password: null } },
    ];
    for (const b of bad) {
      const res = await t.app.inject({ method: 'POST', url: b.url, payload: b.payload, headers: b.headers });
      expect(res.statusCode, `${b.url} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().message).toEqual(expect.any(String));
    }
  });

  it('when a user asks for the badge, then it is base64 SVG; a reset of the own password mails a link', async () => {
    const { user, headers } = await signedIn(t, { role_id: 10 });
    const res = await t.app.inject({ method: 'GET', url: '/api/get-user-qrcode', headers });
    expect(res.statusCode).toBe(200);
    expect(Buffer.from(res.json().qr_code, 'base64').toString('utf8')).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const reset = await t.app.inject({ method: 'POST', url: '/api/reset-user-password', headers });
    expect(reset.json()).toEqual({ message: MSG.resetLinkSentAlert });
    await smtp.mailTo(user.email);
  });

  it('when a reset happens, then the badge number changes', async () => {
    const { user, headers } = await signedIn(t, { role_id: 10 });
    const before = (await t.app.inject({ method: 'GET', url: '/api/get-user-qrcode', headers })).json().qr_code;
    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: user.email } });
    const token = resetTokenFrom(await smtp.mailTo(user.email));
    await t.app.inject({
      method: 'POST',
      url: '/api/update-password',
      payload: { token, password: 'Rotate@123', password_confirmation: 'Rotate@123' },
    });
    const after = await loginAs(t, user.email, 'Rotate@123');
    const now = (await t.app.inject({ method: 'GET', url: '/api/get-user-qrcode', headers: after.headers })).json().qr_code;
    expect(now).not.toBe(before);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row.badge_version).toBe(2);
  });

  it('when an unknown API path is asked for, then a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('/api/nothing-here');
  });

  it('when /api/docs/json is read, then it lists the account endpoints', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/api/login', '/api/register-account', '/api/get-user-qrcode']));
  });
});
