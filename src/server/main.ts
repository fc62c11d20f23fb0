import { loadConfig } from './config.ts';
import { startJobs } from './db/jobs.ts';
import { startBanner } from './lib/banner.ts';
import { startApp } from './start.ts';

const config = loadConfig();
const demo = process.argv.includes('--demo');
// The demo tells its story on past days: the jobs start after it, or 'close-months' would close a month before its last day was told.
const { app, ctx, database, generatedAdminPassword } = await startApp(config, { jobs: !demo });
let stopJobs: () => Promise<void> = async () => undefined;
if (demo) {
  const { loadDemo } = await import('./demo/load.ts');
  await app.ready();
  const level = app.log.level;
  app.log.level = 'warn';
  const result = await loadDemo(app, ctx, { force: process.argv.includes('--force') }).finally(() => {
    app.log.level = level;
  });
  app.log.info(result === 'already' ? 'Demo data is already loaded.' : 'Demo data loaded (password Demo@2026; accounts in the README).');
  stopJobs = startJobs(database.db, ctx.jobs, app.log);
}
await app.listen({ port: config.port, host: config.host });
const databaseName = database.kind === 'pglite' ? `embedded, in ${config.dataDir}` : 'PostgreSQL';
process.stdout.write(
  `${startBanner({ url: config.appUrl, database: databaseName, admin: generatedAdminPassword ? { email: config.adminEmail, password: generatedAdminPassword } : null })}\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopJobs()
      .then(() => app.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
