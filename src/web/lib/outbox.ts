import { useSyncExternalStore } from 'react';
import { api, ApiError } from './api.ts';
import { offlineDb, type QueuedAction } from './offline-store.ts';

/**
 * docs/design.md §2 offline queue: an action made without network waits in IndexedDB as "waiting to send" and is sent
 * when the network returns, with its key as Idempotency-Key so a send whose answer was lost never applies twice. The
 * server decides: a refusal (4xx) stays on the phone with the server's reason until the user dismisses it.
 */
let items: QueuedAction[] = [];
const listeners = new Set<() => void>();
const sentListeners = new Set<(action: QueuedAction) => void>();
let sending: Promise<void> | null = null;

async function reload(userId: number): Promise<void> {
  try {
    items = await (await offlineDb()).getAllFromIndex('outbox', 'byUser', userId);
  } catch {
    items = [];
  }
  items.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt));
  for (const listener of listeners) listener();
}

async function sendAll(userId: number): Promise<void> {
  const db = await offlineDb();
  for (const action of await db.getAllFromIndex('outbox', 'byUser', userId)) {
    if (action.state !== 'waiting') continue;
    try {
      await api.postOnce(action.path, action.body, action.key);
      await db.delete('outbox', action.key);
      for (const listener of sentListeners) listener(action);
    } catch (error) {
      if (!(error instanceof ApiError) || !error.hasResponse || error.status === 401 || error.status >= 500) break;
      await db.put('outbox', { ...action, state: 'refused', reason: error.message });
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
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  items: () => items,
};

/** The user's queued actions, waiting or refused, for the lists that show them. */
export function useOutbox(): QueuedAction[] {
  return useSyncExternalStore(outbox.subscribe, outbox.items);
}
