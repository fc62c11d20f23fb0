import { queryOptions, type QueryKey } from '@tanstack/react-query';
import type { Branch } from '../../shared/schemas/branches.ts';
import type { NamedRef } from '../../shared/schemas/common.ts';
import type { Company } from '../../shared/schemas/companies.ts';
import type { Location } from '../../shared/schemas/locations.ts';
import type { Role } from '../../shared/schemas/roles.ts';
import type { Route } from '../../shared/schemas/routes.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

const lookup = <T>(queryKey: QueryKey, path: string) =>
  queryOptions({ queryKey, queryFn: () => api.get<{ data: T[] }>(path).then((r) => r.data), staleTime: 60_000 });

/** The unpaginated lists behind the selects and filters of every screen. */
export const lookupQueries = {
  roles: () => lookup<Role>(queryKeys.roles.all, 'get-roles'),
  branches: () => lookup<Branch>(queryKeys.branches.all, 'get-branches'),
  userStatuses: () => lookup<NamedRef>(queryKeys.userStatuses.all, 'get-user-statuses'),
  companies: () => lookup<Company>(queryKeys.companies.all, 'get-companies'),
  companyTypes: () => lookup<NamedRef>(queryKeys.companyTypes.all, 'get-company-types'),
  locations: () => lookup<Location>(queryKeys.locations.all, 'get-locations'),
  routes: () => lookup<Route>(queryKeys.routes.all, 'get-routes'),
  invoiceTypes: () => lookup<NamedRef>(queryKeys.invoiceTypes.all, 'invoice-types'),
  invoiceStatuses: () => lookup<NamedRef>(queryKeys.invoiceStatuses.all, 'invoice-statuses'),
  padStatuses: () => lookup<NamedRef>(queryKeys.padStatuses.all, 'pad-statuses'),
  issuanceStatuses: () => lookup<NamedRef>(queryKeys.issuanceStatuses.all, 'issuance-statuses'),
};
