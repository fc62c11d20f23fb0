import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { MSG } from '../../../shared/messages.ts';
import { accessTokens, users } from '../../db/schema/users.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { expectAdminsOnly, expectStaffOnly } from '../../test/access.ts';
import {
  buildActivity,
  buildInvoice,
  buildIssuedInvoice,
  buildPad,
  buildPads,
  buildReport,
  createBranch,
  createRoute,
  createUser,
  loginAs,
  sessionsForAllRoles,
  signedIn,
  TEST_PASSWORD,
  type Sessions,
} from '../../test/factories.ts';
import { resetTokenFrom, startSmtp } from '../../test/smtp.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let s: Sessions;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let branch: { id: number; name: string };

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  branch = await createBranch(t.db, { name: 'Batangas Office' });
  s = await sessionsForAllRoles(t);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let seq = 0;
const form = (values: Record<string, unknown> = {}) => ({
  first_name: 'Juan',
  middle_name: 'Dela',
  last_name: 'Cruz',
  contact_number: '+63 917-123-4567',
  email: `juan.${Date.now()}.${seq++}@example.com`,
  password: 'Strong@123',
  branch_id: branch.id,
  role_id: 10,
  user_status_id: 1,
  ...values,
});

const addUser = async (values: Record<string, unknown> = {}) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/add-user', headers: s.admin, payload: form(values) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; email: string; full_name: string };
};

describe('users', () => {
  it('when anyone but roles 1 and 2 calls the admin endpoints, then 401 without a token and 403 for roles 3 to 11', async () => {
    const target = await createUser(t.db, { role_id: 10, branch_id: branch.id });
    const { password: _password, ...edit } = form();
    for (const call of [
      { method: 'GET', url: '/api/get-users' },
      { method: 'GET', url: `/api/get-user/${target.id}` },
      { method: 'POST', url: '/api/add-user', payload: form() },
      { method: 'PUT', url: `/api/update-user/${target.id}`, payload: edit },
      { method: 'DELETE', url: `/api/delete-user/${target.id}` },
      { method: 'POST', url: `/api/toggle-user-activation/${target.id}` },
      { method: 'POST', url: '/api/reset-user-password', payload: { user_id: target.id } },
    ] as const) {
      await expectAdminsOnly(t, s, call);
    }
    await expectStaffOnly(t, s, '/api/get-users-by-roles');
    await expectStaffOnly(t, s, '/api/get-user-statuses');
    const [stored] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(stored).toMatchObject({ email: target.email, user_status_id: 1, first_name: target.first_name });
  });

  it('when an admin adds a user, then the answer has names not ids, no password, and the user can sign in', async () => {
    const payload = form({ email: 'Ana.Reyes@Example.com', first_name: 'Ana', middle_name: '', last_name: 'Reyes', role_id: 7 });
    const res = await t.app.inject({ method: 'POST', url: '/api/add-user', headers: s.itAdmin, payload });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      message: 'User created successfully',
      data: {
        id: expect.any(Number),
        first_name: 'Ana',
        middle_name: null,
        last_name: 'Reyes',
        full_name: 'Ana Reyes',
        email: 'ana.reyes@example.com',
        contact_number: '+63 917-123-4567',
        role_id: 7,
        branch_id: branch.id,
        user_status_id: 1,
        role: { id: 7, name: 'Ticketing Officer' },
        branch: { id: branch.id, name: 'Batangas Office' },
        status: { id: 1, name: 'Active' },
      },
    });
    expect(res.body).not.toContain('password');
    const [stored] = await t.db.select().from(users).where(eq(users.id, body.data.id));
    expect(await verifyPassword(stored.password_hash, 'Strong@123')).toBe(true);
    await loginAs(t, 'ana.reyes@example.com', 'Strong@123');

    const one = await t.app.inject({ method: 'GET', url: `/api/get-user/${body.data.id}`, headers: s.admin });
    expect(one.json()).toEqual({ data: body.data });
    const missing = await t.app.inject({ method: 'GET', url: '/api/get-user/999999', headers: s.admin });
    expect(missing.statusCode).toBe(404);
  });

  it("when each field of the user form breaks its rule, then 422 with that field's message", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ first_name: '' }, 'first_name', 'First Name is required'],
      [{ first_name: 'Juan2' }, 'first_name', MSG.lettersAndSpaces],
      [{ middle_name: 'D.' }, 'middle_name', MSG.lettersAndSpaces],
      [{ last_name: '   ' }, 'last_name', 'Last Name is required'],
      [{ last_name: "O'Brien" }, 'last_name', MSG.lettersAndSpaces],
      [{ contact_number: '' }, 'contact_number', 'Contact Number is required'],
      [{ contact_number: '12345' }, 'contact_number', MSG.invalidPhone],
      [{ contact_number: '0917-123-45678' }, 'contact_number', MSG.invalidPhone],
      [{ email: '' }, 'email', 'Email is required'],
      [{ email: 'juan@' }, 'email', MSG.invalidEmail],
      [{ password: '' }, 'password', 'Password is required'],
      [{ password: 'weakpass' }, 'password', MSG.strongPassword],
      [{ password: 'Strong#123' }, 'password', MSG.strongPassword],
      [{ branch_id: '' }, 'branch_id', 'Branch is required'],
      [{ role_id: null }, 'role_id', 'Role is required'],
      [{ user_status_id: 0 }, 'user_status_id', 'Status is required'],
      [{ branch_id: 424242 }, 'branch_id', 'The selected branch does not exist.'],
      [{ role_id: 4242 }, 'role_id', 'The selected role does not exist.'],
      [{ user_status_id: 9 }, 'user_status_id', 'The selected status does not exist.'],
    ];
    const before = (await t.db.select({ id: users.id }).from(users)).length;
    for (const [override, field, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/add-user', headers: s.admin, payload: form(override) });
      expect(res.statusCode, `${field} ${JSON.stringify(override)}`).toBe(422);
      expect(res.json().errors[field], `${field} ${JSON.stringify(override)}`).toEqual([message]);
    }
    for (const contact of ['09171234567', '917.123.4567', '+1 917 123 4567']) {
      const ok = await t.app.inject({ method: 'POST', url: '/api/add-user', headers: s.admin, payload: form({ contact_number: contact }) });
      expect(ok.statusCode, contact).toBe(201);
    }
    expect((await t.db.select({ id: users.id }).from(users)).length).toBe(before + 3);
  });

  it('when the e-mail already belongs to someone in any case, then 422 on email for add and edit', async () => {
    const existing = await addUser();
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/add-user',
      headers: s.admin,
      payload: form({ email: existing.email.toUpperCase() }),
    });
    expect(add.statusCode).toBe(422);
    expect(add.json().errors.email).toEqual([MSG.emailTaken]);
    const other = await addUser();
    const { password: _password, ...edit } = form({ email: existing.email });
    const update = await t.app.inject({ method: 'PUT', url: `/api/update-user/${other.id}`, headers: s.admin, payload: edit });
    expect(update.statusCode).toBe(422);
    expect(update.json().errors.email).toEqual([MSG.emailTaken]);
    const [stored] = await t.db.select().from(users).where(eq(users.id, other.id));
    expect(stored.email).toBe(other.email);
  });

  it('when two admins add the same e-mail at once, then exactly one user is created and the other gets 422 on email', async () => {
    const payload = form({ email: `twin.${Date.now()}@example.com` });
    const results = await Promise.all([
      t.app.inject({ method: 'POST', url: '/api/add-user', headers: s.admin, payload }),
      t.app.inject({ method: 'POST', url: '/api/add-user', headers: s.itAdmin, payload }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.statusCode === 422)?.json().errors.email).toEqual([MSG.emailTaken]);
    const stored = await t.db
      .select()
      .from(users)
      .where(eq(users.email, payload.email as string));
    expect(stored).toHaveLength(1);
  });

  it('when an admin edits a user without a password, then the details change and the password stays', async () => {
    const user = await addUser();
    const otherBranch = await createBranch(t.db, { name: 'Calapan Office' });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/update-user/${user.id}`,
      headers: s.admin,
      payload: {
        first_name: 'Pedro',
        middle_name: null,
        last_name: 'Penduko',
        contact_number: '0917 765 4321',
        email: user.email,
        branch_id: otherBranch.id,
        role_id: '11',
        user_status_id: 1,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User updated successfully',
      data: {
        full_name: 'Pedro Penduko',
        role: { id: 11, name: 'Messenger' },
        branch: { name: 'Calapan Office' },
        contact_number: '0917 765 4321',
      },
    });
    const [stored] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(stored).toMatchObject({ first_name: 'Pedro', middle_name: null, role_id: 11, branch_id: otherBranch.id });
    expect(await verifyPassword(stored.password_hash, 'Strong@123')).toBe(true);
  });

  it("when an admin sets a user Inactive by edit, then that user's session ends; own role or status cannot be changed", async () => {
    const user = await createUser(t.db, { role_id: 5, branch_id: branch.id });
    const session = await loginAs(t, user.email);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/update-user/${user.id}`,
      headers: s.admin,
      payload: {
        first_name: 'Test',
        last_name: 'User',
        contact_number: '0917-000-0000',
        email: user.email,
        branch_id: branch.id,
        role_id: 5,
        user_status_id: 2,
      },
    });
    expect(res.json().data.status).toEqual({ id: 2, name: 'Inactive' });
    expect((await t.app.inject({ method: 'GET', url: '/api/user-profile', headers: session.headers })).statusCode).toBe(401);

    const me = await signedIn(t, { role_id: 2, branch_id: branch.id });
    const self = {
      first_name: 'Self',
      last_name: 'Admin',
      contact_number: '0917-000-0000',
      email: me.user.email,
      branch_id: branch.id,
      user_status_id: 1,
    };
    const ownRole = await t.app.inject({
      method: 'PUT',
      url: `/api/update-user/${me.user.id}`,
      headers: me.headers,
      payload: { ...self, role_id: 1 },
    });
    expect(ownRole.statusCode).toBe(422);
    expect(ownRole.json().errors.role_id).toEqual(['You cannot change your own role. Ask another administrator.']);
    const ownName = await t.app.inject({
      method: 'PUT',
      url: `/api/update-user/${me.user.id}`,
      headers: me.headers,
      payload: { ...self, role_id: 2 },
    });
    expect(ownName.statusCode).toBe(200);
  });

  it('when a user is toggled off, then the open session ends and sign-in is refused; toggled on, then Active again', async () => {
    const user = await createUser(t.db, { role_id: 10, branch_id: branch.id });
    const session = await loginAs(t, user.email);
    expect((await t.app.inject({ method: 'GET', url: '/api/user-profile', headers: session.headers })).statusCode).toBe(200);

    const off = await t.app.inject({ method: 'POST', url: `/api/toggle-user-activation/${user.id}`, headers: s.admin });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      message: 'User deactivated successfully',
      data: { id: user.id, status: { id: 2, name: 'Inactive' } },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/user-profile', headers: session.headers })).statusCode).toBe(401);
    expect(await t.db.select().from(accessTokens).where(eq(accessTokens.user_id, user.id))).toHaveLength(0);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe(MSG.accountInactive);

    const on = await t.app.inject({ method: 'POST', url: `/api/toggle-user-activation/${user.id}`, headers: s.itAdmin });
    expect(on.json()).toMatchObject({ message: 'User activated successfully', data: { status: { name: 'Active' } } });
    const [stored] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(stored.user_status_id).toBe(1);
    await loginAs(t, user.email);

    const self = await signedIn(t, { role_id: 1 });
    const own = await t.app.inject({ method: 'POST', url: `/api/toggle-user-activation/${self.user.id}`, headers: self.headers });
    expect(own.statusCode).toBe(409);
    const missing = await t.app.inject({ method: 'POST', url: '/api/toggle-user-activation/999999', headers: s.admin });
    expect(missing.statusCode).toBe(404);
  });

  it('when a user without history is deleted, then the row and its sessions are gone', async () => {
    const user = await createUser(t.db, { role_id: 10, branch_id: branch.id });
    const session = await loginAs(t, user.email);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/delete-user/${user.id}`, headers: s.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User deleted successfully' });
    expect(await t.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/user-profile', headers: session.headers })).statusCode).toBe(401);
  });

  it('when invoices, activities, pads or reports name a user, then deleting answers 409 "Deactivate the user instead" and the user stays', async () => {
    const route = await createRoute(t.db);
    const withInvoice = await createUser(t.db);
    await buildInvoice(t.db, { user_id: withInvoice.id });
    await buildInvoice(t.db, { user_id: withInvoice.id });
    const courier = await createUser(t.db);
    const requester = await createUser(t.db);
    const invoice = await buildInvoice(t.db, { user_id: requester.id, assigned_user_id: courier.id });
    const withActivity = await createUser(t.db);
    await buildActivity(t.db, { invoice_id: invoice.id, user_id: withActivity.id });
    const holder = await createUser(t.db);
    await buildPad(t.db, { route_id: route.id, created_by: holder.id });
    const reporter = await createUser(t.db);
    await buildReport(t.db, reporter.id);

    const expected: Array<[number, string]> = [
      [withInvoice.id, '2 invoices name this user, so the user cannot be deleted. Deactivate the user instead.'],
      [courier.id, '1 invoice names this user, so the user cannot be deleted. Deactivate the user instead.'],
      [withActivity.id, '1 invoice activity names this user, so the user cannot be deleted. Deactivate the user instead.'],
      [holder.id, '1 pad names this user, so the user cannot be deleted. Deactivate the user instead.'],
      [reporter.id, '1 report names this user, so the user cannot be deleted. Deactivate the user instead.'],
    ];
    for (const [id, message] of expected) {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/delete-user/${id}`, headers: s.admin });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(message);
      expect(await t.db.select().from(users).where(eq(users.id, id))).toHaveLength(1);
    }
    const self = await signedIn(t, { role_id: 1 });
    const own = await t.app.inject({ method: 'DELETE', url: `/api/delete-user/${self.user.id}`, headers: self.headers });
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe('You cannot delete your own account. Ask another administrator.');
  });

  describe('custody guards (docs/design.md §10)', () => {
    const held = async () => {
      const route = await createRoute(t.db, { name: `Batangas - Calapan ${seq++}` });
      const user = await createUser(t.db, { role_id: 7, branch_id: branch.id });
      await buildPads(t.db, route.id, 2, { heldBy: { userId: user.id, branchId: branch.id } });
      return { user, why: `This user holds pads ${route.name} #1, ${route.name} #2, so the user cannot be` };
    };
    const carrying = async () => {
      const user = await createUser(t.db, { role_id: 10, branch_id: branch.id });
      const { invoice } = await buildIssuedInvoice(t.db, { courier: user, status: INVOICE_STATUS.IN_TRANSIT, acceptedAt: null });
      return { user, why: `This user carries in-transit invoice #${invoice.id}, so the user cannot be` };
    };
    const anotherBranch = async () => (await createBranch(t.db, { name: `Lipa Office ${seq++}` })).id;
    const editOf = (user: typeof users.$inferSelect, change: Record<string, unknown>) => ({
      first_name: 'Juan',
      middle_name: null,
      last_name: 'Cruz',
      contact_number: '+63 917-123-4567',
      email: user.email,
      branch_id: user.branch_id,
      role_id: user.role_id,
      user_status_id: user.user_status_id,
      ...change,
    });

    for (const [what, make, way] of [
      ['holds pads', held, 'Return or Turnover the pads first.'],
      ['carries an in-transit invoice', carrying, 'Hand Over the invoices first.'],
    ] as const) {
      it(`when a user who ${what} is deactivated, deleted, given another role or moved, then each answers 409 naming them and the user is unchanged`, async () => {
        const cases = [
          ['deactivated', (id: number) => ({ method: 'POST' as const, url: `/api/toggle-user-activation/${id}` })],
          ['deleted', (id: number) => ({ method: 'DELETE' as const, url: `/api/delete-user/${id}` })],
        ] as const;
        for (const [verb, call] of cases) {
          const { user, why } = await make();
          const res = await t.app.inject({ ...call(user.id), headers: s.admin });
          expect(res.statusCode, res.body).toBe(409);
          expect(res.json().message).toBe(`${why} ${verb}. ${way}`);
          const [stored] = await t.db.select().from(users).where(eq(users.id, user.id));
          expect(stored).toMatchObject({ user_status_id: 1, role_id: user.role_id, branch_id: user.branch_id });
        }
        const edits = [
          ['deactivated', () => ({ user_status_id: 2 })],
          ['given another role', () => ({ role_id: 6 })],
          ['moved to another branch', async () => ({ branch_id: await anotherBranch() })],
        ] as const;
        for (const [verb, change] of edits) {
          const { user, why } = await make();
          const res = await t.app.inject({
            method: 'PUT',
            url: `/api/update-user/${user.id}`,
            headers: s.admin,
            payload: editOf(user, await change()),
          });
          expect(res.statusCode, res.body).toBe(409);
          expect(res.json().message).toBe(`${why} ${verb}. ${way}`);
          const [stored] = await t.db.select().from(users).where(eq(users.id, user.id));
          expect(stored).toMatchObject({ user_status_id: 1, role_id: user.role_id, branch_id: user.branch_id });
        }
      });
    }

    it('when a user who holds pads only has their name or number edited, then it saves; with nothing held, a role change saves', async () => {
      const { user } = await held();
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/update-user/${user.id}`,
        headers: s.admin,
        payload: editOf(user, { first_name: 'Renamed' }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const free = await createUser(t.db, { role_id: 7, branch_id: branch.id });
      const moved = await t.app.inject({
        method: 'PUT',
        url: `/api/update-user/${free.id}`,
        headers: s.admin,
        payload: editOf(free, { role_id: 6, branch_id: await anotherBranch() }),
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const [stored] = await t.db.select().from(users).where(eq(users.id, free.id));
      expect(stored.role_id).toBe(6);
      expect((await t.db.select().from(users).where(eq(users.id, user.id)))[0].first_name).toBe('Renamed');
    });

    it('when an in-transit Return names the user only as sender, then it does not count as carried', async () => {
      const sender = await createUser(t.db, { role_id: 7, branch_id: branch.id });
      const courier = await createUser(t.db, { role_id: 10 });
      await buildInvoice(t.db, {
        user_id: sender.id,
        type: INVOICE_TYPE.RETURN,
        status: INVOICE_STATUS.IN_TRANSIT,
        assigned_user_id: courier.id,
      });
      const res = await t.app.inject({ method: 'POST', url: `/api/toggle-user-activation/${sender.id}`, headers: s.admin });
      expect(res.statusCode, res.body).toBe(200);
      const [stored] = await t.db.select().from(users).where(eq(users.id, sender.id));
      expect(stored.user_status_id).toBe(2);
    });
  });

  it("when an admin resets a user's password, then the reset mail reaches that user over SMTP and its link works", async () => {
    const user = await createUser(t.db, { role_id: 6, branch_id: branch.id });
    const res = await t.app.inject({ method: 'POST', url: '/api/reset-user-password', headers: s.admin, payload: { user_id: user.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MSG.resetLinkSentToUser });
    const mail = await smtp.mailTo(user.email);
    const token = resetTokenFrom(mail);
    const update = await t.app.inject({
      method: 'POST',
      url: '/api/update-password',
      payload: { token, password: 'Reset@9876', password_confirmation: 'Reset@9876' },
    });
    expect(update.statusCode).toBe(200);
    await loginAs(t, user.email, 'Reset@9876');
    const missing = await t.app.inject({ method: 'POST', url: '/api/reset-user-password', headers: s.admin, payload: { user_id: 999999 } });
    expect(missing.statusCode).toBe(404);
  });

  it('when users are searched by name or e-mail and filtered by role, then matches come back paged with the envelope', async () => {
    const tag = `zx${Date.now().toString(36)}`.replace(/\d/g, 'q');
    for (let i = 0; i < 11; i += 1) await addUser({ first_name: `Tess ${tag}`, role_id: 9 });
    await addUser({ last_name: 'Mendoza', email: `${tag}.mail@example.com`, role_id: 8 });
    const all = await t.app.inject({ method: 'GET', url: `/api/get-users?search=${tag.toUpperCase()}`, headers: s.admin });
    expect(all.json()).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 12 });
    expect(all.json().data[0]).toMatchObject({ email: `${tag}.mail@example.com`, role: { name: 'Accounting' } });
    const byRole = await t.app.inject({ method: 'GET', url: `/api/get-users?search=${tag}&role=9&page=2`, headers: s.admin });
    expect(byRole.json()).toMatchObject({ current_page: 2, last_page: 2, total: 11 });
    expect(byRole.json().data).toHaveLength(1);
    const byEmail = await t.app.inject({ method: 'GET', url: `/api/get-users?search=${tag}.MAIL@`, headers: s.admin });
    expect(byEmail.json().data.map((u: { last_name: string }) => u.last_name)).toEqual(['Mendoza']);
    const byFullName = await t.app.inject({
      method: 'GET',
      url: `/api/get-users?search=${encodeURIComponent(`${tag} Dela Cruz`)}`,
      headers: s.admin,
    });
    expect(byFullName.json().total).toBe(11);
    const emptyRole = await t.app.inject({ method: 'GET', url: `/api/get-users?search=${tag}&role=`, headers: s.admin });
    expect(emptyRole.json().total).toBe(12);
    const badRole = await t.app.inject({ method: 'GET', url: '/api/get-users?role=abc', headers: s.admin });
    expect(badRole.statusCode).toBe(422);
  });

  it('when get-users-by-roles is asked, then Active couriers by default, or the roles given, come back with names', async () => {
    const driver = await createUser(t.db, { first_name: 'Aaron', role_id: 10, branch_id: branch.id });
    const messenger = await createUser(t.db, { first_name: 'Abel', role_id: 11 });
    const inactive = await createUser(t.db, { role_id: 10, user_status_id: 2 });
    const custodian = await createUser(t.db, { role_id: 3 });
    const byDefault = await t.app.inject({ method: 'GET', url: '/api/get-users-by-roles', headers: s.others[0].headers });
    const ids = byDefault.json().data.map((u: { id: number }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([driver.id, messenger.id]));
    expect(ids).not.toContain(inactive.id);
    expect(ids).not.toContain(custodian.id);
    expect(byDefault.json().data.find((u: { id: number }) => u.id === driver.id)).toEqual({
      id: driver.id,
      first_name: 'Aaron',
      middle_name: null,
      last_name: driver.last_name,
      full_name: `Aaron ${driver.last_name}`,
      role_id: 10,
      branch_id: branch.id,
      role: { id: 10, name: 'Driver' },
      branch: { id: branch.id, name: 'Batangas Office' },
    });
    const comma = await t.app.inject({ method: 'GET', url: '/api/get-users-by-roles?roles=3,11', headers: s.admin });
    const commaIds = comma.json().data.map((u: { id: number }) => u.id);
    expect(commaIds).toEqual(expect.arrayContaining([custodian.id, messenger.id]));
    expect(commaIds).not.toContain(driver.id);
    const repeated = await t.app.inject({ method: 'GET', url: '/api/get-users-by-roles?roles=3&roles=10', headers: s.admin });
    expect(repeated.json().data.map((u: { id: number }) => u.id)).toEqual(expect.arrayContaining([custodian.id, driver.id]));
    const bad = await t.app.inject({ method: 'GET', url: '/api/get-users-by-roles?roles=1,x', headers: s.admin });
    expect(bad.statusCode).toBe(422);
    const statuses = await t.app.inject({ method: 'GET', url: '/api/get-user-statuses', headers: s.others[8].headers });
    expect(statuses.json()).toEqual({
      data: [
        { id: 1, name: 'Active' },
        { id: 2, name: 'Inactive' },
      ],
    });
  });
});
