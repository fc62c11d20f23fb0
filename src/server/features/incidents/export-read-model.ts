import { incidentListColumns } from '../../../shared/list-columns.ts';
import type { IncidentListQuery } from '../../../shared/schemas/incidents.ts';
import { listExport } from '../../lib/export.ts';
import { listSource } from './read-model.ts';

/** The Incidents list's export, as its route and an export worker (src/server/exports/registry.ts) write it. */
export const incidentListExport = listExport({
  kind: 'incidents',
  fileBase: 'Incidents',
  columns: incidentListColumns,
  source: (ctx, _actor, query: IncidentListQuery) => listSource(ctx, query),
});
