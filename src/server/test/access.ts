import { expect } from 'vitest';
import type { Sessions } from './factories.ts';
import type { TestApp } from './test-app.ts';

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
}

/** 401 without a token and 403 for roles 3 to 11 and for a user without a role, before any body validation. */
export async function expectAdminsOnly(t: TestApp, sessions: Sessions, call: Call): Promise<void> {
  const anonymous = await t.app.inject({ method: call.method, url: call.url, payload: call.payload });
  expect(anonymous.statusCode, `${call.method} ${call.url} without a token`).toBe(401);
  expect(anonymous.json()).toEqual({ message: 'Unauthenticated.' });
  for (const { role_id, headers } of sessions.others) {
    const res = await t.app.inject({ method: call.method, url: call.url, payload: call.payload, headers });
    expect(res.statusCode, `${call.method} ${call.url} as role ${role_id}`).toBe(403);
  }
}

/** 401 without a token; 200 for roles 1 to 11 (the lookups behind other screens' selects); 403 for a user without a role (docs/design.md §5 "Roles"). */
export async function expectStaffOnly(t: TestApp, sessions: Sessions, url: string): Promise<void> {
  expect((await t.app.inject({ method: 'GET', url })).statusCode, `${url} without a token`).toBe(401);
  for (const { role_id, headers } of [...sessions.others, { role_id: 1, headers: sessions.admin }]) {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, `${url} as role ${role_id}`).toBe(role_id === null ? 403 : 200);
  }
}
