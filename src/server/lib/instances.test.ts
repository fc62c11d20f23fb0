import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MSG } from '../../shared/messages.ts';
import { runJobOnce, type Job } from '../db/jobs.ts';
import { createBranch, createUser, loginAs, signedIn, TEST_PASSWORD } from '../test/factories.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../test/test-app.ts';

type Instance = Pick<TestApp, 'app'>;
let t: TestApp;
let other: Awaited<ReturnType<typeof createSecondInstance>>;
let admin: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: '10.50.0.1' });
  other = await createSecondInstance(t);
  admin = (await signedIn(t, { role_id: 1 })).headers;
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const profile = (instance: Instance, headers: { authorization: string }) =>
  instance.app.inject({ method: 'GET', url: '/api/user-profile', headers });

/** Through the proxy at 10.50.0.1, which forwards the client's own address. */
const login = (instance: Instance, email: string, password: string, client: string) =>
  instance.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password },
    remoteAddress: '10.50.0.1',
    headers: { 'x-forwarded-for': client },
  });

describe('two app instances on one database', () => {
  it('when 5 failed sign-ins are spread over both instances, then the 6th answers 429 on either', async () => {
    const user = await createUser(t.db);
    const instances = [t, other];
    for (let i = 0; i < 5; i += 1) {
      const res = await login(instances[i % 2], user.email, 'Wrong@1234', '198.51.100.7');
      expect(res.statusCode, `attempt ${i + 1}`).toBe(422);
    }
    for (const instance of instances) {
      const res = await login(instance, user.email, TEST_PASSWORD, '198.51.100.7');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ message: MSG.tooManyRequests });
    }
    expect((await login(other, user.email, TEST_PASSWORD, '198.51.100.8')).statusCode).toBe(200);
  });

  it('when a route rate limit is spent through both instances, then the next request is refused on either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const res = await (i % 2 === 0 ? t : other).app.inject({
        method: 'POST',
        url: '/api/forgot-password',
        payload: { email: `spread-${i}@example.com` },
        remoteAddress: '10.50.0.1',
        headers: { 'x-forwarded-for': '198.51.100.20' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('when a user logs out on one instance, then the other refuses the token at once, though it had it cached', async () => {
    const user = await createUser(t.db, { role_id: 7 });
    const session = await loginAs(t, user.email);
    expect((await profile(other, session.headers)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: session.headers })).statusCode).toBe(200);
    expect((await profile(other, session.headers)).statusCode).toBe(401);
  });

  it('when an administrator deactivates a user or changes their role or branch on one instance, then the other sees it on the next request', async () => {
    const branch = await createBranch(t.db);
    const user = await createUser(t.db, { role_id: 7, branch_id: branch.id, first_name: 'Lara', last_name: 'Santos' });
    const session = await loginAs(t, user.email);
    expect((await profile(other, session.headers)).json().data).toMatchObject({ role_id: 7, branch_id: branch.id });
    const moved = await createBranch(t.db);
    const update = await t.app.inject({
      method: 'PUT',
      url: `/api/update-user/${user.id}`,
      headers: admin,
      payload: {
        first_name: 'Lara',
        middle_name: null,
        last_name: 'Santos',
        email: user.email,
        contact_number: '09171234567',
        role_id: 9,
        branch_id: moved.id,
        user_status_id: 1,
      },
    });
    expect(update.statusCode, update.body).toBe(200);
    expect((await profile(other, session.headers)).json().data).toMatchObject({ role_id: 9, branch_id: moved.id });
    expect((await other.app.inject({ method: 'GET', url: '/api/get-users', headers: session.headers })).statusCode).toBe(403);
    const toggled = await t.app.inject({ method: 'POST', url: `/api/toggle-user-activation/${user.id}`, headers: admin });
    expect(toggled.statusCode, toggled.body).toBe(200);
    expect((await profile(other, session.headers)).statusCode).toBe(401);
  });

  it('when a sign-in changes by SQL outside the app, then both instances hear it through the database', async () => {
    const user = await createUser(t.db, { role_id: 7 });
    const session = await loginAs(t, user.email);
    expect((await profile(t, session.headers)).statusCode).toBe(200);
    expect((await profile(other, session.headers)).statusCode).toBe(200);
    await t.db.execute(sql`delete from access_tokens where user_id = ${user.id}`);
    await expect.poll(async () => (await profile(other, session.headers)).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
    expect((await profile(t, session.headers)).statusCode).toBe(401);
  });

  it('when both instances reach the same hourly job together, then it runs once', async () => {
    let runs = 0;
    const job: Job = {
      name: `test-job-${Date.now()}`,
      everyMs: 60_000,
      period: (now) => now.toISOString().slice(0, 13),
      run: async () => {
        runs += 1;
      },
    };
    const now = new Date();
    const ran = await Promise.all([
      runJobOnce(t.db, job, now),
      runJobOnce(other.ctx.db, job, now),
      runJobOnce(t.db, job, now),
      runJobOnce(other.ctx.db, job, now),
    ]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    expect(await runJobOnce(other.ctx.db, job, new Date(now.getTime() + 3_600_000))).toBe(true);
    expect(runs).toBe(2);
    const rows = (await t.db.execute(sql`select period from job_runs where name = ${job.name}`)) as unknown as { rows: unknown[] };
    expect(rows.rows).toHaveLength(2);
  });
});
