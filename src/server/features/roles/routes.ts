import { z } from 'zod';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { roleRow, roleSchema, rolesPageQuery, rolesQuery } from '../../../shared/schemas/roles.ts';
import { created, listResponse, messageResponse, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize } from '../../lib/auth.ts';
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

  app.post(
    '/api/add-role',
    {
      schema: { operationId: 'createRole', summary: 'Creates a role', tags, body: roleSchema, response: created(savedResponse(roleRow)) },
      onRequest: admin,
    },
    async (request, reply) =>
      reply.status(201).send({ message: ADMIN_MSG.created('Role'), data: await service.create(ctx, request.body.name) }),
  );

  app.put(
    '/api/update-role/:id',
    {
      schema: {
        operationId: 'updateRole',
        summary: 'Renames a role',
        tags,
        params: idParam,
        body: roleSchema,
        response: ok(savedResponse(roleRow)),
      },
      onRequest: admin,
    },
    async (request) => ({
      message: ADMIN_MSG.updated('Role'),
      data: await service.rename(ctx, request.params.id, request.body.name),
    }),
  );

  app.delete(
    '/api/delete-role/:id',
    {
      schema: {
        operationId: 'deleteRole',
        summary: 'Deletes a role that no user has',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: admin,
    },
    async (request) => {
      await service.remove(ctx, request.params.id);
      return { message: ADMIN_MSG.deleted('Role') };
    },
  );
}
