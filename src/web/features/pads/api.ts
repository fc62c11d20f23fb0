import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Outcome, OutcomeRequest } from '../../../shared/schemas/outcomes.ts';
import type { ExportFormat } from '../../../shared/schemas/common.ts';
import type { GeneratedPads, Pad } from '../../../shared/schemas/pads.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, padNumberKeys, queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';
import { holderParams } from './holder-filter.tsx';

export interface PadListParams extends ListView {
  page: number;
  search: string;
  route: string | null;
  /** Held by: all, mine, branch, or one branch (`b:3`) or person (`u:17`) for the head office (docs/design.md §10). */
  holder: string | null;
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
      queryFn: () =>
        api.get<Paginated<Pad>>('get-pads', {
          page: params.page,
          search: params.search,
          ...viewParams(params),
          route: params.route,
          ...holderParams(params.holder),
        }),
      placeholderData: keepPreviousData,
    }),
  /** Every pad matching the list's search and filters, as a file (docs/design.md §10). */
  file: (params: Omit<PadListParams, 'page'>, format: ExportFormat) =>
    api.file('get-pads', {
      search: params.search,
      ...viewParams(params),
      per_page: undefined,
      route: params.route,
      ...holderParams(params.holder),
      format,
    }),
  /** One pad, for details opened from a link (`?pad=12`) when the pad is not on the page shown. */
  one: (id: number) =>
    queryOptions({ queryKey: queryKeys.pad.of(id), queryFn: () => api.get<{ data: Pad }>(`get-pad/${id}`).then((r) => r.data) }),
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
    onSettled: () =>
      invalidate(queryClient, [queryKeys.pads.all, queryKeys.availablePads.all, queryKeys.userPads.all, queryKeys.invoicePads.all]),
  });
}

/** A change to a pad's numbers answers with the pad as it is now and, for usage, the "one booklet at a time" warning. */
export interface PadChanged {
  message: string;
  data: Pad;
  warning?: string | null;
}

/** POST pads/{id}/outcome: applied at once (the pad) or waiting for an approver (the request's id). */
export type OutcomeAnswer = PadChanged | { message: string; data: { request_id: number } };

export const isPending = (answer: OutcomeAnswer): answer is { message: string; data: { request_id: number } } =>
  'request_id' in answer.data;

export interface OutcomeBody {
  from: number;
  to: number;
  outcome: Outcome;
  reason: string;
  details?: string;
  copies_retained?: boolean;
}

/** The pending outcome requests the caller may approve (GET outcome-requests), for one pad's details. */
export const outcomeRequestQueries = {
  pending: () =>
    queryOptions({
      queryKey: queryKeys.outcomeRequests.of({ per_page: 100 }),
      queryFn: () => api.get<Paginated<OutcomeRequest>>('outcome-requests', { per_page: 100 }).then((r) => r.data),
    }),
};

/** Every change to a pad's numbers refreshes the pad wherever it shows, its history, the requests and the counts. */
function usePadNumberMutation<Input, Answer>(call: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => invalidate(queryClient, padNumberKeys) });
}

/** docs/design.md §9 usage by range: from..to marked used in one request; a reason when it skips numbers. */
export const useRecordUsage = () =>
  usePadNumberMutation(({ padId, ...body }: { padId: number; from: number; to: number; reason?: string }) =>
    api.post<PadChanged>(`pads/${padId}/usage`, body),
  );

export const useRecordOutcome = () =>
  usePadNumberMutation(({ padId, ...body }: OutcomeBody & { padId: number }) => api.post<OutcomeAnswer>(`pads/${padId}/outcome`, body));

export const useRevertOutcome = () =>
  usePadNumberMutation((body: { pad_id: number; from: number; to: number; reason: string }) =>
    api.post<PadChanged>('outcome-reverts', body),
  );

export const useApproveOutcome = () =>
  usePadNumberMutation((id: number) => api.post<{ message: string }>(`outcome-requests/${id}/approve`));

export const useRejectOutcome = () =>
  usePadNumberMutation(({ id, reason }: { id: number; reason: string }) =>
    api.post<{ message: string }>(`outcome-requests/${id}/reject`, { reason }),
  );
