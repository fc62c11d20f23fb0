import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type {
  InvoiceAssignedUserCheck,
  InvoiceDetail,
  InvoicePadLink,
  InvoicePage,
  InvoiceRow,
  IssueInvoiceInput,
  RequestInvoiceInput,
} from '../../../shared/schemas/invoices.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import type { Route } from '../../../shared/schemas/routes.ts';
import { api, type Paginated } from '../../lib/api.ts';

export type InvoiceFilters = {
  invoiceType: string | null;
  invoiceStatus: string | null;
  startDate: string | null;
  endDate: string | null;
};

export interface PageParams {
  page: number;
  search: string;
}

const lookup = (path: string) =>
  queryOptions({ queryKey: ['lookup', path], queryFn: () => api.get<{ data: NamedRef[] }>(path).then((r) => r.data), staleTime: 300_000 });

export const invoiceQueries = {
  all: ['invoices'] as const,
  list: (params: PageParams & { filters: InvoiceFilters }) =>
    queryOptions({
      queryKey: ['invoices', 'list', params],
      queryFn: () =>
        api.get<InvoicePage>('get-invoices', {
          page: params.page,
          search: params.search,
          invoice_type: params.filters.invoiceType,
          invoice_status: params.filters.invoiceStatus,
          start_date: params.filters.startDate,
          end_date: params.filters.endDate,
        }),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) =>
    queryOptions({ queryKey: ['invoices', 'detail', id], queryFn: () => api.get<{ data: InvoiceDetail }>(`get-invoice/${id}`).then((r) => r.data) }),
  pads: (id: number, params: PageParams) =>
    queryOptions({
      queryKey: ['invoices', 'pads', id, params],
      queryFn: () => api.get<Paginated<InvoicePadLink>>(`invoice-pads/${id}`, { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
  availablePads: (routeId: number, params: PageParams) =>
    queryOptions({
      queryKey: ['invoices', 'available-pads', routeId, params],
      queryFn: () => api.get<Paginated<Pad>>('available-pads', { route_id: routeId, page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
  types: () => lookup('invoice-types'),
  statuses: () => lookup('invoice-statuses'),
  headOffice: () =>
    queryOptions({ queryKey: ['head-office-branch'], queryFn: () => api.get<{ data: NamedRef }>('head-office-branch').then((r) => r.data), staleTime: 300_000 }),
  routes: () => queryOptions({ queryKey: ['routes', 'all'], queryFn: () => api.get<{ data: Route[] }>('get-routes').then((r) => r.data), staleTime: 60_000 }),
};

export const invoiceApi = {
  createRequest: (input: RequestInvoiceInput) => api.post<{ message: string; data: InvoiceRow }>('create-request-invoice', input),
  issue: (input: IssueInvoiceInput) => api.post<{ message: string; data: InvoiceRow }>('issue-invoice', input),
  accept: (id: number) => api.post<{ message: string; data: InvoiceRow }>(`accept-invoice/${id}`),
  remove: (id: number) => api.delete<{ message: string }>(`delete-invoice/${id}`),
  /** Spec §7 get-invoice-assigned-user-id: does the scanned badge belong to the invoice's courier? */
  checkCourier: (invoiceId: number, code: string) =>
    api.get<InvoiceAssignedUserCheck>('get-invoice-assigned-user-id', { invoice_id: invoiceId, decoded_user_id: code }),
};
