import type { ExportFormat } from '../../../shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CertifyRaafInput, Raaf, RaafCertificate, RaafRollup, RaafSummary } from '../../../shared/schemas/ledger.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import type { AssignableUser } from '../../../shared/schemas/users.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, queryKeys } from '../../lib/query-keys.ts';

export type HolderParam = { user_id: number } | { branch_id: number };

export interface CertificateListParams {
  page: number;
  search: string;
}

/** Every certificate matching the list's search, as a file (docs/design.md §10). */
export const certificatesFile = (params: Omit<CertificateListParams, 'page'>, format: ExportFormat) =>
  api.file('raaf-certificates', { search: params.search, format });

export const accountabilityQueries = {
  raaf: (month: string, holder: HolderParam) =>
    queryOptions({
      queryKey: queryKeys.raaf.of(month, holder),
      queryFn: async () => (await api.get<{ data: Raaf }>('raaf', { month, ...holder })).data,
      placeholderData: keepPreviousData,
      retry: false,
    }),
  /** A branch's stock and its staff in one report (docs/design.md §10). */
  rollup: (month: string, branchId: number) =>
    queryOptions({
      queryKey: queryKeys.raaf.of(month, { branch_id: branchId, rollup: true }),
      queryFn: async () => (await api.get<{ data: RaafRollup }>('raaf', { month, branch_id: branchId, rollup: 'true' })).data,
      enabled: branchId > 0,
      placeholderData: keepPreviousData,
      retry: false,
    }),
  /** Whether the viewer holds any pad now: Accountability then opens on their own RAAF, else on their branch. */
  holdsPads: (enabled: boolean) =>
    queryOptions({
      queryKey: queryKeys.pads.of({ holder: 'mine', per_page: 1 }),
      queryFn: async () => (await api.get<Paginated<Pad>>('get-pads', { holder: 'mine', per_page: 1 })).total > 0,
      enabled,
      staleTime: 60_000,
    }),
  summary: (month: string, enabled: boolean) =>
    queryOptions({
      queryKey: queryKeys.raafSummary.of(month),
      queryFn: async () => (await api.get<{ data: RaafSummary }>('raaf-summary', { month })).data,
      enabled,
      retry: false,
    }),
  certificates: (params: CertificateListParams) =>
    queryOptions({
      queryKey: queryKeys.raafCertificates.of(params),
      queryFn: () => api.get<Paginated<RaafCertificate>>('raaf-certificates', { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
      /** The PDF addresses are signed for ten minutes; the list fetches fresh ones before they lapse. */
      refetchInterval: 5 * 60_000,
    }),
  /** Everyone who may hold pads, for the holder picker: the active users of the given roles. */
  people: (roleIds: number[]) => {
    const roles = roleIds.join(',');
    return queryOptions({
      queryKey: queryKeys.couriers.of(roles),
      queryFn: async () => (await api.get<{ data: AssignableUser[] }>('get-users-by-roles', { roles })).data,
      enabled: roleIds.length > 0,
      staleTime: 60_000,
    });
  },
};

const raafKeys = [queryKeys.raaf.all, queryKeys.raafSummary.all, queryKeys.raafCertificates.all];

/** The holder signs an ended month; the report, the consolidated view and the certificates list change. */
export function useCertify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CertifyRaafInput) => api.post<{ message: string; data: RaafCertificate }>('raaf/certify', input),
    onSuccess: () => invalidate(queryClient, raafKeys),
  });
}

/** Accounting marks a certificate reviewed. */
export function useReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ message: string; data: RaafCertificate }>(`raaf/${id}/review`, {}),
    onSuccess: () => invalidate(queryClient, raafKeys),
  });
}

/** A PDF or CSV of the report, through the one API client. */
export const fetchReportFile = (path: 'raaf' | 'raaf-summary', params: Record<string, string | number>): Promise<Blob> =>
  api.file(path, params);
