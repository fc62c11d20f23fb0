import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { DATABASE_UNAVAILABLE } from '../lib/errors.ts';
import { startApp } from '../start.ts';
import { createRoute } from '../test/factories.ts';
import { startPgCluster } from '../test/pg-cluster.ts';
import type { Db } from './client.ts';
import { pads } from './schema/pads.ts';

let cluster: Awaited<ReturnType<typeof startPgCluster>>;
let app: FastifyInstance;
let db: Db;
let headers: Record<string, string>;
const uncaught: unknown[] = [];
const collect = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', collect);
  process.on('unhandledRejection', collect);
  cluster = await startPgCluster();
  const config = {
    ...loadConfig({
      DATABASE_URL: cluster.url,
      DATA_DIR: path.join(os.tmpdir(), 'padtrack-outage'),
      APP_URL: 'http://padtrack.test',
      ADMIN_EMAIL: 'admin@padtrack.test',
      ADMIN_PASSWORD: 'Admin@12345',
    }),
    webDir: null,
  };
  const started = await startApp(config, { logger: pino({ level: 'silent' }) });
  app = started.app;
  db = started.ctx.db;
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@padtrack.test', password: 'Admin@12345' } });
  headers = { authorization: `Bearer ${login.json().token}` };
}, 60_000);

afterAll(async () => {
  await app?.close();
  cluster?.destroy();
  process.off('uncaughtException', collect);
  process.off('unhandledRejection', collect);
});

/** A second session that holds a lock on pads, so the app's insert waits inside its open transaction. */
async function holdPadsLock() {
  const client = new pg.Client({ connectionString: cluster.url });
  client.on('error', () => {
    // the server going away ends this session too
  });
  await client.connect();
  await client.query('begin');
  await client.query('lock table pads in share mode');
  const waitingInsert = async (): Promise<number> => {
    for (let attempt = 0; attempt < 500; attempt += 1) {
      await client.query('select pg_stat_clear_snapshot()');
      const { rows } = await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where wait_event_type = 'Lock' and query ~* '^\\s*with made as \\(\\s*insert into pads'`,
      );
      if (rows[0]) return rows[0].pid;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the add-pad insert never waited on the lock');
  };
  return { client, waitingInsert };
}

/** Sent at once (inject alone waits for its first then), answered when the test awaits it. */
const addPads = (routeId: number, from: number) =>
  app
    .inject({
      method: 'POST',
      url: '/api/add-pad',
      headers,
      payload: { route_id: routeId, series_from: from, series_to: from + 99_999, pad_size: 10 },
    })
    .then((res) => res);

const padsOf = async (routeId: number) => (await db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId))).length;

describe('database outages', () => {
  it('when PostgreSQL stops during an add-pad, then 503 with Retry-After, the process lives, nothing is half-written, and 200 once it is back (docs/SECURITY.md "Bad input and database faults")', async () => {
    const route = await createRoute(db);
    const lock = await holdPadsLock();
    const pending = addPads(route.id, 1);
    await lock.waitingInsert();
    cluster.stop('fast');

    const refused = await pending;
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ message: DATABASE_UNAVAILABLE });
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const list = await app.inject({ method: 'GET', url: '/api/get-pads', headers });
    expect(list.statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);

    cluster.start();
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(await padsOf(route.id)).toBe(0);
    const again = await addPads(route.id, 1);
    expect(again.statusCode).toBe(201);
    expect(await padsOf(route.id)).toBe(10_000);
    expect(uncaught).toEqual([]);
  });

  it('when the backend of an open add-pad transaction is terminated, then that request gets 503 and the next one succeeds (docs/SECURITY.md "Bad input and database faults")', async () => {
    const route = await createRoute(db);
    const lock = await holdPadsLock();
    const pending = addPads(route.id, 1);
    const pid = await lock.waitingInsert();
    await lock.client.query('select pg_terminate_backend($1)', [pid]);
    const refused = await pending;
    expect(refused.statusCode).toBe(503);
    await lock.client.query('rollback');
    await lock.client.end();

    expect(await padsOf(route.id)).toBe(0);
    expect((await addPads(route.id, 1)).statusCode).toBe(201);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(uncaught).toEqual([]);
  });
});
