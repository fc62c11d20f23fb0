import { healthResponse } from '../../../shared/schemas/health.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { SECURITY } from '../../lib/openapi.ts';

/** Health answers within 2 s whatever the database does: a ping that takes longer counts as down. */
const PING_LIMIT_MS = 1_500;

function withinLimit(work: Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`database did not answer within ${PING_LIMIT_MS} ms`)), PING_LIMIT_MS);
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function healthRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Checks that the app and its database answer',
        tags: ['health'],
        security: SECURITY.none,
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (request, reply) => {
      try {
        await withinLimit(app.ping());
        return { status: 'ok', database: 'ok', time_zone: ctx.config.timeZone };
      } catch (error) {
        request.log.error({ err: error }, 'database did not answer');
        return reply
          .status(503)
          .header('Retry-After', '5')
          .send({ status: 'error', database: 'unavailable', time_zone: ctx.config.timeZone });
      }
    },
  );
}
