import { invoiceListColumns } from '../../../shared/list-columns.ts';
import type { InTransitQuery } from '../../../shared/schemas/custodies.ts';
import { listExport } from '../../lib/export.ts';
import { inTransitSource } from './service.ts';

/** The Custodies list's export, as its route and an export worker (src/server/exports/registry.ts) write it. */
export const inTransitExport = listExport({
  kind: 'custodies',
  fileBase: 'Custodies',
  columns: (timeZone) => invoiceListColumns(timeZone, 'Invoice Type', false),
  source: (ctx, actor, query: InTransitQuery) => inTransitSource(ctx, actor, query),
});
