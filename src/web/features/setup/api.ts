import { queryOptions } from '@tanstack/react-query';
import type { SetupStatus } from '../../../shared/schemas/setup.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const setupQueries = {
  /** Read again on every visit home, so a step done on its screen is ticked on return. */
  status: () =>
    queryOptions({
      queryKey: queryKeys.setupStatus.all,
      queryFn: () => api.get<{ data: SetupStatus }>('setup-status').then((r) => r.data),
      staleTime: 0,
      refetchOnMount: 'always',
    }),
};
