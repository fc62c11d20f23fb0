import type { App } from '../../app.ts';

export function healthRoutes(app: App) {
  app.get('/api/health', { schema: { tags: ['health'], security: [] } }, async (request, reply) => {
    try {
      await app.ping();
      return { status: 'ok', database: 'ok' };
    } catch (error) {
      request.log.error({ err: error }, 'database did not answer');
      return reply.status(503).send({ status: 'error', database: 'unavailable' });
    }
  });
}
