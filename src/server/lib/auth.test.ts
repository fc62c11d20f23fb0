import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLE, USER_STATUS } from '../../shared/lookups.ts';
import { accessTokens, users } from '../db/schema/users.ts';
import { signedIn } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { SESSION_CACHE_MS } from './auth.ts';
import { hashToken } from './tokens.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const profile = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/user-profile', headers });

describe('session cache', () => {
  it('when a user who was just answered logs out, then the very next request with that token answers 401', async () => {
    const { headers } = await signedIn(t, { role_id: ROLE.BRANCH_HEAD });
    expect((await profile(headers)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers })).statusCode).toBe(200);
    const after = await profile(headers);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('when an admin deactivates a user who was just answered, then that user is refused on the next request', async () => {
    const admin = await signedIn(t, { role_id: ROLE.ADMIN });
    const user = await signedIn(t, { role_id: ROLE.BRANCH_HEAD });
    expect((await profile(user.headers)).statusCode).toBe(200);
    const off = await t.app.inject({ method: 'POST', url: `/api/toggle-user-activation/${user.user.id}`, headers: admin.headers });
    expect(off.statusCode).toBe(200);
    expect((await profile(user.headers)).statusCode).toBe(401);
    const [stored] = await t.db.select().from(users).where(eq(users.id, user.user.id));
    expect(stored.user_status_id).toBe(USER_STATUS.INACTIVE);
  });

  it('when another instance deactivates a user (a change straight in the database), then this instance refuses the user within SESSION_CACHE_MS', async () => {
    const user = await signedIn(t, { role_id: ROLE.BRANCH_HEAD });
    expect((await profile(user.headers)).statusCode).toBe(200);
    await t.db.update(users).set({ user_status_id: USER_STATUS.INACTIVE }).where(eq(users.id, user.user.id));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SESSION_CACHE_MS + 1);
    expect((await profile(user.headers)).statusCode).toBe(401);
  });

  it('when a sign-in expires while it is cached, then the token is refused from its expiry on', async () => {
    const user = await signedIn(t, { role_id: ROLE.BRANCH_HEAD });
    const expiry = new Date(Date.now() + SESSION_CACHE_MS / 3);
    await t.db
      .update(accessTokens)
      .set({ expires_at: expiry })
      .where(eq(accessTokens.token_hash, hashToken(user.token)));
    expect((await profile(user.headers)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiry.getTime() + 1);
    expect((await profile(user.headers)).statusCode).toBe(401);
  });
});
