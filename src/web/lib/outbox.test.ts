import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../shared/messages.ts';
import { notify } from '../components/notify.ts';
import { api } from './api.ts';
import { offlineDb, type QueuedAction } from './offline-store.ts';
import { outbox, sendOrQueue } from './outbox.ts';
import { startOfflineSupport } from './use-offline-support.ts';

const COURIER = 12;
const OTHER_COURIER = 13;

type NewAction = Omit<QueuedAction, 'key' | 'queuedAt' | 'state'>;

const handOver = (invoiceId: number, userId = COURIER): NewAction => ({
  userId,
  kind: 'hand-over',
  path: `invoices/${invoiceId}/hand-over`,
  body: { assigned_user_id: 31, place: 'Calapan pier' },
  label: `Hand-over of Return #${invoiceId} to Rey Cruz`,
  invoiceId,
});

/** What the server answers one request: a status and a JSON body, or nothing at all (the request never arrives). */
type Answer = { status: number; body?: unknown } | 'unreachable';

interface Sent {
  url: string;
  idempotencyKey: string | undefined;
  body: unknown;
}

/**
 * The phone's boundary to the world: whether the browser says it is online, its `online` event, and `fetch`, which
 * answers each request with the next of the answers given (200 once they run out) and records what was sent.
 */
function phone() {
  const sent: Sent[] = [];
  const answers: Array<Answer | Promise<Answer>> = [];
  const browser = { onLine: false };
  const events = new EventTarget();
  vi.stubGlobal('navigator', browser);
  vi.stubGlobal('window', events);
  vi.stubGlobal('document', { cookie: '' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      sent.push({
        url,
        idempotencyKey: headers['Idempotency-Key'],
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      });
      const answer = (await answers.shift()) ?? { status: 200, body: { message: 'Handed over' } };
      if (answer === 'unreachable') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(answer.body ?? {}), { status: answer.status });
    }),
  );
  return {
    sent,
    answer: (...next: Array<Answer | Promise<Answer>>) => answers.push(...next),
    offline: () => {
      browser.onLine = false;
    },
    /** The network comes back: the browser says so and fires `online`. */
    reconnect: () => {
      browser.onLine = true;
      events.dispatchEvent(new Event('online'));
    },
  };
}

async function stored(): Promise<QueuedAction[]> {
  return (await offlineDb()).getAll('outbox');
}

/** Two actions a person makes are never in the same millisecond. */
const aMomentLater = () => new Promise((resolve) => setTimeout(resolve, 2));

/** Waits until the outbox has settled into the state expected. */
const settles = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 2000, interval: 5 });

let network: ReturnType<typeof phone>;
let stop: () => void = () => undefined;

beforeEach(async () => {
  network = phone();
  const db = await offlineDb();
  await db.clear('outbox');
  await db.clear('queries');
  await outbox.load(COURIER);
  vi.spyOn(notify, 'success');
  vi.spyOn(notify, 'error');
  vi.spyOn(notify, 'warning');
});

afterEach(async () => {
  stop();
  stop = () => undefined;
  network.reconnect();
  await outbox.flush(COURIER);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the offline outbox', () => {
  it('when a courier hands over without network, then the action waits on the phone and nothing is sent', async () => {
    stop = startOfflineSupport(new QueryClient(), COURIER);
    await outbox.queue(handOver(17));

    const [waiting] = await stored();
    expect(waiting).toMatchObject({ userId: COURIER, state: 'waiting', label: 'Hand-over of Return #17 to Rey Cruz' });
    expect(waiting.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(outbox.items()).toEqual([waiting]);
    expect(network.sent).toEqual([]);
  });

  it('when the network returns, then the waiting action is sent once with its own key as Idempotency-Key and leaves the phone', async () => {
    stop = startOfflineSupport(new QueryClient(), COURIER);
    await outbox.queue(handOver(17));
    const [{ key }] = await stored();

    network.reconnect();
    await settles(() => expect(outbox.items()).toEqual([]));

    expect(network.sent).toEqual([
      { url: '/api/invoices/17/hand-over', idempotencyKey: key, body: { assigned_user_id: 31, place: 'Calapan pier' } },
    ]);
    expect(await stored()).toEqual([]);
    expect(notify.success).toHaveBeenCalledWith('Sent: hand-over of Return #17 to Rey Cruz');

    network.reconnect();
    await outbox.flush(COURIER);
    expect(network.sent).toHaveLength(1);
  });

  it('when the network returns twice while the first send is still out, then the action is sent once', async () => {
    stop = startOfflineSupport(new QueryClient(), COURIER);
    await outbox.queue(handOver(17));
    let answerNow: (answer: Answer) => void = () => undefined;
    network.answer(new Promise<Answer>((resolve) => (answerNow = resolve)));

    network.reconnect();
    network.reconnect();
    const again = outbox.flush(COURIER);
    answerNow({ status: 200, body: { message: 'Handed over' } });
    await again;

    expect(network.sent).toHaveLength(1);
    expect(outbox.items()).toEqual([]);
  });

  it('when several actions wait, then they are sent in the order they were made', async () => {
    for (const invoiceId of [19, 17, 18]) {
      await outbox.queue(handOver(invoiceId));
      await aMomentLater();
    }
    network.reconnect();
    await outbox.flush(COURIER);

    expect(network.sent.map((request) => request.url)).toEqual([
      '/api/invoices/19/hand-over',
      '/api/invoices/17/hand-over',
      '/api/invoices/18/hand-over',
    ]);
  });

  it('when a send never reaches the server or the server fails, then the action waits and the retry carries the same key', async () => {
    stop = startOfflineSupport(new QueryClient(), COURIER);
    await outbox.queue(handOver(17));
    const [{ key }] = await stored();
    network.answer('unreachable', { status: 503, body: { message: 'Service unavailable' } });

    network.reconnect();
    await outbox.flush(COURIER);
    expect(network.sent).toHaveLength(1);
    await outbox.flush(COURIER);
    expect(network.sent).toHaveLength(2);
    expect(outbox.items()).toMatchObject([{ key, state: 'waiting' }]);

    await outbox.flush(COURIER);
    expect(network.sent.map((request) => request.idempotencyKey)).toEqual([key, key, key]);
    expect(outbox.items()).toEqual([]);
  });

  it('when the server refuses an action, then it stays on the phone with the server’s reason, is said, and is not sent again', async () => {
    stop = startOfflineSupport(new QueryClient(), COURIER);
    await outbox.queue(handOver(17));
    await aMomentLater();
    await outbox.queue(handOver(18));
    network.answer({ status: 422, body: { message: 'Invoice #17 was already accepted' } });

    network.reconnect();
    await settles(() => expect(outbox.items()).toHaveLength(1));

    expect(network.sent.map((request) => request.url)).toEqual(['/api/invoices/17/hand-over', '/api/invoices/18/hand-over']);
    expect(outbox.items()).toMatchObject([{ invoiceId: 17, state: 'refused', reason: 'Invoice #17 was already accepted' }]);
    expect(notify.error).toHaveBeenCalledWith('Hand-over of Return #17 to Rey Cruz — refused: Invoice #17 was already accepted');

    network.reconnect();
    await outbox.flush(COURIER);
    await outbox.load(COURIER);
    expect(network.sent).toHaveLength(2);
    expect(outbox.items()).toMatchObject([{ invoiceId: 17, state: 'refused' }]);
  });

  it('when the courier dismisses a refused action, then it leaves the phone', async () => {
    await outbox.queue(handOver(17));
    network.answer({ status: 409, body: { message: 'Invoice #17 is no longer in transit' } });
    network.reconnect();
    await outbox.flush(COURIER);
    const [refused] = outbox.items();
    expect(refused).toMatchObject({ state: 'refused', reason: 'Invoice #17 is no longer in transit' });

    await outbox.dismiss(COURIER, refused.key);

    expect(outbox.items()).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('when the session has ended (401), then the action keeps waiting for the next sign-in', async () => {
    await outbox.queue(handOver(17));
    network.answer({ status: 401, body: { message: 'Unauthenticated.' } });
    network.reconnect();
    await outbox.flush(COURIER);

    expect(network.sent).toHaveLength(1);
    expect(outbox.items()).toMatchObject([{ state: 'waiting' }]);
  });

  it('when two people used the phone, then each sees and sends only their own actions', async () => {
    await outbox.queue(handOver(17, OTHER_COURIER));
    await outbox.queue(handOver(18));

    expect(outbox.items()).toMatchObject([{ userId: COURIER, invoiceId: 18 }]);
    network.reconnect();
    await outbox.flush(COURIER);
    expect(network.sent.map((request) => request.url)).toEqual(['/api/invoices/18/hand-over']);
    await outbox.load(OTHER_COURIER);
    expect(outbox.items()).toMatchObject([{ userId: OTHER_COURIER, invoiceId: 17, state: 'waiting' }]);
  });

  it('when a loss report with its paper waits, then the replay sends the fields and the file as a form', async () => {
    await outbox.queue({
      userId: COURIER,
      kind: 'loss-report',
      path: 'loss-incidents',
      body: { pads: '[{"pad_id":7}]', place: 'Calapan pier' },
      files: [{ field: 'affidavit', name: 'affidavit.pdf', blob: new Blob(['%PDF-1.4'], { type: 'application/pdf' }) }],
      multipart: true,
      label: 'Loss report of pad 17',
      padIds: [7],
    });
    network.reconnect();
    await outbox.flush(COURIER);

    const [request] = network.sent;
    expect(request.body).toBeInstanceOf(FormData);
    const form = request.body as FormData;
    expect(form.get('place')).toBe('Calapan pier');
    expect(form.get('pads')).toBe('[{"pad_id":7}]');
    const paper = form.get('affidavit') as File;
    expect(paper.name).toBe('affidavit.pdf');
    expect(await paper.text()).toBe('%PDF-1.4');
  });
});

describe('send now or queue', () => {
  const send = (invoiceId: number) => () => api.post<{ message: string }>(`invoices/${invoiceId}/hand-over`, {});

  it('when the server is reached, then its answer comes back and nothing is queued', async () => {
    network.reconnect();
    const answer = await sendOrQueue(send(17), handOver(17));

    expect(answer).toEqual({ message: 'Handed over' });
    expect(outbox.items()).toEqual([]);
  });

  it('when the phone is offline, or the send never reaches the server, then the action is queued and the user told', async () => {
    expect(await sendOrQueue(send(17), handOver(17))).toBeNull();
    expect(network.sent).toEqual([]);
    network.reconnect();
    network.answer('unreachable', 'unreachable');
    expect(await sendOrQueue(send(18), handOver(18))).toBeNull();

    await settles(async () => expect(await stored()).toHaveLength(2));
    expect(notify.warning).toHaveBeenCalledTimes(2);
    expect(notify.warning).toHaveBeenCalledWith(MSG.queuedOffline);
  });

  it('when the server refuses it at once, then the refusal is thrown to the form and nothing is queued', async () => {
    network.reconnect();
    network.answer({ status: 422, body: { message: 'The place is required.' } });

    await expect(sendOrQueue(send(17), handOver(17))).rejects.toThrow('The place is required.');
    expect(await stored()).toEqual([]);
  });
});
