import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.ts';
import { registerErrorHandler } from './errors.ts';

class LeakyError extends Error {
  readonly detail = 'row 42 of table secrets';
  readonly query = 'select password_hash from users';
}

describe('the generic 500', () => {
  it('when a route throws something unexpected, then the client gets only { message } with no stack, detail or query', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/boom-sync', () => {
      throw new LeakyError('boom: internal state at /srv/padtrack');
    });
    app.get('/boom-async', async () => {
      await Promise.resolve();
      throw new TypeError('cannot read properties of undefined (reading secret)');
    });
    await app.ready();
    try {
      for (const url of ['/boom-sync', '/boom-async']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(500);
        expect(res.json(), url).toEqual({ message: MSG.unexpected });
        for (const leak of ['stack', 'boom', 'secret', 'detail', 'password_hash', '/srv/', 'at '])
          expect(res.body, `${url}: ${leak}`).not.toContain(leak);
      }
    } finally {
      await app.close();
    }
  });
});
