import { dehydrate, hydrate, type QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys.ts';
import { offlineDb } from './offline-store.ts';

/**
 * docs/design.md §2 offline: the endpoints a courier and a cashier need at the pier, whose last answers are kept on
 * the phone: Custodies and its details, held pads and their details, the couriers to hand to, My QR Code.
 */
const KEPT: ReadonlySet<string> = new Set(
  [
    queryKeys.inTransitInvoices,
    queryKeys.invoice,
    queryKeys.invoicePads,
    queryKeys.userPads,
    queryKeys.pads,
    queryKeys.pad,
    queryKeys.padHistory,
    queryKeys.couriers,
    queryKeys.badge,
    queryKeys.profile,
    queryKeys.myActions,
    queryKeys.invoiceTypes,
    queryKeys.padStatuses,
    queryKeys.pendingHandOvers,
  ].map((key) => key.all[0]),
);

const SAVE_DELAY_MS = 1000;

/** Puts the user's saved answers back into the cache; a newer answer already there wins. */
export async function restoreQueries(queryClient: QueryClient, userId: number): Promise<void> {
  try {
    const saved = await (await offlineDb()).get('queries', userId);
    if (saved) hydrate(queryClient, saved.state);
  } catch {
    /* A phone without IndexedDB (private mode) simply has nothing saved. */
  }
}

/** Saves the kept answers a second after each change, until the returned function stops it (sign-out). */
export function keepQueries(queryClient: QueryClient, userId: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) => query.state.status === 'success' && KEPT.has(String(query.queryKey[0])),
    });
    void offlineDb()
      .then((db) => db.put('queries', { savedAt: Date.now(), state }, userId))
      .catch(() => undefined);
  };
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

/** Forgets what the user saw on this phone (sign-out). */
export async function forgetQueries(userId: number): Promise<void> {
  await (await offlineDb()).delete('queries', userId).catch(() => undefined);
}
