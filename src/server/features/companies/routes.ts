import { ADMIN_MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { companiesQuery, companyRow, companySchema } from '../../../shared/schemas/companies.ts';
import { ERROR_RESPONSES, listResponse, messageResponse, namedRef, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['companies'];
const admin = authorize((user) => can(user, 'administer'));

export function companyRoutes(app: App, ctx: AppContext) {
  app.get('/api/get-companies', { schema: { tags, response: { 200: listResponse(companyRow), ...ERROR_RESPONSES } }, onRequest: authorize() }, async () => ({ data: await service.all(ctx) }));

  app.get('/api/get-company-types', { schema: { tags, response: { 200: listResponse(namedRef), ...ERROR_RESPONSES } }, onRequest: authorize() }, async () => ({ data: await service.companyTypes(ctx) }));

  app.get('/api/get-companies-with-search', { schema: { tags, querystring: companiesQuery, response: { 200: pageResponse(companyRow), ...ERROR_RESPONSES } }, onRequest: admin }, async (request) =>
    service.list(ctx, request.query),
  );

  app.post('/api/add-company', { schema: { tags, body: companySchema, response: { 201: savedResponse(companyRow), ...ERROR_RESPONSES } }, onRequest: admin }, async (request, reply) =>
    reply.status(201).send({ message: ADMIN_MSG.created('Company'), data: await service.create(ctx, request.body) }),
  );

  app.put('/api/update-company/:id', { schema: { tags, params: idParam, body: companySchema, response: { 200: savedResponse(companyRow), ...ERROR_RESPONSES } }, onRequest: admin }, async (request) => ({
    message: ADMIN_MSG.updated('Company'),
    data: await service.update(ctx, request.params.id, request.body),
  }));

  app.delete('/api/delete-company/:id', { schema: { tags, params: idParam, response: { 200: messageResponse, ...ERROR_RESPONSES } }, onRequest: admin }, async (request) => {
    await service.remove(ctx, request.params.id);
    return { message: ADMIN_MSG.deleted('Company') };
  });
}
