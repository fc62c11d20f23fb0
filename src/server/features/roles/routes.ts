import { z } from 'zod';
import { can } from '../../../shared/permissions.ts';
import { roleRow, roleSchema, rolesPageQuery, rolesQuery } from '../../../shared/schemas/roles.ts';
import { listResponse, ok, pageResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize } from '../../lib/auth.ts';
import { directoryWriteRoutes } from '../../lib/directory-routes.ts';
import * as service from './service.ts';

const tags = ['roles'];
const admin = authorize((user) => can(user, 'administer'));

export function roleRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-roles',
    {
      schema: {
        operationId: 'listRoles',
        summary: 'Lists roles: all of them, or a page when page or search is given',
        tags,
        querystring: rolesQuery,
        response: ok(z.union([pageResponse(roleRow), listResponse(roleRow)])),
      },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async (request) => {
      const { page, per_page, search } = request.query;
      if (page === undefined && search === undefined) return { data: await service.all(ctx) };
      return service.list(ctx, { page: page ?? 1, per_page: per_page ?? 10, search });
    },
  );

  app.get(
    '/api/get-roles-with-search',
    {
      schema: {
        operationId: 'searchRoles',
        summary: 'Lists roles a page at a time, with search',
        tags,
        querystring: rolesPageQuery,
        response: ok(pageResponse(roleRow)),
      },
      onRequest: admin,
    },
    async (request) => service.list(ctx, request.query),
  );

  directoryWriteRoutes(app, ctx, {
    noun: 'Role',
    path: 'role',
    pathPlural: 'roles',
    form: roleSchema,
    row: roleRow,
    service,
    summaries: { update: 'Renames a role', remove: 'Deletes a role that no user has' },
  });
}
