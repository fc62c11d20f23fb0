import { ADMIN_MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { companiesQuery, companyRow, companySchema } from '../../../shared/schemas/companies.ts';
import {
  created,
  exportableResponse,
  listResponse,
  messageResponse,
  namedRef,
  ok,
  pageResponse,
  savedResponse,
} from '../../../shared/schemas/responses.ts';
import { COMPANY_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { sendExport } from '../../lib/export.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['companies'];
const admin = authorize((user) => can(user, 'administer'));

export function companyRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/get-companies',
    {
      schema: { operationId: 'listCompanies', summary: 'Lists all companies', tags, response: ok(listResponse(companyRow)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.all(ctx) }),
  );

  app.get(
    '/api/get-company-types',
    {
      schema: { operationId: 'listCompanyTypes', summary: 'Lists the company types', tags, response: ok(listResponse(namedRef)) },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.companyTypes(ctx) }),
  );

  app.get(
    '/api/get-companies-with-search',
    {
      schema: {
        operationId: 'searchCompanies',
        summary: 'Lists companies a page at a time, with search, or exports all that match as CSV or .xlsx',
        tags,
        querystring: companiesQuery,
        response: ok(exportableResponse(pageResponse(companyRow), 'The companies')),
      },
      onRequest: admin,
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      if (format) return sendExport(reply, format, 'Companies', COMPANY_LIST_COLUMNS, service.listSource(ctx, query));
      return service.list(ctx, query);
    },
  );

  app.post(
    '/api/add-company',
    {
      schema: {
        operationId: 'createCompany',
        summary: 'Creates a company',
        tags,
        body: companySchema,
        response: created(savedResponse(companyRow)),
      },
      onRequest: admin,
    },
    async (request, reply) =>
      reply.status(201).send({ message: ADMIN_MSG.created('Company'), data: await service.create(ctx, request.body) }),
  );

  app.put(
    '/api/update-company/:id',
    {
      schema: {
        operationId: 'updateCompany',
        summary: 'Updates a company',
        tags,
        params: idParam,
        body: companySchema,
        response: ok(savedResponse(companyRow)),
      },
      onRequest: admin,
    },
    async (request) => ({
      message: ADMIN_MSG.updated('Company'),
      data: await service.update(ctx, request.params.id, request.body),
    }),
  );

  app.delete(
    '/api/delete-company/:id',
    {
      schema: {
        operationId: 'deleteCompany',
        summary: 'Deletes a company that nothing refers to',
        tags,
        params: idParam,
        response: ok(messageResponse, 409),
      },
      onRequest: admin,
    },
    async (request) => {
      await service.remove(ctx, request.params.id);
      return { message: ADMIN_MSG.deleted('Company') };
    },
  );
}
