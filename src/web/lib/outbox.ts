import { useSyncExternalStore } from 'react';
import { api, ApiError } from './api.ts';
import { MSG } from '../../shared/messages.ts';
import { notify } from '../components/notify.ts';
import { offlineDb, type QueuedAction } from './offline-store.ts';

/**
 * docs/design.md §2 offline queue: an action made without network waits in IndexedDB as "waiting to send" and is sent
 * when the network returns, with its key as Idempotency-Key so a send whose answer was lost never applies twice. The
 * server decides: a refusal (4xx) stays on the phone with the server's reason until the user dismisses it.
 */
let items: QueuedAction[] = [];
const listeners = new Set<() => void>();
const sentListeners = new Set<(action: QueuedAction) => void>();
const refusedListeners = new Set<(action: QueuedAction) => void>();
let sending: Promise<void> | null = null;

/** The user's queued actions in the order made (the store keeps them by key, a random id). */
async function stored(userId: number): Promise<QueuedAction[]> {
  const actions = await (await offlineDb()).getAllFromIndex('outbox', 'byUser', userId);
  return actions.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt));
}

async function reload(userId: number): Promise<void> {
  items = await stored(userId).catch(() => []);
  for (const listener of listeners) listener();
}

/** The body as sent: JSON, or the fields and papers of a multipart action. */
function payload(action: QueuedAction): unknown {
  if (!action.multipart) return action.body;
  const form = new FormData();
  // -- a multipart action's body holds the form's text fields, all strings.
  for (const [name, value] of Object.entries(action.body as Record<string, string>)) form.set(name, value);
  for (const file of action.files ?? []) form.append(file.field, file.blob, file.name);
  return form;
}

async function sendAll(userId: number): Promise<void> {
  const db = await offlineDb();
  for (const action of await stored(userId)) {
    if (action.state !== 'waiting') continue;
    try {
      await api.postOnce(action.path, payload(action), action.key);
      await db.delete('outbox', action.key);
      for (const listener of sentListeners) listener(action);
    } catch (error) {
      if (!(error instanceof ApiError) || !error.hasResponse || error.status === 401 || error.status >= 500) break;
      const refused = { ...action, state: 'refused' as const, reason: error.message };
      await db.put('outbox', refused);
      for (const listener of refusedListeners) listener(refused);
    }
  }
}

export const outbox = {
  /** Keeps the action on the phone, waiting to send, and tries to send it at once. */
  async queue(action: Omit<QueuedAction, 'key' | 'queuedAt' | 'state'>): Promise<void> {
    const db = await offlineDb();
    await db.put('outbox', { ...action, key: crypto.randomUUID(), queuedAt: new Date().toISOString(), state: 'waiting' });
    await reload(action.userId);
    void outbox.flush(action.userId);
  },
  /** Sends what waits, one at a time in the order made; a second call while sending waits for the first. */
  async flush(userId: number): Promise<void> {
    if (!navigator.onLine) return reload(userId);
    sending ??= sendAll(userId)
      .catch(() => undefined)
      .finally(() => {
        sending = null;
      });
    await sending;
    await reload(userId);
  },
  async dismiss(userId: number, key: string): Promise<void> {
    await (await offlineDb()).delete('outbox', key);
    await reload(userId);
  },
  load: reload,
  /** Called with each action the server accepted, so the screens refetch. */
  onSent(listener: (action: QueuedAction) => void): () => void {
    sentListeners.add(listener);
    return () => sentListeners.delete(listener);
  },
  /** Called with each action the server refused, so the phone says why wherever the user is. */
  onRefused(listener: (action: QueuedAction) => void): () => void {
    refusedListeners.add(listener);
    return () => refusedListeners.delete(listener);
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  items: () => items,
};

/**
 * Sends an action now, or, with no network (or a send that never reached the server), keeps it waiting on the phone and
 * says so. Returns the server's answer, or null when the action was queued.
 */
export async function sendOrQueue<T>(send: () => Promise<T>, action: Omit<QueuedAction, 'key' | 'queuedAt' | 'state'>): Promise<T | null> {
  if (navigator.onLine) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof ApiError) || error.hasResponse) throw error;
    }
  }
  await outbox.queue(action);
  notify.warning(MSG.queuedOffline);
  return null;
}

/** The user's queued actions, waiting or refused, for the lists that show them. */
export function useOutbox(): QueuedAction[] {
  return useSyncExternalStore(outbox.subscribe, outbox.items);
}
