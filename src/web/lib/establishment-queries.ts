import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Establishment } from '../../shared/schemas/establishments.ts';
import { api } from './api.ts';
import { invalidate, queryKeys } from './query-keys.ts';

export type EstablishmentValues = {
  bir_branch_code: string;
  covered: boolean;
  e_invoicing_since: string;
  permit_reference: string;
  invoicing_system: string;
};

export const establishmentQueries = {
  of: (branchId: number) =>
    queryOptions({
      queryKey: queryKeys.establishment.of(branchId),
      queryFn: () => api.get<{ data: Establishment }>(`branches/${branchId}/e-invoicing`).then((r) => r.data),
    }),
};

/** A go-live date decides which later usage is refused, linked or an exception, so the summary list and outages read it again. */
export function useSaveEstablishment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ branchId, values }: { branchId: number; values: EstablishmentValues }) =>
      api.put<{ message: string; data: Establishment }>(`branches/${branchId}/e-invoicing`, values),
    onSuccess: (answer, { branchId }) => {
      queryClient.setQueryData(queryKeys.establishment.of(branchId), answer.data);
      void invalidate(queryClient, [queryKeys.paperUseSummary.all, queryKeys.outages.all]);
    },
  });
}
