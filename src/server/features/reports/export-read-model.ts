import { reportListColumns } from '../../../shared/list-columns.ts';
import type { ReportListQuery } from '../../../shared/schemas/reports.ts';
import { listExport } from '../../lib/export.ts';
import { reportListSource } from './service.ts';

/** The saved Reports list's export, as its route and an export worker (src/server/exports/registry.ts) write it. */
export const reportListExport = listExport({
  kind: 'reports',
  fileBase: 'Reports',
  columns: reportListColumns,
  source: (ctx, _actor, query: ReportListQuery) => reportListSource(ctx, query),
});
