import { ADMIN_MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { idParam, signedUrl, signedUrlQuery } from '../../../shared/schemas/common.ts';
import {
  created,
  dataResponse,
  exportableResponse,
  listResponse,
  messageResponse,
  namedRef,
  ok,
  pageResponse,
  pdfResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import {
  adminUser,
  assignableUser,
  createUserSchema,
  updateUserSchema,
  usersByRolesQuery,
  usersQuery,
} from '../../../shared/schemas/users.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { sendListExport } from '../../lib/export.ts';
import { SECURITY } from '../../lib/openapi.ts';
import { sendFile } from '../../lib/send-file.ts';
import { userListExport } from './export-read-model.ts';
import * as service from './service.ts';

const tags = ['users'];
const admin = authorize((user) => can(user, 'administer'));

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function userRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-users',
    {
      schema: {
        operationId: 'listUsers',
        summary: 'Lists users, a page at a time, or exports all that match as CSV or .xlsx',
        tags,
        querystring: usersQuery,
        response: ok(exportableResponse(pageResponse(adminUser), 'The users')),
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (format) return sendListExport(reply, ctx, format, userListExport, currentUser(request), query);
      return service.list(ctx, query);
    },
  );

  app.get(
    '/api/get-user/:id',
    {
      schema: { operationId: 'getUser', summary: 'Gets one user', tags, params: idParam, response: ok(dataResponse(adminUser)) },
      onRequest: admin,
    },
    async (request) => ({
      data: await service.get(ctx, request.params.id),
    }),
  );

  app.get(
    '/api/get-users-by-roles',
    {
      schema: {
        operationId: 'listUsersByRoles',
        summary: 'Lists the active users of the given roles',
        tags,
        querystring: usersByRolesQuery,
        response: ok(listResponse(assignableUser)),
      },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async (request) => ({
      data: await service.byRoles(ctx, request.query.roles),
    }),
  );

  app.get(
    '/api/get-user-statuses',
    {
      schema: { operationId: 'listUserStatuses', summary: 'Lists the user statuses', tags, response: ok(listResponse(namedRef)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.statuses(ctx) }),
  );

  app.post(
    '/api/add-user',
    {
      schema: {
        operationId: 'createUser',
        summary: 'Creates a user',
        tags,
        body: createUserSchema,
        response: created(savedResponse(adminUser)),
      },
      onRequest: admin,
    },
    async (request, reply) => reply.status(201).send({ message: ADMIN_MSG.created('User'), data: await service.create(ctx, request.body) }),
  );

  app.put(
    '/api/update-user/:id',
    {
      schema: {
        operationId: 'updateUser',
        summary: 'Updates a user',
        tags,
        params: idParam,
        body: updateUserSchema,
        response: ok(savedResponse(adminUser), 409),
      },
      onRequest: admin,
      config: { changesSessions: true },
    },
    async (request) => ({
      message: ADMIN_MSG.updated('User'),
      data: await service.update(ctx, currentUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/delete-user/:id',
    {
      schema: { operationId: 'deleteUser', summary: 'Deletes a user', tags, params: idParam, response: ok(messageResponse, 409) },
      onRequest: admin,
      config: { changesSessions: true },
    },
    async (request) => {
      await service.remove(ctx, currentUser(request), request.params.id);
      return { message: ADMIN_MSG.deleted('User') };
    },
  );

  app.get(
    '/api/user-badge/:id',
    {
      schema: {
        operationId: 'getUserBadgeLink',
        summary: "Returns a signed link to a user's badge card PDF",
        tags,
        params: idParam,
        response: ok(dataResponse(signedUrl)),
      },
      onRequest: admin,
    },
    async (request) => ({
      data: await service.badgeCardUrl(ctx, currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/api/user-badge/:id/pdf',
    {
      schema: {
        operationId: 'getUserBadgePdf',
        summary: "Renders a user's badge card PDF (signed link)",
        tags,
        security: SECURITY.signedLink,
        params: idParam,
        querystring: signedUrlQuery,
        response: ok(pdfResponse),
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await service.badgeCardPdf(ctx, request.params.id, request.query);
      return sendFile(reply, pdf, 'pdf', fileName);
    },
  );

  app.post(
    '/api/toggle-user-activation/:id',
    {
      schema: {
        operationId: 'toggleUserActivation',
        summary: 'Activates or deactivates a user',
        tags,
        params: idParam,
        response: ok(savedResponse(adminUser), 409),
      },
      onRequest: admin,
      config: { changesSessions: true },
    },
    async (request) => service.toggleActivation(ctx, currentUser(request), request.params.id),
  );
}
