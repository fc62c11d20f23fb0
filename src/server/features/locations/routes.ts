import { locationSchema, locationRow, locationsQuery } from '../../../shared/schemas/locations.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { directoryRoutes } from '../../lib/directory-routes.ts';
import { locationListExport } from './export-read-model.ts';
import * as service from './service.ts';

export function locationRoutes(app: App, ctx: AppContext) {
  directoryRoutes(app, ctx, {
    noun: 'Location',
    plural: 'Locations',
    path: 'location',
    pathPlural: 'locations',
    form: locationSchema,
    row: locationRow,
    query: locationsQuery,
    export: locationListExport,
    service,
  });
}
