import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { startApp } from '../start.ts';
import { checkAnswersAgainstDocument } from './openapi-check.ts';

async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDatabase({ url: null, dataDir: null });
  const name = `padtrack_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: null });
  return {
    ...database,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * A real app on a fresh database: PGlite in memory, or a new database on the PostgreSQL server named by
 * TEST_DATABASE_URL. Requests go through app.inject, the whole HTTP layer included, and every answer is checked
 * against the app's own OpenAPI document (status, content type, body). The benchmarks turn CHECK_RESPONSES off
 * and with it this document check, so they time the app as it runs in production.
 */
export async function createTestApp(env: Record<string, string> = {}, options: { logger?: pino.Logger } = {}) {
  const database = await openTestDatabase();
  const loaded = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), `padtrack-test-${randomBytes(4).toString('hex')}`),
    APP_URL: 'http://padtrack.test',
    ADMIN_EMAIL: 'admin@padtrack.test',
    ADMIN_PASSWORD: 'Admin@12345',
    CHECK_RESPONSES: 'true',
    ...env,
  });
  const config = { ...loaded, webDir: env.WEB_DIR ? loaded.webDir : null };
  const started = await startApp(config, {
    database,
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    jobs: false,
  });
  const documentViolations = config.checkResponses ? checkAnswersAgainstDocument(started.app) : [];
  await started.app.ready();
  return {
    app: started.app,
    ctx: started.ctx,
    db: started.ctx.db,
    kind: database.kind,
    database,
    config,
    documentViolations,
    close: () => started.app.close(),
  };
}

/**
 * Another app instance on the same database, as a second process behind a load balancer would be: it shares
 * only what the database shares (on PGlite, what the process shares). Closing it leaves the database open.
 */
export async function createSecondInstance(t: TestApp, overrides: Partial<Config> = {}) {
  const config = { ...t.ctx.config, ...overrides };
  const started = await startApp(config, {
    database: { ...t.database, close: async () => undefined },
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    jobs: false,
  });
  checkAnswersAgainstDocument(started.app);
  await started.app.ready();
  return { app: started.app, ctx: started.ctx, close: () => started.app.close() };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
