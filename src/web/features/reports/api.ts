import type { ExportFormat } from '../../../shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvoicePage } from '../../../shared/schemas/invoices.ts';
import type { CreateReportInput, ReportPreview, ReportRow } from '../../../shared/schemas/reports.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export interface ReportListParams extends ListView {
  page: number;
  search: string;
  startDate: string | null;
  endDate: string | null;
}

/** Every saved report matching the Reports search and dates, as a file (docs/design.md §10). */
export const reportListFile = (params: Omit<ReportListParams, 'page'>, format: ExportFormat) =>
  api.file('reports', {
    search: params.search,
    ...viewParams(params),
    per_page: undefined,
    start_date: params.startDate,
    end_date: params.endDate,
    format,
  });

export const reportQueries = {
  list: (params: ReportListParams) =>
    queryOptions({
      queryKey: queryKeys.reports.of(params),
      queryFn: () =>
        api.get<Paginated<ReportRow>>('reports', {
          page: params.page,
          search: params.search,
          ...viewParams(params),
          start_date: params.startDate,
          end_date: params.endDate,
        }),
      placeholderData: keepPreviousData,
    }),
  completed: (params: { page: number; search: string }) =>
    queryOptions({
      queryKey: queryKeys.completedInvoices.of(params),
      queryFn: () => api.get<InvoicePage>('completed-invoices', { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
};

/** Renders a preview PDF on the server; nothing is stored, so nothing cached goes stale. */
export const usePreviewReport = () =>
  useMutation({ mutationFn: (invoiceIds: number[]) => api.post<ReportPreview>('reports/view', { invoice_ids: invoiceIds }) });

/** Files a report; its invoices leave the Generate list and the report joins the saved list. */
export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReportInput) => api.post<{ message: string; data: ReportRow }>('reports', input),
    onSuccess: () => invalidate(queryClient, [queryKeys.reports.all, queryKeys.completedInvoices.all]),
  });
}

/** True while a signed PDF address still has a minute to live; an older one is fetched again before use. */
export function addressIsFresh(address: string, now = Date.now()): boolean {
  const expires = Number(new URL(address, window.location.origin).searchParams.get('expires'));
  return Number.isFinite(expires) && expires * 1000 - now > 60_000;
}
