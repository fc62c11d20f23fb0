import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { DehydratedState } from '@tanstack/react-query';

/** An action made on this phone, kept until the server has answered it (docs/design.md §2 offline). */
export interface QueuedAction {
  /** Also the Idempotency-Key: a retry of the same action is answered as the first time. */
  key: string;
  userId: number;
  kind: 'hand-over' | 'usage' | 'loss-report';
  path: string;
  /** The JSON body, or for a multipart action its text fields. */
  body: unknown;
  /** A multipart action (a loss report with its papers): the files, kept on the phone with the fields. */
  files?: Array<{ field: string; name: string; blob: Blob }>;
  multipart?: boolean;
  /** What the lists say about it, e.g. "Hand-over of Return #17 to Rey Cruz". */
  label: string;
  invoiceId?: number;
  /** The pads it changes, so Pad Details lists what waits for its pad. */
  padIds?: number[];
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
