import { BRANCH_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { BranchesQuery } from '../../../shared/schemas/branches.ts';
import { listExport } from '../../lib/export.ts';
import { listSource } from './service.ts';

/** The Branches list's export, as its admin screen's route and an export worker (src/server/exports/registry.ts) write it. */
export const branchListExport = listExport({
  kind: 'branches',
  fileBase: 'Branches',
  columns: () => BRANCH_LIST_COLUMNS,
  source: (ctx, _actor, query: BranchesQuery) => listSource(ctx, query),
});
