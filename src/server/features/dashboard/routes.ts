import { canOpenScreen } from '../../../shared/permissions.ts';
import { dashboard } from '../../../shared/schemas/dashboard.ts';
import { dataResponse, ok } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

export function dashboardRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/dashboard',
    {
      schema: {
        operationId: 'getDashboard',
        summary: "Gets the dashboard's figures",
        tags: ['dashboard'],
        response: ok(dataResponse(dashboard)),
      },
      onRequest: authorize((user) => canOpenScreen(user, 'dashboard')),
    },
    async () => ({ data: await service.overview(ctx) }),
  );
}
