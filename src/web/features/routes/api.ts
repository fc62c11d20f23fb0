import type { Route, RouteInput } from '../../../shared/schemas/routes.ts';
import type { ListArgs } from '../../components/crud-page.tsx';
import { directoryApi } from '../../components/directory-api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const routeApi = directoryApi<Route, RouteInput>('route', 'routes');

/** Where the list is cached; a save or delete makes stale the routes list and the route selects. */
export const routeCache = {
  list: (args: ListArgs) => queryKeys.routesPage.of(args),
  changes: [queryKeys.routesPage.all, queryKeys.routes.all],
};
