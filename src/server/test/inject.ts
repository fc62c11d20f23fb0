import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

/**
 * A ledger-minded test's API calls on the app its `beforeAll` builds: `call` as a signed-in user (or nobody), `ok` to
 * expect a status and read the body, `at` to set the ledger's clock.
 */
export function apiCalls(current: () => TestApp) {
  const call = (
    who: { id?: number; headers: { authorization: string } } | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => current().app.inject({ method, url, headers: who?.headers, ...(payload ? { payload } : {}) });
  async function ok(promise: ReturnType<typeof call>, status = 200) {
    const res = await promise;
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  }
  const at = (iso: string) => {
    current().ctx.ledgerClock = () => new Date(iso);
  };
  return { call, ok, at };
}
