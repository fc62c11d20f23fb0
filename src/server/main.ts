import { loadConfig } from './config.ts';
import { startApp } from './start.ts';

const config = loadConfig();
const { app, ctx, database } = await startApp(config);
if (process.argv.includes('--demo')) {
  const { loadDemo } = await import('../../scripts/demo-data.ts');
  await app.ready();
  const result = await loadDemo(app, ctx, { force: process.argv.includes('--force') });
  app.log.info(result === 'already' ? 'Demo data is already loaded.' : 'Demo data loaded (password Demo@2026; accounts in the README).');
}
await app.listen({ port: config.port, host: config.host });
app.log.info(`PadTrack is running at ${config.appUrl} (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
