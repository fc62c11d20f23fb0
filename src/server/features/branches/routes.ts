import { ADMIN_MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { branchSchema, branchRow, branchesQuery } from '../../../shared/schemas/branches.ts';
import {
  created,
  exportableResponse,
  listResponse,
  messageResponse,
  ok,
  pageResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { BRANCH_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendExport } from '../../lib/export.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['branches'];
const admin = authorize((user) => can(user, 'administer'));

export function branchRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-branches',
    {
      schema: { operationId: 'listBranches', summary: 'Lists all branches', tags, response: ok(listResponse(branchRow)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.all(ctx) }),
  );

  app.get(
    '/api/get-branches-with-search',
    {
      schema: {
        operationId: 'searchBranches',
        summary: 'Lists branches a page at a time, with search, or exports all that match as CSV or .xlsx',
        tags,
        querystring: branchesQuery,
        response: ok(exportableResponse(pageResponse(branchRow), 'The branches')),
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (format) return sendExport(reply, format, 'Branches', BRANCH_LIST_COLUMNS, service.listSource(ctx, query));
      return service.list(ctx, query);
    },
  );

  app.post(
    '/api/add-branch',
    {
      schema: {
        operationId: 'createBranch',
        summary: 'Creates a branch',
        tags,
        body: branchSchema,
        response: created(savedResponse(branchRow)),
      },
      onRequest: admin,
    },
    async (request, reply) =>
      reply.status(201).send({ message: ADMIN_MSG.created('Branch'), data: await service.create(ctx, request.body) }),
  );

  app.put(
    '/api/update-branch/:id',
    {
      schema: {
        operationId: 'updateBranch',
        summary: 'Updates a branch',
        tags,
        params: idParam,
        body: branchSchema,
        response: ok(savedResponse(branchRow)),
      },
      onRequest: admin,
    },
    async (request) => ({
      message: ADMIN_MSG.updated('Branch'),
      data: await service.update(ctx, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/delete-branch/:id',
    {
      schema: {
        operationId: 'deleteBranch',
        summary: 'Deletes a branch that nothing refers to',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: admin,
    },
    async (request) => {
      await service.remove(ctx, request.params.id);
      return { message: ADMIN_MSG.deleted('Branch') };
    },
  );
}
