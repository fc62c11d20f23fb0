import { LOCATION_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { LocationsQuery } from '../../../shared/schemas/locations.ts';
import { listExport } from '../../lib/export.ts';
import { listSource } from './service.ts';

/** The Locations list's export, as its admin screen's route and an export worker (src/server/exports/registry.ts) write it. */
export const locationListExport = listExport({
  kind: 'locations',
  fileBase: 'Locations',
  columns: () => LOCATION_LIST_COLUMNS,
  source: (ctx, _actor, query: LocationsQuery) => listSource(ctx, query),
});
