import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import {
  OUTCOME_MSG,
  outcomePendingResponse,
  outcomeRequestListQuery,
  outcomeRequestSchema,
  outcomeRevertSchema,
  padOutcomeSchema,
  rejectSchema,
} from '../../../shared/schemas/outcomes.ts';
import { padChangedResponse } from '../../../shared/schemas/pads.ts';
import { errorAnswer, ok, pageResponse, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './service.ts';

const tags = ['outcomes'];
/** Before the pad is read a guard asks a rule's record-free answer; the service asks the whole rule with the pad. */
const approver = authorize((user) => can(user, 'number.approveOutcome'));

// eslint-disable-next-line max-lines-per-function -- every route registered in one place; long only because each declares its OpenAPI schema inline.
export function outcomeRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/pads/:id/outcome',
    {
      schema: {
        operationId: 'recordPadOutcome',
        summary: "Cancels or writes off a range of a pad's numbers, or asks for approval",
        tags,
        params: idParam,
        body: padOutcomeSchema,
        response: {
          200: padChangedResponse,
          202: outcomePendingResponse,
          403: errorAnswer(403),
          404: errorAnswer(404),
          409: errorAnswer(409),
          422: errorAnswer(422),
        },
      },
      onRequest: authorize((user) => can(user, 'number.writeOff')),
    },
    async (request, reply) => {
      const { from, to, outcome } = request.body;
      const result = await service.requestOutcome(ctx, currentUser(request), request.params.id, request.body);
      if (result.applied)
        return reply.status(200).send({ message: OUTCOME_MSG.applied(outcome, from, to), data: result.pad, warning: null });
      return reply.status(202).send({ message: OUTCOME_MSG.pending, data: { request_id: result.requestId } });
    },
  );

  app.get(
    '/api/outcome-requests',
    {
      schema: {
        operationId: 'listOutcomeRequests',
        summary: "Lists the cancellations waiting for the caller's approval",
        tags,
        querystring: outcomeRequestListQuery,
        response: ok(pageResponse(outcomeRequestSchema), 403, 404, 409, 422),
      },
      onRequest: authorize((user) => can(user, 'ledger.read')),
    },
    async (request) => service.pendingRequests(ctx, currentUser(request), request.query),
  );

  app.post(
    '/api/outcome-requests/:id/approve',
    {
      schema: {
        operationId: 'approveOutcomeRequest',
        summary: 'Approves a waiting cancellation',
        tags,
        params: idParam,
        response: ok(padChangedResponse, 403, 404, 409, 422),
      },
      onRequest: approver,
    },
    async (request) => ({
      message: OUTCOME_MSG.approved,
      data: await service.approve(ctx, currentUser(request), request.params.id),
      warning: null,
    }),
  );

  app.post(
    '/api/outcome-requests/:id/reject',
    {
      schema: {
        operationId: 'rejectOutcomeRequest',
        summary: 'Rejects a waiting cancellation with a reason',
        tags,
        params: idParam,
        body: rejectSchema,
        response: ok(savedResponse(outcomeRequestSchema), 403, 404, 409, 422),
      },
      onRequest: approver,
    },
    async (request) => ({
      message: OUTCOME_MSG.rejected,
      data: await service.reject(ctx, currentUser(request), request.params.id, request.body.reason),
    }),
  );

  app.post(
    '/api/outcome-reverts',
    {
      schema: {
        operationId: 'revertOutcome',
        summary: 'Undoes a cancellation as a new event',
        tags,
        body: outcomeRevertSchema,
        response: ok(padChangedResponse, 403, 404, 409, 422),
      },
      onRequest: authorize((user) => can(user, 'number.revertOutcome')),
    },
    async (request) => {
      const { from, to } = request.body;
      return {
        message: OUTCOME_MSG.reverted(from, to),
        data: await service.revert(ctx, currentUser(request), request.body),
        warning: null,
      };
    },
  );
}
