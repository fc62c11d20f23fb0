import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CertifyRaafInput, Raaf, RaafCertificate, RaafSummary } from '../../../shared/schemas/ledger.ts';
import { api, ApiError, type Paginated } from '../../lib/api.ts';
import { sessionStore } from '../../lib/session.ts';

export type HolderParam = { user_id: number } | { branch_id: number };

export const accountabilityQueries = {
  raaf: (month: string, holder: HolderParam) =>
    queryOptions({ queryKey: ['raaf', month, holder], queryFn: async () => (await api.get<{ data: Raaf }>('raaf', { month, ...holder })).data, retry: false }),
  summary: (month: string, enabled: boolean) =>
    queryOptions({ queryKey: ['raaf-summary', month], queryFn: async () => (await api.get<{ data: RaafSummary }>('raaf-summary', { month })).data, enabled, retry: false }),
  certificates: (page: number) =>
    queryOptions({ queryKey: ['raaf-certificates', page], queryFn: () => api.get<Paginated<RaafCertificate>>('raaf-certificates', { page }) }),
};

const refresh = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all(['raaf', 'raaf-summary', 'raaf-certificates'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })));

export function useCertify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CertifyRaafInput) => api.post<{ message: string; data: RaafCertificate }>('raaf/certify', input),
    onSuccess: () => refresh(queryClient),
  });
}

export function useReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ message: string; data: RaafCertificate }>(`raaf/${id}/review`, {}),
    onSuccess: () => refresh(queryClient),
  });
}

/** A PDF or CSV of the report, fetched with the session's bearer token and handed to the browser as a file. */
export async function fetchReportFile(path: 'raaf' | 'raaf-summary', params: Record<string, string | number>): Promise<Blob> {
  const search = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
  const token = sessionStore.get()?.token;
  const response = await fetch(`/api/${path}?${search.toString()}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(response.status, body.message ?? 'The file could not be made.');
  }
  return response.blob();
}
