import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MSG } from '../../shared/messages.ts';
import { notify } from '../components/notify.ts';
import { keepQueries, restoreQueries } from './offline-cache.ts';
import { outbox } from './outbox.ts';
import { invalidate, invoiceChangeKeys, padNumberKeys, queryKeys } from './query-keys.ts';

/**
 * docs/design.md §2 offline for one signed-in user: puts their saved answers back and keeps them; sends the queued
 * actions now and whenever the network returns, refetching what a sent action changed and saying why one was refused.
 * The returned function stops it all (sign-out).
 */
export function startOfflineSupport(queryClient: QueryClient, userId: number): () => void {
  void restoreQueries(queryClient, userId);
  const stopKeeping = keepQueries(queryClient, userId);
  const flush = () => void outbox.flush(userId);
  const stopSent = outbox.onSent((action) => {
    notify.success(MSG.sentFromQueue(action.label));
    void invalidate(queryClient, [...invoiceChangeKeys, ...padNumberKeys, queryKeys.pendingHandOvers.all]);
  });
  const stopRefused = outbox.onRefused((action) => notify.error(`${action.label} — refused: ${action.reason ?? ''}`));
  window.addEventListener('online', flush);
  flush();
  return () => {
    stopKeeping();
    stopSent();
    stopRefused();
    window.removeEventListener('online', flush);
  };
}

/**
 * The signed-in shell's offline support: registers the service worker (built by vite-plugin-pwa) once signed in, so
 * the sign-in page never downloads the precache, and runs `startOfflineSupport` for the user.
 */
export function useOfflineSupport(userId: number | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (import.meta.env.PROD && 'serviceWorker' in navigator) {
      navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
    }
  }, []);
  useEffect(() => (userId === undefined ? undefined : startOfflineSupport(queryClient, userId)), [queryClient, userId]);
}
