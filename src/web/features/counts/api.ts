import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CountItem, CountItemInput, CountRow, CountSession, CountVariance, ResolveInput } from '../../../shared/schemas/counts.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, padNumberKeys, queryKeys } from '../../lib/query-keys.ts';

export const countQueries = {
  list: (params: { page: number; search: string }) =>
    queryOptions({ queryKey: queryKeys.counts.of(params), queryFn: () => api.get<Paginated<CountRow>>('counts', params) }),
  one: (id: number) =>
    queryOptions({ queryKey: queryKeys.count.of(id), queryFn: () => api.get<{ data: CountSession }>(`counts/${id}`).then((r) => r.data) }),
  variances: (id: number) =>
    queryOptions({
      queryKey: queryKeys.countVariances.of(id),
      queryFn: () => api.get<{ data: CountVariance[] }>(`counts/${id}/variances`).then((r) => r.data),
    }),
};

/** What a count change can alter: the count, its variances, the list, the holder's last count; a resolution also the pads and what needs whom. */
const countKeys = [queryKeys.counts.all, queryKeys.count.all, queryKeys.countVariances.all, queryKeys.lastCount.all];

function useCountMutation<I, R>(call: (input: I) => Promise<R>, touchesPads = false) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => invalidate(queryClient, touchesPads ? [...countKeys, ...padNumberKeys] : countKeys),
  });
}

export const useStartCount = () =>
  useCountMutation((input: { user_id?: number; branch_id?: number }) => api.post<{ message: string; data: CountSession }>('counts', input));
export const useRecordItem = (id: number) =>
  useCountMutation((input: Partial<CountItemInput>) => api.post<{ message: string; data: CountItem }>(`counts/${id}/items`, input));
export const useResolve = (id: number) =>
  useCountMutation(
    ({ vid, ...input }: ResolveInput & { vid: number }) => api.post<{ message: string }>(`counts/${id}/variances/${vid}/resolve`, input),
    true,
  );
export const useSignOff = (id: number) =>
  useCountMutation((input: { badge?: string }) => api.post<{ message: string }>(`counts/${id}/sign-off`, input));
/** Issue 36: ends the scan; the expected pads not yet scanned become missing variances. */
export const useEndScan = (id: number) => useCountMutation(() => api.post<{ message: string }>(`counts/${id}/end-scan`));
export const useCloseCount = (id: number) => useCountMutation(() => api.post<{ message: string }>(`counts/${id}/close`));
