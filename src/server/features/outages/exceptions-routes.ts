import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import { PAPER_USE_MSG, exceptionDecisionInput, exceptionListQuery, paperUseExceptionSchema } from '../../../shared/schemas/paper-uses.ts';
import { dataResponse, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './exceptions-service.ts';

const tags = ['outages'];

/** Issue 38: the paper numbers used at a covered establishment outside any outage, and Accounting's decisions on them. */
export function paperUseExceptionRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/paper-use-exceptions',
    {
      schema: {
        operationId: 'listPaperUseExceptions',
        summary: 'Lists paper numbers used outside an outage at an e-invoicing establishment, open ones first',
        tags,
        querystring: exceptionListQuery,
        response: ok(pageResponse(paperUseExceptionSchema), 403),
      },
      onRequest: authorize((user) => can(user, 'paperUse.read')),
    },
    async (request) => service.listExceptions(ctx, request.query),
  );

  app.get(
    '/api/paper-use-exceptions/:id',
    {
      schema: {
        operationId: 'getPaperUseException',
        summary: 'One paper-use exception with its decision',
        tags,
        params: idParam,
        response: ok(dataResponse(paperUseExceptionSchema), 403, 404),
      },
      onRequest: authorize((user) => can(user, 'paperUse.read')),
    },
    async (request) => ({ data: await service.getException(ctx, request.params.id) }),
  );

  app.post(
    '/api/paper-use-exceptions/:id/decision',
    {
      schema: {
        operationId: 'decidePaperUseException',
        summary: 'Justifies or rejects a paper-use exception, with a reason from the list and its explanation',
        tags,
        params: idParam,
        body: exceptionDecisionInput,
        response: ok(savedResponse(paperUseExceptionSchema), 403, 404, 409, 422),
      },
      onRequest: authorize((user) => can(user, 'paperUse.decide')),
    },
    async (request) => ({
      message: PAPER_USE_MSG.decided(request.body.decision),
      data: await service.decideException(ctx, currentUser(request), request.params.id, request.body),
    }),
  );
}
