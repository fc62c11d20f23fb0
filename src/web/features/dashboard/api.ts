import { queryOptions } from '@tanstack/react-query';
import type { Dashboard } from '../../../shared/schemas/dashboard.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const dashboardQueries = {
  overview: () =>
    queryOptions({ queryKey: queryKeys.dashboard.all, queryFn: () => api.get<{ data: Dashboard }>('dashboard').then((r) => r.data) }),
};
