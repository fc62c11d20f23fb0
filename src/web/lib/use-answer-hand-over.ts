import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api.ts';
import { invalidate, invoiceChangeKeys, queryKeys } from './query-keys.ts';

/**
 * The receiver's answer to a waiting hand-over, from Custodies or Needs my action; either way the lists and the waiting
 * hand-overs refetch.
 */
export function useAnswerHandOver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, accept }: { id: number; accept: boolean }) =>
      api.post<{ message: string }>(`${accept ? 'accept' : 'decline'}-hand-over/${id}`),
    onSettled: () => invalidate(queryClient, [...invoiceChangeKeys, queryKeys.pendingHandOvers.all]),
  });
}
