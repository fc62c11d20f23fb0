import type { CompanyInput, Company } from '../../../shared/schemas/companies.ts';
import { api, type Paginated } from '../../lib/api.ts';

export const companyApi = {
  page: (params: { page: number; search: string; company_type_id: string | null }) => api.get<Paginated<Company>>('get-companies-with-search', params),
  create: (input: CompanyInput) => api.post<{ message: string; data: Company }>('add-company', input),
  update: (id: number, input: CompanyInput) => api.put<{ message: string; data: Company }>(`update-company/${id}`, input),
  remove: (id: number) => api.delete<{ message: string }>(`delete-company/${id}`),
};
