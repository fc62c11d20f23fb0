import { queryOptions } from '@tanstack/react-query';
import type { Dashboard } from '../../../shared/schemas/dashboard.ts';
import type { LatestLedgerCheck } from '../../../shared/schemas/ledger.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const dashboardQueries = {
  overview: () =>
    queryOptions({ queryKey: queryKeys.dashboard.all, queryFn: () => api.get<{ data: Dashboard }>('dashboard').then((r) => r.data) }),
  /** The newest ledger check (docs/design.md §8 verifier), for Admin, Accounting and Auditor. */
  latestLedgerCheck: () =>
    queryOptions({
      queryKey: queryKeys.latestLedgerCheck.all,
      queryFn: () => api.get<{ data: LatestLedgerCheck }>('ledger-checks/latest').then((r) => r.data),
    }),
};
