import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_MSG } from '../../shared/custody-rules.ts';
import { ROLE } from '../../shared/lookups.ts';
import { MSG } from '../../shared/messages.ts';
import { COUNT_MSG } from '../../shared/schemas/counts.ts';
import { CUSTODY_MSG } from '../../shared/schemas/custodies.ts';
import { countSessions } from '../db/schema/counts.ts';
import { invoices } from '../db/schema/invoices.ts';
import { buildPad, createBranch, createRoute, signedIn } from '../test/factories.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../test/test-app.ts';
import { encodeBadge } from './badge.ts';
import { CODE_TRIES_PER_ADDRESS, CODE_TRIES_PER_USER, CODE_TRIES_WINDOW_MS } from './code-tries.ts';
import { encodePadLabel } from './pad-label.ts';

type Session = Awaited<ReturnType<typeof signedIn>>;

let t: TestApp;
let branchId: number;
let holder: Session;
let padId: number;
const logLines: Array<Record<string, unknown>> = [];
let addresses = 0;

/** Every test scans from an address of its own, so only the budgets it means to share are shared. */
const newAddress = () => `10.0.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

const send = (who: Session, address: string, method: 'GET' | 'POST', url: string, payload?: object, key?: string) =>
  t.app.inject({
    method,
    url: `/api${url}`,
    remoteAddress: address,
    headers: key ? { ...who.headers, 'idempotency-key': key } : who.headers,
    ...(payload ? { payload } : {}),
  });

const badgeOf = (who: Session) => encodeBadge(t.ctx.badgeSecret, who.user.id, who.user.badge_version);
/** The n-th badge number that claims the user but is not theirs. */
const wrongBadge = (who: Session, n: number) => {
  const right = badgeOf(who);
  const check = (Number(right.slice(-6)) + 1 + n) % 1_000_000;
  return `${who.user.id}${String(check).padStart(6, '0')}`;
};
/** A code shaped like a pad label whose check was not made here. */
const forgedLabel = (n: number) => `PT1P${padId}-${String(n).padStart(12, '0')}`;

const startCount = async (counter: Session) => {
  const res = await send(counter, newAddress(), 'POST', '/counts', { user_id: holder.user.id });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
};
const signedOffBy = async (countId: number) =>
  (await t.db.select({ by: countSessions.signed_off_by }).from(countSessions).where(eq(countSessions.id, countId)))[0].by;
const lockLines = () => logLines.filter((line) => line.msg === 'badge and label codes locked: too many wrong codes');

function expectLocked(res: Awaited<ReturnType<typeof send>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual({ message: CODE_MSG.tooManyWrong(CODE_TRIES_WINDOW_MS / 60_000) });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(CODE_TRIES_WINDOW_MS / 1000 - 120);
  expect(retryAfter).toBeLessThanOrEqual(CODE_TRIES_WINDOW_MS / 1000);
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  t = await createTestApp({}, { logger: pino({ level: 'warn' }, sink) });
  t.ctx.config.headOfficeBranchId = (await createBranch(t.db, { name: 'Head Office' })).id;
  branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  holder = await signedIn(t, { role_id: ROLE.TICKETING_OFFICER, branch_id: branchId, first_name: 'Ana', last_name: 'Cruz' });
  padId = (await buildPad(t.db, { route_id: (await createRoute(t.db)).id })).id;
});
afterAll(async () => {
  await t.close();
});

describe('one budget for badge and label codes', () => {
  it('when 80 wrong badges are sent to a count sign-off, then the first 10 are 422 and the rest 429; the right badge is 429 too and the lockout is logged', async () => {
    const counter = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    const countId = await startCount(counter);
    const address = newAddress();
    const statuses: number[] = [];
    for (let n = 0; n < 80; n += 1) {
      const res = await send(counter, address, 'POST', `/counts/${countId}/sign-off`, { badge: wrongBadge(holder, n) });
      statuses.push(res.statusCode);
      if (res.statusCode === 422) expect(res.json().errors).toEqual({ badge: [COUNT_MSG.badgeUnknown] });
      else expectLocked(res);
    }
    expect(statuses).toEqual([...Array<number>(CODE_TRIES_PER_USER).fill(422), ...Array<number>(80 - CODE_TRIES_PER_USER).fill(429)]);
    expectLocked(await send(counter, address, 'POST', `/counts/${countId}/sign-off`, { badge: badgeOf(holder) }));
    expect(await signedOffBy(countId)).toBeNull();
    expect(lockLines().filter((line) => line.actorId === counter.user.id)).toEqual([
      expect.objectContaining({ level: 40, actorId: counter.user.id, address, claimed: { userId: holder.user.id } }),
    ]);
  });

  it('when wrong codes are spread over badge look-up, label look-up, count scans and sign-off, then they share one budget', async () => {
    const counter = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    const countId = await startCount(counter);
    const address = newAddress();
    for (let n = 0; n < 3; n += 1) {
      const lookup = await send(counter, address, 'GET', `/get-assigned-user/${wrongBadge(holder, n)}`);
      expect(lookup.statusCode, lookup.body).toBe(422);
      expect(lookup.json().message).toBe(MSG.badgeNotRecognised);
      const label = await send(counter, address, 'GET', `/pad-by-label?code=${forgedLabel(n)}`);
      expect(label.statusCode, label.body).toBe(404);
      expect(label.json().message).toBe(COUNT_MSG.labelUnknown);
      const scan = await send(counter, address, 'POST', `/counts/${countId}/items`, { code: forgedLabel(n + 10), first_unused: 1 });
      expect(scan.statusCode, scan.body).toBe(404);
    }
    const tenth = await send(counter, address, 'POST', `/counts/${countId}/sign-off`, { badge: wrongBadge(holder, 9) });
    expect(tenth.statusCode, tenth.body).toBe(422);
    expectLocked(await send(counter, address, 'GET', `/get-assigned-user/${badgeOf(holder)}`));
    expectLocked(await send(counter, address, 'GET', `/pad-by-label?code=${encodePadLabel(t.ctx.badgeSecret, padId)}`));
    expectLocked(
      await send(counter, address, 'POST', `/counts/${countId}/items`, { code: encodePadLabel(t.ctx.badgeSecret, padId), first_unused: 1 }),
    );
    expectLocked(await send(counter, address, 'POST', `/counts/${countId}/sign-off`, { badge: badgeOf(holder) }));
    expect(await signedOffBy(countId)).toBeNull();
    const found = await send(counter, newAddress(), 'POST', `/counts/${countId}/items`, { pad_id: padId, missing: true });
    expect(found.statusCode, found.body).toBe(200);
  });

  it('when a courier sends wrong badges with hand-overs, online or queued offline, then the budget runs out the same way and the custody stays', async () => {
    const head = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branchId });
    const pad = await buildPad(t.db, { route_id: (await createRoute(t.db)).id, heldBy: { userId: head.user.id, branchId } });
    const giver = await signedIn(t, { role_id: ROLE.DRIVER, branch_id: branchId });
    const receiver = await signedIn(t, { role_id: ROLE.DRIVER, branch_id: branchId });
    const made = await send(head, newAddress(), 'POST', '/create-return-invoice', { pads: [pad.id], assigned_user_id: giver.user.id });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as number;
    const address = newAddress();
    for (let n = 0; n < CODE_TRIES_PER_USER; n += 1) {
      const res = await send(
        giver,
        address,
        'POST',
        `/hand-over-invoice/${id}`,
        { assigned_user_id: receiver.user.id, badge: wrongBadge(receiver, n) },
        n % 2 ? `offline-${n}-${id}` : undefined,
      );
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ badge: [CUSTODY_MSG.badgeNotReceiver] });
    }
    const right = { assigned_user_id: receiver.user.id, badge: badgeOf(receiver) };
    expectLocked(await send(giver, address, 'POST', `/hand-over-invoice/${id}`, right));
    expectLocked(await send(giver, address, 'POST', `/hand-over-invoice/${id}`, right, `offline-right-${id}`));
    expect((await t.db.select({ to: invoices.assigned_user_id }).from(invoices).where(eq(invoices.id, id)))[0].to).toBe(giver.user.id);
    const picked = await send(giver, address, 'POST', `/hand-over-invoice/${id}`, { assigned_user_id: receiver.user.id });
    expect(picked.statusCode, picked.body).toBe(200);
  });

  it('when right codes come between wrong ones, then they cost nothing and clear nothing', async () => {
    const scanner = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    const address = newAddress();
    for (let n = 0; n < CODE_TRIES_PER_USER - 1; n += 1)
      expect((await send(scanner, address, 'GET', `/get-assigned-user/${wrongBadge(holder, n)}`)).statusCode).toBe(422);
    for (let n = 0; n < 5; n += 1) {
      const right = await send(scanner, address, 'GET', `/get-assigned-user/${badgeOf(holder)}`);
      expect(right.statusCode, right.body).toBe(200);
      expect(right.json().data.id).toBe(holder.user.id);
    }
    expect((await send(scanner, address, 'GET', `/get-assigned-user/${wrongBadge(holder, 50)}`)).statusCode).toBe(422);
    expectLocked(await send(scanner, address, 'GET', `/get-assigned-user/${badgeOf(holder)}`));
  });

  it('when several users at one address spend its budget, then a further user there is refused at once and elsewhere is not', async () => {
    const address = newAddress();
    const users = CODE_TRIES_PER_ADDRESS / CODE_TRIES_PER_USER;
    for (let u = 0; u < users; u += 1) {
      const scanner = await signedIn(t, { role_id: ROLE.CUSTODIAN });
      for (let n = 0; n < CODE_TRIES_PER_USER; n += 1)
        expect((await send(scanner, address, 'GET', `/get-assigned-user/${wrongBadge(holder, n)}`)).statusCode).toBe(422);
    }
    const late = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    expectLocked(await send(late, address, 'GET', `/get-assigned-user/${badgeOf(holder)}`));
    expect((await send(late, newAddress(), 'GET', `/get-assigned-user/${badgeOf(holder)}`)).statusCode).toBe(200);
  });

  it('when wrong codes go to two app instances on one database, then they count together', async () => {
    const second = await createSecondInstance(t);
    try {
      const scanner = await signedIn(t, { role_id: ROLE.CUSTODIAN });
      const address = newAddress();
      for (let n = 0; n < CODE_TRIES_PER_USER; n += 1) {
        const app = n % 2 ? second.app : t.app;
        const url = `/api/get-assigned-user/${wrongBadge(holder, n)}`;
        expect((await app.inject({ method: 'GET', url, remoteAddress: address, headers: scanner.headers })).statusCode).toBe(422);
      }
      expectLocked(await send(scanner, address, 'GET', `/get-assigned-user/${badgeOf(holder)}`));
      const url = `/api/get-assigned-user/${badgeOf(holder)}`;
      expectLocked(await second.app.inject({ method: 'GET', url, remoteAddress: address, headers: scanner.headers }));
    } finally {
      await second.close();
    }
  });

  it('when 20 right badges arrive at once from one user, then every one is answered', async () => {
    const scanner = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send(scanner, address, 'GET', `/get-assigned-user/${badgeOf(holder)}`)),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array<number>(20).fill(200));
  });

  it('when 40 wrong badges arrive at once, then at most 10 are answered as wrong and the others are 429', async () => {
    const scanner = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) => send(scanner, address, 'GET', `/get-assigned-user/${wrongBadge(holder, n)}`)),
    );
    const judged = answers.filter((res) => res.statusCode === 422).length;
    expect(judged).toBeGreaterThan(0);
    expect(judged).toBeLessThanOrEqual(CODE_TRIES_PER_USER);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(40 - judged);
  });
});
