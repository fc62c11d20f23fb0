import type { CompanyInput, Company } from '../../../shared/schemas/companies.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { directoryApi } from '../../components/directory-api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const companyApi = directoryApi<Company, CompanyInput>('company', 'companies', 'company_type_id');

/** Where the list is cached; a save or delete makes stale the companies list and select, and the routes that show their company. */
export const companyCache = {
  list: (args: ListArgs) => queryKeys.companiesPage.of(args),
  changes: [queryKeys.companiesPage.all, queryKeys.companies.all, queryKeys.routesPage.all, queryKeys.routes.all],
};
