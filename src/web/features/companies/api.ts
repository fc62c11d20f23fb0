import type { ExportFormat } from '../../../shared/schemas/common.ts';
import type { CompanyInput, Company } from '../../../shared/schemas/companies.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { api, type Paginated } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export const companyApi = {
  page: ({ perPage, sort, order, ...params }: ListView & { page: number; search: string; company_type_id: string | null }) =>
    api.get<Paginated<Company>>('get-companies-with-search', { ...params, ...viewParams({ perPage, sort, order }) }),
  /** Every row matching the list's search and filter, as a file (docs/design.md §10). */
  file: ({ perPage, sort, order, ...params }: ListView & { search: string; company_type_id: string | null }, format: ExportFormat) =>
    api.file('get-companies-with-search', { ...params, ...viewParams({ perPage, sort, order }), per_page: undefined, format }),
  create: (input: CompanyInput) => api.post<{ message: string; data: Company }>('add-company', input),
  update: (id: number, input: CompanyInput) => api.put<{ message: string; data: Company }>(`update-company/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-company/${id}`),
};

/** Where the list is cached; a save or delete makes stale the companies list and select, and the routes that show their company. */
export const companyCache = {
  list: (args: ListArgs) => queryKeys.companiesPage.of(args),
  changes: [queryKeys.companiesPage.all, queryKeys.companies.all, queryKeys.routesPage.all, queryKeys.routes.all],
};
