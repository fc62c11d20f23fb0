import { branchSchema, branchRow, branchesQuery } from '../../../shared/schemas/branches.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { directoryRoutes } from '../../lib/directory-routes.ts';
import { branchListExport } from './export-read-model.ts';
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
    export: branchListExport,
    service,
  });
}
