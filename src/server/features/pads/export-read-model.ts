import { PAD_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { PadListQuery } from '../../../shared/schemas/pads.ts';
import { listExport } from '../../lib/export.ts';
import { padListSource } from './service.ts';

/** The Inventories list's export, as its route and an export worker (src/server/exports/registry.ts) write it. */
export const padListExport = listExport({
  kind: 'pads',
  fileBase: 'Inventories',
  columns: () => PAD_LIST_COLUMNS,
  source: (ctx, actor, query: PadListQuery) => padListSource(ctx, actor, query),
});
