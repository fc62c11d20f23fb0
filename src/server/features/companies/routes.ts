import { can } from '../../../shared/permissions.ts';
import { companiesQuery, companyRow, companySchema } from '../../../shared/schemas/companies.ts';
import { listResponse, namedRef, ok } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize } from '../../lib/auth.ts';
import { directoryRoutes } from '../../lib/directory-routes.ts';
import { companyListExport } from './export-read-model.ts';
import * as service from './service.ts';

export function companyRoutes(app: App, ctx: AppContext) {
  directoryRoutes(app, ctx, {
    noun: 'Company',
    plural: 'Companies',
    path: 'company',
    pathPlural: 'companies',
    form: companySchema,
    row: companyRow,
    query: companiesQuery,
    export: companyListExport,
    service,
  });

  app.get(
    '/api/get-company-types',
    {
      schema: {
        operationId: 'listCompanyTypes',
        summary: 'Lists the company types',
        tags: ['companies'],
        response: ok(listResponse(namedRef)),
      },
      onRequest: authorize((user) => can(user, 'directory.read')),
    },
    async () => ({ data: await service.companyTypes(ctx) }),
  );
}
