import { branchSchema, branchRow, branchesQuery } from '../../../shared/schemas/branches.ts';
import { BRANCH_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { directoryRoutes } from '../../lib/directory-routes.ts';
import * as service from './service.ts';

export function branchRoutes(app: App, ctx: AppContext) {
  directoryRoutes(app, ctx, {
    noun: 'Branch',
    plural: 'Branches',
    path: 'branch',
    pathPlural: 'branches',
    form: branchSchema,
    row: branchRow,
    query: branchesQuery,
    columns: BRANCH_LIST_COLUMNS,
    service,
  });
}
