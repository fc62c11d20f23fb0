import pino from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { DEFAULT_POOL_TIMEOUTS, openDatabase, type Database } from './db/client.ts';
import { seedDatabase } from './db/seed.ts';
import { sharedStateOf } from './db/shared-state.ts';
import { createMailer } from './lib/mail.ts';
import { startJobs } from './db/jobs.ts';
import { serveBackups } from './db/backup.ts';
import { serverJobs } from './jobs.ts';
import { exportWorkers } from './exports/workers.ts';

/** Opens and migrates the database, seeds it, and builds the app: the same steps for the server, demo and benchmarks. */
export async function startApp(config: Config, options: { database?: Database; logger?: pino.Logger; jobs?: boolean } = {}) {
  const log = options.logger ?? pino({ level: config.logLevel });
  const database =
    options.database ??
    (await openDatabase({
      url: config.databaseUrl,
      ownerUrl: config.databaseOwnerUrl,
      dataDir: config.databaseUrl ? null : config.dataDir,
      timeouts: { ...DEFAULT_POOL_TIMEOUTS, statementTimeoutMs: config.dbStatementTimeoutMs },
    }));
  for (const warning of database.warnings) log.warn(warning);
  const seeded = await seedDatabase(database.db, { email: config.adminEmail, password: config.adminPassword });
  const ctx: AppContext = {
    db: database.db,
    config,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
    badgeSecret: seeded.badgeSecret,
    shared: sharedStateOf(database),
    log,
    jobs: [],
  };
  ctx.jobs = serverJobs(ctx, database);
  const workers = database.url ? exportWorkers({ databaseUrl: database.url, config, badgeSecret: ctx.badgeSecret }) : null;
  if (workers) ctx.exportWorkers = workers;
  const app = await buildApp(ctx, { ping: database.ping });
  if (options.jobs ?? true) {
    const stopJobs = startJobs(database.db, ctx.jobs, log);
    app.addHook('onClose', stopJobs);
  }
  if (!options.database && database.kind === 'pglite') {
    const stopServing = await serveBackups(database, config.dataDir);
    app.addHook('onClose', stopServing);
  }
  if (workers) app.addHook('preClose', workers.stopAll);
  app.addHook('onClose', async () => database.close());
  return { app, ctx, database, generatedAdminPassword: seeded.generatedAdminPassword };
}
