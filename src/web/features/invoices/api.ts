import type { ExportFormat } from '../../../shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type {
  InvoiceAssignedUserCheck,
  InvoicePage,
  InvoiceRow,
  IssueInvoiceInput,
  RequestInvoiceInput,
} from '../../../shared/schemas/invoices.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, invoiceChangeKeys, queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export type InvoiceFilters = {
  invoiceType: string | null;
  invoiceStatus: string | null;
  startDate: string | null;
  endDate: string | null;
};

export interface PageParams extends ListView {
  page: number;
  search: string;
}

const listFilterParams = (params: Omit<PageParams, 'page'> & { filters: InvoiceFilters }) => ({
  search: params.search,
  ...viewParams(params),
  invoice_type: params.filters.invoiceType,
  invoice_status: params.filters.invoiceStatus,
  start_date: params.filters.startDate,
  end_date: params.filters.endDate,
});

/** Every invoice matching the Transactions search and filters, as a file (docs/design.md §10). */
export const invoiceListFile = (params: Omit<PageParams, 'page'> & { filters: InvoiceFilters }, format: ExportFormat) =>
  api.file('get-invoices', { ...listFilterParams(params), per_page: undefined, format });

export const invoiceListQueries = {
  list: (params: PageParams & { filters: InvoiceFilters }) =>
    queryOptions({
      queryKey: queryKeys.invoices.of(params),
      queryFn: () => api.get<InvoicePage>('get-invoices', { page: params.page, ...listFilterParams(params) }),
      placeholderData: keepPreviousData,
    }),
  availablePads: (routeId: number, params: PageParams) =>
    queryOptions({
      queryKey: queryKeys.availablePads.of(routeId, params),
      queryFn: () => api.get<Paginated<Pad>>('available-pads', { route_id: routeId, page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
  headOffice: () =>
    queryOptions({
      queryKey: queryKeys.headOffice.all,
      queryFn: () => api.get<{ data: NamedRef }>('head-office-branch').then((r) => r.data),
      staleTime: 300_000,
    }),
};

/** docs/spec.md §7 get-invoice-assigned-user-id: does the scanned badge belong to the invoice's courier? */
export const checkCourier = (invoiceId: number, code: string) =>
  api.get<InvoiceAssignedUserCheck>('get-invoice-assigned-user-id', { invoice_id: invoiceId, decoded_user_id: code });

type Saved = { message: string; data: InvoiceRow };

/** A call that changes invoices; on success every screen's invoice lists, details and pads refetch. */
function useInvoiceMutation<Input>(call: (input: Input) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => invalidate(queryClient, invoiceChangeKeys) });
}

export const useRequestInvoice = () => useInvoiceMutation((input: RequestInvoiceInput) => api.post<Saved>('create-request-invoice', input));
export const useIssueInvoice = () => useInvoiceMutation((input: IssueInvoiceInput) => api.post<Saved>('issue-invoice', input));
export const useAcceptInvoice = () => useInvoiceMutation((id: number) => api.post<Saved>(`accept-invoice/${id}`));
export const useDeleteInvoice = () => useInvoiceMutation((id: number) => api.delete<{ message: string }>(`delete-invoice/${id}`));
