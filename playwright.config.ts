import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = `.tmp/e2e-${port}`;
/** Each port builds and serves its own copy of the UI, so browser runs on different ports never share a build. */
process.env.WEB_DIR ??= `.tmp/web-${port}`;
const webDir = process.env.WEB_DIR;
/** The accessibility sweep only reads, so it runs beside the flows against a server and database of its own. */
const a11yPort = port + 500;

/** Browser tests run the built app on its embedded database, fresh for each run, in Debian's Chromium. */
export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  /* Two streams, one browser each: the flows in file order, and beside them the accessibility sweep on its own server. */
  workers: 2,
  projects: [
    { name: 'flows', testIgnore: /a11y\.spec\.ts$/, workers: 1 },
    { name: 'a11y', testMatch: /a11y\.spec\.ts$/, workers: 1, use: { baseURL: `http://127.0.0.1:${a11yPort}` } },
  ],
  outputDir: `.tmp/pw-${port}`,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    /* Without opening animations a dialog's buttons sit still when clicked (the theme respects reduced motion). */
    reducedMotion: 'reduce',
    /* The built app registers a service worker once signed in; only the offline specs (e2e/offline*.spec.ts) let it run. */
    serviceWorkers: 'block',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-gpu',
      ],
    },
  },
  /* Started in order: the first builds the UI that both serve. */
  webServer: [
    {
      command: `npx vite build --outDir ${webDir} --emptyOutDir --logLevel warn && rm -rf ${E2E_DATA_DIR} && npx tsx src/server/main.ts`,
      ...server(port, E2E_DATA_DIR),
    },
    { command: `rm -rf .tmp/e2e-${a11yPort} && npx tsx src/server/main.ts`, ...server(a11yPort, `.tmp/e2e-${a11yPort}`) },
  ],
});

function server(listen: number, dataDir: string) {
  return {
    url: `http://127.0.0.1:${listen}/api/health`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(listen),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_URL: `http://127.0.0.1:${listen}`,
      ADMIN_EMAIL: 'admin@padtrack.test',
      ADMIN_PASSWORD: 'Admin@12345',
      LOG_LEVEL: 'warn',
      CHECK_RESPONSES: 'true',
      WEB_DIR: webDir,
    },
  };
}
