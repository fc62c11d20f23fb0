import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { GeneratedPads, Pad } from '../../../shared/schemas/pads.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export interface PadListParams extends ListView {
  page: number;
  search: string;
  route: string | null;
}

export interface PadChanges {
  number: number;
  pad_status_id: number;
  issuance_status_id: number;
  remarks: string | null;
  series: Pad['series'];
  /** The version the modal was opened with: a pad changed since then is refused with 409, not overwritten. */
  updated_at: string;
}

export const padQueries = {
  list: (params: PadListParams) =>
    queryOptions({
      queryKey: queryKeys.pads.of(params),
      queryFn: () => api.get<Paginated<Pad>>('get-pads', { page: params.page, search: params.search, ...viewParams(params), route: params.route }),
      placeholderData: keepPreviousData,
    }),
  /** One pad, for details opened from a link (`?pad=12`) when the pad is not on the page shown. */
  one: (id: number) => queryOptions({ queryKey: queryKeys.pad.of(id), queryFn: () => api.get<{ data: Pad }>(`get-pad/${id}`).then((r) => r.data) }),
};

/** New pads join the pad list and the pads a request can be issued from. */
export function useGeneratePads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { route_id: number; series_from: number; series_to: number; user_id?: number }) =>
      api.post<{ message: string; data: GeneratedPads }>('add-pad', input),
    onSuccess: () => invalidate(queryClient, [queryKeys.pads.all, queryKeys.availablePads.all, queryKeys.userPads.all]),
  });
}

/** An edited pad shows its new status wherever pads are listed, invoices' pads included. */
export function useUpdatePad() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: PadChanges }) => api.put<{ message: string; data: Pad }>(`update-pad/${id}`, input),
    onSettled: () => invalidate(queryClient, [queryKeys.pads.all, queryKeys.availablePads.all, queryKeys.userPads.all, queryKeys.invoicePads.all]),
  });
}
