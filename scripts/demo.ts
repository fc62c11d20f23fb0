import { loadConfig } from '../src/server/config.ts';
import { startApp } from '../src/server/start.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, loadDemo } from './demo-data.ts';

const config = loadConfig();
const { app, ctx } = await startApp(config);
try {
  await app.ready();
  const result = await loadDemo(app, ctx, { force: process.argv.includes('--force') });
  console.log(result === 'already' ? 'Demo data is already loaded; nothing to do.' : 'Demo data loaded.');
  console.log(`Sign in with any of these (password ${DEMO_PASSWORD}):`);
  for (const account of DEMO_ACCOUNTS) console.log(`  role ${String(account.role_id).padStart(2)}  ${account.email}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await app.close();
}
