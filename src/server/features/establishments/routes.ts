import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { ESTABLISHMENT_MSG, establishmentInput, establishmentSchema } from '../../../shared/schemas/establishments.ts';
import { dataResponse, ok, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['establishments'];

/** Issue 38: a branch as a tax establishment that issues e-invoices from a date. */
export function establishmentRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/branches/:id/e-invoicing',
    {
      schema: {
        operationId: 'getBranchEInvoicing',
        summary: "A branch's e-invoicing details (BIR branch code, covered since, permit, invoicing system)",
        tags,
        params: idParam,
        response: ok(dataResponse(establishmentSchema), 403, 404),
      },
      onRequest: authorize((user) => can(user, 'establishment.read')),
    },
    async (request) => ({ data: await service.get(ctx, request.params.id) }),
  );

  app.put(
    '/api/branches/:id/e-invoicing',
    {
      schema: {
        operationId: 'updateBranchEInvoicing',
        summary: "Sets a branch's e-invoicing details: whether it issues e-invoices, and since when",
        tags,
        params: idParam,
        body: establishmentInput,
        response: ok(savedResponse(establishmentSchema), 403, 404, 422),
      },
      onRequest: authorize((user) => can(user, 'establishment.manage')),
    },
    async (request) => ({
      message: ESTABLISHMENT_MSG.saved,
      data: await service.save(ctx, currentUser(request).id, request.params.id, request.body),
    }),
  );
}
