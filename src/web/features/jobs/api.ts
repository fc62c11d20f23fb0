import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { JobItem, JobRunResult } from '../../../shared/schemas/jobs.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const jobQueries = {
  all: () =>
    queryOptions({
      queryKey: queryKeys.jobs.all,
      queryFn: () => api.get<{ data: JobItem[] }>('jobs').then((r) => r.data),
      refetchInterval: 30_000,
    }),
};

/** A run changes the job's last run and next run, and whatever it evaluated (the alerts under the bell). */
export function useRunJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<{ message: string; data: JobRunResult }>(`jobs/${encodeURIComponent(name)}/run`),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.jobs.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
      ]),
  });
}
