import { queryOptions } from '@tanstack/react-query';
import type { Branch } from '../../shared/schemas/branches.ts';
import type { NamedRef } from '../../shared/schemas/common.ts';
import type { Company } from '../../shared/schemas/companies.ts';
import type { Location } from '../../shared/schemas/locations.ts';
import type { Role } from '../../shared/schemas/roles.ts';
import { api } from './api.ts';

const lookup = <T>(path: string) =>
  queryOptions({ queryKey: ['lookups', path], queryFn: () => api.get<{ data: T[] }>(path).then((r) => r.data), staleTime: 60_000 });

/** The unpaginated lists behind the administration forms' selects. */
export const lookupQueries = {
  roles: () => lookup<Role>('get-roles'),
  branches: () => lookup<Branch>('get-branches'),
  userStatuses: () => lookup<NamedRef>('get-user-statuses'),
  companies: () => lookup<Company>('get-companies'),
  companyTypes: () => lookup<NamedRef>('get-company-types'),
  locations: () => lookup<Location>('get-locations'),
};
