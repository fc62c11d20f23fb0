import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { InvoiceDetail, InvoicePad } from '../../../shared/schemas/invoices.ts';
import type { CompletedInvoiceRow, CreateReportInput, ReportPreview, ReportRow } from '../../../shared/schemas/reports.ts';
import { api, type Paginated } from '../../lib/api.ts';

export interface ReportListParams {
  page: number;
  search: string;
  startDate: string | null;
  endDate: string | null;
}

export const reportQueries = {
  all: ['reports'] as const,
  list: (params: ReportListParams) =>
    queryOptions({
      queryKey: ['reports', 'list', params],
      queryFn: () =>
        api.get<Paginated<ReportRow>>('reports', { page: params.page, search: params.search, start_date: params.startDate, end_date: params.endDate }),
      placeholderData: keepPreviousData,
    }),
  completed: (params: { page: number; search: string }) =>
    queryOptions({
      queryKey: ['reports', 'completed-invoices', params],
      queryFn: () => api.get<Paginated<CompletedInvoiceRow>>('completed-invoices', { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
  invoice: (id: number) =>
    queryOptions({ queryKey: ['reports', 'invoice', id], queryFn: () => api.get<{ data: InvoiceDetail }>(`get-invoice/${id}`).then((r) => r.data) }),
  invoicePads: (id: number, page: number) =>
    queryOptions({
      queryKey: ['reports', 'invoice-pads', id, page],
      queryFn: () => api.get<Paginated<InvoicePad>>(`pads-belong-to-invoice/${id}`, { page }),
      placeholderData: keepPreviousData,
    }),
};

export const reportApi = {
  preview: (invoiceIds: number[]) => api.post<ReportPreview>('reports/view', { invoice_ids: invoiceIds }),
  create: (input: CreateReportInput) => api.post<{ message: string; data: ReportRow }>('reports', input),
};

/** True while a signed PDF address still has a minute to live; an older one is fetched again before use. */
export function addressIsFresh(address: string, now = Date.now()): boolean {
  const expires = Number(new URL(address, window.location.origin).searchParams.get('expires'));
  return Number.isFinite(expires) && expires * 1000 - now > 60_000;
}
