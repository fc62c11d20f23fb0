import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { menuFor } from '../src/shared/permissions.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/server/demo/accounts.ts';
import { watchConsole } from './support.ts';

const port = Number(process.env.E2E_PORT ?? 3100) + 50;
const base = `http://127.0.0.1:${port}`;
const dataDir = `.tmp/e2e-demo-${port}`;
let server: ChildProcess;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.rmSync(dataDir, { recursive: true, force: true });
  server = spawn('npx', ['tsx', 'src/server/main.ts', '--demo'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_URL: base, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 220; i += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the demo server did not start');
});

test.afterAll(() => {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
});

for (const account of DEMO_ACCOUNTS) {
  test(`when the demo ${account.email} signs in, then every screen of role ${account.role_id} opens without a console error`, async ({
    page,
  }) => {
    const errors = watchConsole(page);
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).not.toHaveURL(/\/login$/);
    const screens = [...menuFor({ id: 0, role_id: account.role_id, branch_id: null }).map((m) => m.path), '/user-profile'];
    /* A budget that follows the work, as the accessibility sweep's: the Admin opens 16 screens of demo data. */
    test.setTimeout(30_000 + screens.length * 35_000);
    for (const path of screens) {
      await page.goto(`${base}${path}`);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      /* Each screen is a full reload (page, script, session, the screen's chunk), so its heading gets a first screen's 20 s, as in the accessibility sweep. */
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('table-loader').first()).toBeHidden({ timeout: 15_000 });
      await expect(page.getByText('404 Page Not Found')).toHaveCount(0);
    }
    expect(errors, errors.join('\n')).toEqual([]);
  });
}
