import type { RegisteredSeries, RegisteredSeriesInput, UnusedForms } from '../../../shared/schemas/registered-series.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { api, type Paginated } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

type SeriesValues = Record<keyof RegisteredSeriesInput, unknown>;

export const seriesApi = {
  page: ({ page, search, perPage }: ListArgs) =>
    api.get<Paginated<RegisteredSeries>>('registered-series', { page, search, per_page: perPage }),
  create: (input: SeriesValues) => api.post<{ message: string; data: RegisteredSeries }>('registered-series', input),
  update: (id: number, input: SeriesValues) => api.put<{ message: string; data: RegisteredSeries }>(`registered-series/${id}`, input),
  unused: (date: string, branchId: string | null) =>
    api.get<{ data: UnusedForms }>('unused-forms', { date, branch_id: branchId }).then((r) => r.data),
  unusedFile: (date: string, branchId: string | null, format: 'pdf' | 'csv') =>
    api.file('unused-forms', { date, branch_id: branchId, format }),
};

/** A save makes the registry list stale, and the inventory that groups by series. */
export const seriesCache = {
  list: (args: ListArgs) => queryKeys.registeredSeries.of(args),
  changes: [queryKeys.registeredSeries.all, queryKeys.unusedForms.all, queryKeys.pad.all, queryKeys.findReceipt.all],
};

export const unusedFormsQuery = (date: string, branchId: string | null) => ({
  queryKey: queryKeys.unusedForms.of(date, branchId),
  queryFn: () => seriesApi.unused(date, branchId),
});
