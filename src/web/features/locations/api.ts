import type { Location, LocationInput } from '../../../shared/schemas/locations.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { directoryApi } from '../../components/directory-api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const locationApi = directoryApi<Location, LocationInput>('location', 'locations');

/** Where the list is cached; a save or delete makes stale the locations list and select, and the branches that show their location. */
export const locationCache = {
  list: (args: ListArgs) => queryKeys.locationsPage.of(args),
  changes: [queryKeys.locationsPage.all, queryKeys.locations.all, queryKeys.branchesPage.all],
};
