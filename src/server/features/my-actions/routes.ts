import { myActions } from '../../../shared/schemas/my-actions.ts';
import { dataResponse, ok } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './service.ts';

export function myActionRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/my-actions',
    {
      schema: {
        operationId: 'listMyActions',
        summary: 'Lists what waits for the signed-in user',
        tags: ['my-actions'],
        response: ok(dataResponse(myActions)),
      },
      onRequest: authorize(),
    },
    async (request) => ({
      data: await service.myActions(ctx, currentUser(request)),
    }),
  );
}
