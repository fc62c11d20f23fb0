import { routeSchema, routeRow, routesQuery } from '../../../shared/schemas/routes.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { directoryRoutes } from '../../lib/directory-routes.ts';
import { routeListExport } from './export-read-model.ts';
import * as service from './service.ts';

export function routeRoutes(app: App, ctx: AppContext) {
  directoryRoutes(app, ctx, {
    noun: 'Route',
    plural: 'Routes',
    path: 'route',
    pathPlural: 'routes',
    form: routeSchema,
    row: routeRow,
    query: routesQuery,
    export: routeListExport,
    service,
  });
}
