import { can } from '../../../shared/permissions.ts';
import { dataResponse, ok } from '../../../shared/schemas/responses.ts';
import { setupStatus } from '../../../shared/schemas/setup.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

export function setupRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/setup-status',
    {
      schema: {
        operationId: 'getSetupStatus',
        summary: 'Gets the go-live set-up steps and whether each is done',
        tags: ['setup'],
        response: ok(dataResponse(setupStatus)),
      },
      onRequest: authorize((user) => can(user, 'administer')),
    },
    async () => ({
      data: await service.status(ctx),
    }),
  );
}
