import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBranch, createRoute, signedIn } from './test/factories.ts';
import { fuzzCases, injectOptions, type FuzzCase, type FuzzDocument } from './test/openapi-fuzz.ts';
import { createTestApp, type TestApp } from './test/test-app.ts';

let t: TestApp;
let authorization: string;
/** The server's error log: a 5xx is printed with the error behind it. */
const errorLog: string[] = [];

/** A fresh admin: a fuzzed call may end the session (logout, a password change, a deactivation) or change the admin. */
async function signInAdmin(branchId: number) {
  authorization = (await signedIn(t, { role_id: 1, branch_id: branchId })).headers.authorization;
}

let branchId: number;
beforeAll(async () => {
  t = await createTestApp({}, { logger: pino({ level: 'error' }, { write: (line: string) => errorLog.push(line) }) });
  const branch = await createBranch(t.db);
  branchId = branch.id;
  t.ctx.config.headOfficeBranchId = branch.id;
  await signInAdmin(branch.id);
  const route = await createRoute(t.db);
  const added = await t.app.inject({
    method: 'POST',
    url: '/api/add-pad',
    headers: { authorization },
    payload: { route_id: route.id, series_from: 1, series_to: 200 },
  });
  expect(added.statusCode, added.body).toBe(201);
  const requested = await t.app.inject({
    method: 'POST',
    url: '/api/create-request-invoice',
    headers: { authorization },
    payload: { route_id: route.id, pads: 1 },
  });
  expect(requested.statusCode, requested.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

/** Each request from a client address of its own, so the rate limits never stand between a case and the code it probes. */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
/** Requests in flight at once: enough to overlap the HTTP layer with the database, few enough for a 2-core machine. */
const PARALLEL = 6;

describe('OpenAPI fuzz', () => {
  it('when every operation of the served document gets boundary and hostile values in each parameter and body field, as an admin and once signed out, then none answers 5xx (docs/SECURITY.md "Bad input and database faults")', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<FuzzDocument>();
    const cases = fuzzCases(document);
    const byOperation = new Map<string, FuzzCase[]>();
    for (const c of cases) byOperation.set(c.operation, [...(byOperation.get(c.operation) ?? []), c]);

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const timings: Array<[string, number]> = [];
    let sent = 0;
    const send = async (c: FuzzCase, signedIn: boolean) => {
      const index = sent++;
      const res = await t.app.inject(injectOptions(c, signedIn ? authorization : null, addressOf(index)));
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500)
        failures.push(`${c.operation} [${signedIn ? 'admin' : 'signed out'}] ${c.what} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    };

    const started = Date.now();
    for (const [operation, operationCases] of byOperation) {
      const operationStarted = Date.now();
      await send(operationCases[0], false);
      for (let i = 0; i < operationCases.length; i += PARALLEL)
        await Promise.all(operationCases.slice(i, i + PARALLEL).map((c) => send(c, true)));
      const session = await t.app.inject({ method: 'GET', url: '/api/user-profile', headers: { authorization } });
      if (session.statusCode !== 200) await signInAdmin(branchId);
      timings.push([operation, Date.now() - operationStarted]);
    }

    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    const slowest = timings
      .sort(([, a], [, b]) => b - a)
      .slice(0, 5)
      .map(([operation, ms]) => `${operation} ${ms} ms`)
      .join(', ');
    console.info(
      `OpenAPI fuzz: ${byOperation.size} operations, ${sent} requests in ${Date.now() - started} ms (${summary}), ${failures.length} answered 5xx; slowest: ${slowest}`,
    );
    if (failures.length > 0) console.info([...failures, ...errorLog.map((line) => line.slice(0, 600))].join('\n'));
    expect(failures).toEqual([]);
    expect(byOperation.size).toBeGreaterThan(120);
    expect(sent).toBeGreaterThan(3_000);
    expect(statuses.get(422)).toBeGreaterThan(1_000);
  }, 300_000);
});
