import pino from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { boxed } from '../src/server/lib/banner.ts';
import { startApp } from '../src/server/start.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/server/demo/accounts.ts';
import { loadDemo } from '../src/server/demo/load.ts';

const config = loadConfig();
const { app, ctx, generatedAdminPassword } = await startApp(config, { jobs: false, logger: pino({ level: 'warn' }) });
try {
  await app.ready();
  const result = await loadDemo(app, ctx, { force: process.argv.includes('--force') });
  const lines = [
    result === 'already' ? 'Demo data is already loaded; nothing to do.' : 'Demo data loaded.',
    `Sign in with any of these (password ${DEMO_PASSWORD}):`,
    '',
  ];
  for (const account of DEMO_ACCOUNTS) lines.push(`  role ${String(account.role_id).padStart(2)}  ${account.email}`);
  if (generatedAdminPassword) lines.push('', `First admin: ${config.adminEmail}, password ${generatedAdminPassword} (shown once)`);
  process.stdout.write(`${boxed(lines)}\n`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await app.close();
}
