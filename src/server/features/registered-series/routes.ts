import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import {
  SERIES_MSG,
  registeredSeriesDetailSchema,
  registeredSeriesInput,
  registeredSeriesQuery,
  registeredSeriesSchema,
  seriesRoleInput,
  unusedFormsQuery,
  unusedFormsSchema,
} from '../../../shared/schemas/registered-series.ts';
import { created, dataResponse, formatResponse, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import { sendFile } from '../../lib/send-file.ts';
import * as service from './service.ts';
import { unusedForms, unusedFormsCsv, unusedFormsPdf } from './unused-forms.ts';

const tags = ['registered-series'];
const registrar = authorize((user) => can(user, 'registry.use'));

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function registeredSeriesRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/registered-series',
    {
      schema: {
        operationId: 'listRegisteredSeries',
        summary: 'Lists registered series (ATPs), searchable by ATP number, route, TIN or establishment',
        tags,
        querystring: registeredSeriesQuery,
        response: ok(pageResponse(registeredSeriesSchema), 403),
      },
      onRequest: registrar,
    },
    async (request) => service.list(ctx, request.query),
  );

  app.post(
    '/api/registered-series',
    {
      schema: {
        operationId: 'createRegisteredSeries',
        summary: 'Registers the series of an Authority to Print',
        tags,
        body: registeredSeriesInput,
        response: created(savedResponse(registeredSeriesSchema), 403, 409, 422),
      },
      onRequest: registrar,
    },
    async (request, reply) =>
      reply.status(201).send({ message: SERIES_MSG.created, data: await service.create(ctx, currentUser(request).id, request.body) }),
  );

  app.get(
    '/api/registered-series/:id',
    {
      schema: {
        operationId: 'getRegisteredSeries',
        summary: 'One registered series with the history of its role',
        tags,
        params: idParam,
        response: ok(dataResponse(registeredSeriesDetailSchema), 403, 404),
      },
      onRequest: registrar,
    },
    async (request) => ({ data: await service.detail(ctx, request.params.id) }),
  );

  app.put(
    '/api/registered-series/:id/role',
    {
      schema: {
        operationId: 'changeRegisteredSeriesRole',
        summary: 'Changes what a registered series is for after go-live (regular, contingency, converted, supplementary, retired)',
        tags,
        params: idParam,
        body: seriesRoleInput,
        response: ok(savedResponse(registeredSeriesDetailSchema), 403, 404, 409, 422),
      },
      onRequest: authorize((user) => can(user, 'series.changeRole')),
    },
    async (request) => {
      const data = await service.changeRole(ctx, currentUser(request).id, request.params.id, request.body);
      return { message: SERIES_MSG.roleChanged(data.role), data };
    },
  );

  app.put(
    '/api/registered-series/:id',
    {
      schema: {
        operationId: 'updateRegisteredSeries',
        summary: 'Corrects a registered series',
        tags,
        params: idParam,
        body: registeredSeriesInput,
        response: ok(savedResponse(registeredSeriesSchema), 403, 409, 422),
      },
      onRequest: registrar,
    },
    async (request) => ({ message: SERIES_MSG.updated, data: await service.update(ctx, request.params.id, request.body) }),
  );

  app.get(
    '/api/unused-forms',
    {
      schema: {
        operationId: 'getUnusedForms',
        summary: 'Inventory of unused forms at the end of a date, per establishment and registered series',
        tags,
        querystring: unusedFormsQuery,
        response: { 200: formatResponse(dataResponse(unusedFormsSchema), 'The inventory of unused forms') },
      },
      onRequest: authorize((user) => can(user, 'unusedForms.read')),
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const report = await unusedForms(ctx, query);
      if (format === 'pdf') return sendFile(reply, await unusedFormsPdf(ctx, report), 'pdf', `unused-forms-${report.date}.pdf`);
      if (format === 'csv') return sendFile(reply, unusedFormsCsv(report), 'csv', `unused-forms-${report.date}.csv`);
      return { data: report };
    },
  );
}
