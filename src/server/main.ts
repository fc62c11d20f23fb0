import { loadConfig } from './config.ts';
import { startApp } from './start.ts';

const config = loadConfig();
const { app, database } = await startApp(config);
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
