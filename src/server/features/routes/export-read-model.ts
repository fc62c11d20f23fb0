import { ROUTE_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { RoutesQuery } from '../../../shared/schemas/routes.ts';
import { listExport } from '../../lib/export.ts';
import { listSource } from './service.ts';

/** The Routes list's export, as its admin screen's route and an export worker (src/server/exports/registry.ts) write it. */
export const routeListExport = listExport({
  kind: 'routes',
  fileBase: 'Routes',
  columns: () => ROUTE_LIST_COLUMNS,
  source: (ctx, _actor, query: RoutesQuery) => listSource(ctx, query),
});
