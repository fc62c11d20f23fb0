import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages.ts';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { users } from '../../db/schema/users.ts';
import { seedFirstAdmin } from '../../db/seed.ts';
import { createBranch, signedIn } from '../../test/factories.ts';
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

const newUser = (email: string, branchId: number, extra: Record<string, unknown>) => ({
  first_name: 'Nestor',
  middle_name: '',
  last_name: 'Bautista',
  contact_number: '0917-123-4567',
  email,
  role_id: 10,
  branch_id: branchId,
  user_status_id: USER_STATUS.ACTIVE,
  ...extra,
});

const stored = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0];

describe('first passwords', () => {
  it('when an administrator sets a new user password, then that user must change it before any other call is answered', async () => {
    const admin = await signedIn(t, { role_id: 1 });
    const branch = await createBranch(t.db);
    const email = `given-${Date.now()}@padtrack.test`;
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/add-user',
      headers: admin.headers,
      payload: newUser(email, branch.id, { password: 'Given@12345' }),
    });
    expect(add.statusCode).toBe(201);
    expect((await stored(email)).must_change_password).toBe(true);

    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'Given@12345' } });
    expect(login.statusCode).toBe(200);
    expect(login.json().must_change_credentials).toBe(true);
    const headers = { authorization: `Bearer ${login.json().token}` };

    const refused = await t.app.inject({ method: 'GET', url: '/api/my-actions', headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: MSG.mustChangePassword });
    expect((await t.app.inject({ method: 'GET', url: '/api/user-profile', headers })).statusCode).toBe(200);

    const same = await t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers,
      payload: { current_password: 'Given@12345', password: 'Given@12345', password_confirmation: 'Given@12345' },
    });
    expect(same.statusCode).toBe(422);
    expect(same.json().errors.password).toEqual([MSG.newPasswordSame]);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers,
      payload: { current_password: 'Wrong@12345', password: 'Mine@123456', password_confirmation: 'Mine@123456' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual([MSG.currentPasswordWrong]);

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/change-password',
      headers,
      payload: { current_password: 'Given@12345', password: 'Mine@123456', password_confirmation: 'Mine@123456' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ message: MSG.passwordUpdated });
    expect((await stored(email)).must_change_password).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/my-actions', headers })).statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'Mine@123456' } });
    expect(again.json().must_change_credentials).toBe(false);
  });

  it('when a new user is to get a set-password e-mail, then no password is asked, the mailed link sets one and sign-in needs no change', async () => {
    const admin = await signedIn(t, { role_id: 1 });
    const branch = await createBranch(t.db);
    const email = `mailed-${Date.now()}@padtrack.test`;
    const withoutEither = await t.app.inject({
      method: 'POST',
      url: '/api/add-user',
      headers: admin.headers,
      payload: newUser(email, branch.id, {}),
    });
    expect(withoutEither.statusCode).toBe(422);
    expect(withoutEither.json().errors.password).toEqual(['Password is required']);

    const add = await t.app.inject({
      method: 'POST',
      url: '/api/add-user',
      headers: admin.headers,
      payload: newUser(email, branch.id, { send_set_password_email: true }),
    });
    expect(add.statusCode).toBe(201);
    expect((await stored(email)).must_change_password).toBe(false);
    const mail = await smtp.mailTo(email);
    expect(mail.raw).toContain('Subject: Set your PadTrack password');
    expect(mail.raw).toContain('http://padtrack.test/reset-password/');
    const token = resetTokenFrom(mail);

    const set = await t.app.inject({
      method: 'POST',
      url: '/api/update-password',
      payload: { token, password: 'Chosen@123', password_confirmation: 'Chosen@123' },
    });
    expect(set.statusCode).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'Chosen@123' } });
    expect(login.statusCode).toBe(200);
    expect(login.json().must_change_credentials).toBe(false);
  });

  it('when the first administrator gets a generated password, then it must be changed; a password from ADMIN_PASSWORD need not', async () => {
    const empty = await createTestApp({ SMTP_URL: smtp.url, ADMIN_PASSWORD: '' });
    try {
      await empty.db.delete(users);
      const generated = await seedFirstAdmin(empty.db, 'first@padtrack.test', null);
      expect(generated).not.toBeNull();
      const first = await empty.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'first@padtrack.test', password: generated },
      });
      expect(first.json().must_change_credentials).toBe(true);
    } finally {
      await empty.close();
    }
    const seeded = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'admin@padtrack.test', password: 'Admin@12345' },
    });
    expect(seeded.json().must_change_credentials).toBe(false);
  });
});
