import type { ExportFormat } from '../../../shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  HandOverInput,
  HeldPad,
  PendingHandOvers,
  ReturnInvoiceInput,
  TurnoverInvoiceInput,
} from '../../../shared/schemas/custodies.ts';
import type { InvoicePage, InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { api, ApiError, type Paginated } from '../../lib/api.ts';
import { invalidate, invoiceChangeKeys, invoiceDetailKeys, invoiceListKeys, queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export interface PageParams extends ListView {
  page: number;
  search: string;
}

/** Every in-transit invoice matching the Custodies search and filter, as a file (docs/design.md §10). */
export const inTransitFile = (params: Omit<PageParams, 'page'> & { invoiceType: string | null }, format: ExportFormat) =>
  api.file('get-in-transit-invoices', {
    search: params.search,
    ...viewParams(params),
    per_page: undefined,
    invoice_type: params.invoiceType,
    format,
  });

export const custodyQueries = {
  inTransit: (params: PageParams & { invoiceType: string | null }) =>
    queryOptions({
      queryKey: queryKeys.inTransitInvoices.of(params),
      queryFn: () =>
        api.get<InvoicePage>('get-in-transit-invoices', {
          page: params.page,
          search: params.search,
          ...viewParams(params),
          invoice_type: params.invoiceType,
        }),
      placeholderData: keepPreviousData,
    }),
  userPads: (params: PageParams) =>
    queryOptions({
      queryKey: queryKeys.userPads.of(params),
      queryFn: () => api.get<Paginated<HeldPad>>('get-user-pads', { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
  /** docs/design.md §5 two-party hand-over: what waits for the user to accept, and what waits on his receivers. */
  pendingHandOvers: () =>
    queryOptions({
      queryKey: queryKeys.pendingHandOvers.all,
      queryFn: () => api.get<PendingHandOvers>('get-pending-hand-overs'),
      refetchInterval: 30_000,
    }),
};

type Saved = { message: string; data: InvoiceRow };

/**
 * A custody change; on success every screen's invoice lists, details and pads refetch, and so they do
 * after a 409 (someone else moved the pads or the invoice first).
 */
function useCustodyMutation<Input>(call: (input: Input) => Promise<Saved>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => invalidate(queryClient, invoiceChangeKeys),
    onError: (error) => (error instanceof ApiError && error.status === 409 ? invalidate(queryClient, invoiceChangeKeys) : undefined),
  });
}

/**
 * A hand-over: the lists refetch at once; the invoice's details are only marked stale, since the
 * courier who handed it over may no longer see it and its open details close instead.
 */
export function useHandOver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: HandOverInput }) => api.post<Saved>(`hand-over-invoice/${id}`, input),
    onSuccess: () =>
      Promise.all([
        invalidate(queryClient, [...invoiceListKeys, queryKeys.pendingHandOvers.all]),
        invalidate(queryClient, invoiceDetailKeys, false),
      ]),
  });
}

export const useCreateReturn = () => useCustodyMutation((input: ReturnInvoiceInput) => api.post<Saved>('create-return-invoice', input));
export const useCreateTurnover = () =>
  useCustodyMutation((input: TurnoverInvoiceInput) => api.post<Saved>('create-turnover-invoice', input));
