import { queryOptions } from '@tanstack/react-query';
import type { MyActions } from '../../../shared/schemas/my-actions.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** "Needs my action": polled every minute; invoice and custody changes invalidate it at once (query-keys.ts invoiceListKeys). */
export const MY_ACTIONS_POLL_MS = 60_000;

export const myActionQueries = {
  mine: () =>
    queryOptions({
      queryKey: queryKeys.myActions.all,
      queryFn: () => api.get<{ data: MyActions }>('my-actions').then((r) => r.data),
      refetchInterval: MY_ACTIONS_POLL_MS,
      staleTime: 30_000,
    }),
};
