import { ADMIN_MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { locationSchema, locationRow, locationsQuery } from '../../../shared/schemas/locations.ts';
import {
  created,
  exportableResponse,
  listResponse,
  messageResponse,
  ok,
  pageResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import { LOCATION_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendExport } from '../../lib/export.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['locations'];
const admin = authorize((user) => can(user, 'administer'));

export function locationRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-locations',
    {
      schema: { operationId: 'listLocations', summary: 'Lists all locations', tags, response: ok(listResponse(locationRow)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.all(ctx) }),
  );

  app.get(
    '/api/get-locations-with-search',
    {
      schema: {
        operationId: 'searchLocations',
        summary: 'Lists locations a page at a time, with search, or exports all that match as CSV or .xlsx',
        tags,
        querystring: locationsQuery,
        response: ok(exportableResponse(pageResponse(locationRow), 'The locations')),
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (format) return sendExport(reply, format, 'Locations', LOCATION_LIST_COLUMNS, service.listSource(ctx, query));
      return service.list(ctx, query);
    },
  );

  app.post(
    '/api/add-location',
    {
      schema: {
        operationId: 'createLocation',
        summary: 'Creates a location',
        tags,
        body: locationSchema,
        response: created(savedResponse(locationRow)),
      },
      onRequest: admin,
    },
    async (request, reply) =>
      reply.status(201).send({ message: ADMIN_MSG.created('Location'), data: await service.create(ctx, request.body) }),
  );

  app.put(
    '/api/update-location/:id',
    {
      schema: {
        operationId: 'updateLocation',
        summary: 'Updates a location',
        tags,
        params: idParam,
        body: locationSchema,
        response: ok(savedResponse(locationRow)),
      },
      onRequest: admin,
    },
    async (request) => ({
      message: ADMIN_MSG.updated('Location'),
      data: await service.update(ctx, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/delete-location/:id',
    {
      schema: {
        operationId: 'deleteLocation',
        summary: 'Deletes a location that nothing refers to',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: admin,
    },
    async (request) => {
      await service.remove(ctx, request.params.id);
      return { message: ADMIN_MSG.deleted('Location') };
    },
  );
}
