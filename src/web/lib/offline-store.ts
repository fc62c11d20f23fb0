import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { DehydratedState } from '@tanstack/react-query';

/** An action made on this phone, kept until the server has answered it (docs/design.md §2 offline). */
export interface QueuedAction {
  /** Also the Idempotency-Key: a retry of the same action is answered as the first time. */
  key: string;
  userId: number;
  kind: 'hand-over';
  path: string;
  body: unknown;
  /** What the lists say about it, e.g. "Hand-over of Return #17 to Rey Cruz". */
  label: string;
  invoiceId: number;
  queuedAt: string;
  state: 'waiting' | 'refused';
  reason?: string;
}

interface OfflineDb extends DBSchema {
  queries: { key: number; value: { savedAt: number; state: DehydratedState } };
  outbox: { key: string; value: QueuedAction; indexes: { byUser: number } };
}

let opened: Promise<IDBPDatabase<OfflineDb>> | null = null;

/** The phone's own store: the last answers of the courier's screens, per user, and the actions waiting to send. */
export function offlineDb(): Promise<IDBPDatabase<OfflineDb>> {
  opened ??= openDB<OfflineDb>('padtrack', 1, {
    upgrade(db) {
      db.createObjectStore('queries');
      db.createObjectStore('outbox', { keyPath: 'key' }).createIndex('byUser', 'userId');
    },
  });
  return opened;
}
