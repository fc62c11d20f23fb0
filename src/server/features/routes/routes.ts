import { ADMIN_MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { routeSchema, routeRow, routesQuery } from '../../../shared/schemas/routes.ts';
import {
  created,
  exportableResponse,
  listResponse,
  messageResponse,
  ok,
  pageResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import { ROUTE_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendExport } from '../../lib/export.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['routes'];
const admin = authorize((user) => can(user, 'administer'));

export function routeRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-routes',
    {
      schema: { operationId: 'listRoutes', summary: 'Lists all routes', tags, response: ok(listResponse(routeRow)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.all(ctx) }),
  );

  app.get(
    '/api/get-routes-with-search',
    {
      schema: {
        operationId: 'searchRoutes',
        summary: 'Lists routes a page at a time, with search, or exports all that match as CSV or .xlsx',
        tags,
        querystring: routesQuery,
        response: ok(exportableResponse(pageResponse(routeRow), 'The routes')),
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (format) return sendExport(reply, format, 'Routes', ROUTE_LIST_COLUMNS, service.listSource(ctx, query));
      return service.list(ctx, query);
    },
  );

  app.post(
    '/api/add-route',
    {
      schema: {
        operationId: 'createRoute',
        summary: 'Creates a route',
        tags,
        body: routeSchema,
        response: created(savedResponse(routeRow)),
      },
      onRequest: admin,
    },
    async (request, reply) =>
      reply.status(201).send({ message: ADMIN_MSG.created('Route'), data: await service.create(ctx, request.body) }),
  );

  app.put(
    '/api/update-route/:id',
    {
      schema: {
        operationId: 'updateRoute',
        summary: 'Updates a route',
        tags,
        params: idParam,
        body: routeSchema,
        response: ok(savedResponse(routeRow)),
      },
      onRequest: admin,
    },
    async (request) => ({
      message: ADMIN_MSG.updated('Route'),
      data: await service.update(ctx, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/delete-route/:id',
    {
      schema: {
        operationId: 'deleteRoute',
        summary: 'Deletes a route that nothing refers to',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: admin,
    },
    async (request) => {
      await service.remove(ctx, request.params.id);
      return { message: ADMIN_MSG.deleted('Route') };
    },
  );
}
