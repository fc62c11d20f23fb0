import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetQueries, keepQueries, restoreQueries } from './offline-cache.ts';
import { offlineDb } from './offline-store.ts';
import { queryKeys } from './query-keys.ts';

const COURIER = 12;
const CASHIER = 14;
const ANSWERED_AT = new Date('2026-11-20T06:30:00Z').getTime();
const custodies = { data: [{ id: 17, invoice_type: 'Return', assigned_user: 'Rey Cruz' }], total: 1 };
const custodiesKey = queryKeys.inTransitInvoices.of({ page: 1 });

/** A screen's answer arriving from the server, at the clock's time. */
const answered = (client: QueryClient, queryKey: readonly unknown[], data: unknown) =>
  client.fetchQuery({ queryKey, queryFn: async () => data });

const saved = async (userId: number) => (await offlineDb()).get('queries', userId);

/** The save runs a second after the last answer; the store then writes on its own schedule. */
async function aSecondPasses() {
  await vi.advanceTimersByTimeAsync(1000);
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(ANSWERED_AT);
  await (await offlineDb()).clear('queries');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the saved-query cache', () => {
  it('when a pier screen gets its answer, then a second later it is saved, and a fresh start gets it back with the time it was answered', async () => {
    const client = new QueryClient();
    const stop = keepQueries(client, COURIER);
    await answered(client, custodiesKey, custodies);
    await aSecondPasses();
    await vi.waitFor(async () => expect(await saved(COURIER)).toBeDefined());
    stop();

    expect((await saved(COURIER))?.savedAt).toBe(ANSWERED_AT + 1000);
    vi.setSystemTime(ANSWERED_AT + 3_600_000);
    const afterRestart = new QueryClient();
    await restoreQueries(afterRestart, COURIER);
    expect(afterRestart.getQueryData(custodiesKey)).toEqual(custodies);
    expect(afterRestart.getQueryState(custodiesKey)?.dataUpdatedAt).toBe(ANSWERED_AT);
  });

  it('when answers keep coming, then one save follows the last of them', async () => {
    const client = new QueryClient();
    const stop = keepQueries(client, COURIER);
    await answered(client, custodiesKey, custodies);
    await vi.advanceTimersByTimeAsync(600);
    await answered(client, queryKeys.badge.all, { code: '4417' });
    await vi.advanceTimersByTimeAsync(600);
    expect(await saved(COURIER)).toBeUndefined();

    await vi.advanceTimersByTimeAsync(400);
    await vi.waitFor(async () => expect(await saved(COURIER)).toBeDefined());
    stop();
    const restored = new QueryClient();
    await restoreQueries(restored, COURIER);
    expect(restored.getQueryData(custodiesKey)).toEqual(custodies);
    expect(restored.getQueryData(queryKeys.badge.all)).toEqual({ code: '4417' });
  });

  it('when a screen the pier does not need, or a failed call, answers, then it is not kept', async () => {
    const client = new QueryClient();
    const stop = keepQueries(client, COURIER);
    await answered(client, queryKeys.reports.of({ page: 1 }), { data: [], total: 0 });
    await client.fetchQuery({ queryKey: queryKeys.badge.all, queryFn: () => Promise.reject(new Error('offline')) }).catch(() => null);
    await answered(client, custodiesKey, custodies);
    await aSecondPasses();
    await vi.waitFor(async () => expect(await saved(COURIER)).toBeDefined());
    stop();

    const restored = new QueryClient();
    await restoreQueries(restored, COURIER);
    expect(restored.getQueryData(queryKeys.reports.of({ page: 1 }))).toBeUndefined();
    expect(restored.getQueryState(queryKeys.badge.all)).toBeUndefined();
    expect(restored.getQueryData(custodiesKey)).toEqual(custodies);
  });

  it('when the screen already holds a newer answer, then the saved one does not replace it', async () => {
    const client = new QueryClient();
    const stop = keepQueries(client, COURIER);
    await answered(client, custodiesKey, custodies);
    await aSecondPasses();
    await vi.waitFor(async () => expect(await saved(COURIER)).toBeDefined());
    stop();

    vi.setSystemTime(ANSWERED_AT + 60_000);
    const newer = new QueryClient();
    await answered(newer, custodiesKey, { data: [], total: 0 });
    await restoreQueries(newer, COURIER);
    expect(newer.getQueryData(custodiesKey)).toEqual({ data: [], total: 0 });
  });

  it('when the user signs out, then saving stops, their saved answers are forgotten, and another user’s stay', async () => {
    const courierScreens = new QueryClient();
    const cashierScreens = new QueryClient();
    const stopCourier = keepQueries(courierScreens, COURIER);
    const stopCashier = keepQueries(cashierScreens, CASHIER);
    await answered(courierScreens, custodiesKey, custodies);
    await answered(cashierScreens, queryKeys.badge.all, { code: '5120' });
    await aSecondPasses();
    await vi.waitFor(async () => expect(await saved(CASHIER)).toBeDefined());
    await vi.waitFor(async () => expect(await saved(COURIER)).toBeDefined());

    stopCourier();
    await forgetQueries(COURIER);
    await answered(courierScreens, queryKeys.badge.all, { code: '4417' });
    await aSecondPasses();
    stopCashier();

    expect(await saved(COURIER)).toBeUndefined();
    const restored = new QueryClient();
    await restoreQueries(restored, CASHIER);
    expect(restored.getQueryData(queryKeys.badge.all)).toEqual({ code: '5120' });
  });
});
