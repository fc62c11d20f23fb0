import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { dialog, pick } from './admin-support.ts';
import { apiAs, createBranch, createLocation, createRoute, createUser, PHONE, SHOTS } from './support.ts';

/** An installation of its own, started empty, so its first administrator sees what a new customer sees. */
const port = Number(process.env.E2E_PORT ?? 3100) + 1000;
const url = `http://127.0.0.1:${port}`;
const dataDir = `.tmp/e2e-empty-${port}`;
const FIRST = { email: 'first.admin@padtrack.test', password: 'First@12345' };
let server: ChildProcess;

test.beforeAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_URL: url,
      ADMIN_EMAIL: FIRST.email,
      ADMIN_PASSWORD: FIRST.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: 'ignore',
  });
  await expect
    .poll(
      async () =>
        fetch(`${url}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('when the first admin signs in to an empty installation, then a checklist guides the setup, ticks itself off and goes away', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(FIRST.email);
  await page.getByLabel(/^Password/).fill(FIRST.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(`${url}/invoices`);

  const checklist = page.getByRole('region', { name: 'Set up PadTrack' });
  await expect(checklist).toContainText('0 of 6 done');
  const steps = checklist.getByRole('list', { name: 'Setup steps' }).getByRole('listitem');
  await page.screenshot({ path: `${SHOTS}/setup-checklist-1280.png` });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/setup-checklist-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(steps).toHaveText([
    /1\. Add the shipping line \(company\)\s*Next/,
    /2\. Add a location/,
    /3\. Add the head-office branch/,
    /4\. Add a route/,
    /5\. Add users/,
    /6\. Generate the first pads/,
  ]);

  await page.getByRole('button', { name: 'Request', exact: true }).click();
  const requestForm = dialog(page, 'Create Request Invoice');
  await expect(requestForm.getByRole('alert')).toContainText('The head office branch does not exist yet.');
  await expect(requestForm.getByRole('textbox', { name: 'Branch' })).toHaveCount(0);
  await expect(requestForm.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/request-no-head-office-1280.png` });
  await requestForm.getByRole('link', { name: 'Add the head-office branch' }).click();
  await expect(page).toHaveURL(`${url}/branches?add=1`);
  await expect(dialog(page, 'Add Branch')).toBeVisible();

  await page.goto(`${url}/invoices`);
  await checklist.getByRole('link', { name: /Add the shipping line/ }).click();
  await expect(page).toHaveURL(`${url}/companies?add=1`);
  const add = dialog(page, 'Add Company');
  await expect(add.getByLabel('Name')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/setup-add-company-1280.png` });
  await add.getByLabel('Name').fill('Starlite Ferries');
  await pick(add, 'Company Type', 'Shipping Line');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await page.getByRole('link', { name: 'Transactions' }).first().click();
  await expect(checklist).toContainText('1 of 6 done');
  await expect(steps.nth(0)).toContainText('Done');
  await expect(steps.nth(1)).toContainText('Next');

  const api = await apiAs(await playwrightRequest.newContext({ baseURL: url }), FIRST.email, FIRST.password);
  await createLocation(api, 'Batangas Port');
  const office = await createBranch(api, 'Head Office');
  const route = await createRoute(api, 'Batangas - Calapan');
  await createUser(api, { role_id: 3, branch_id: office.id });
  await page.reload();
  await expect(checklist).toContainText('5 of 6 done');
  await api.post('add-pad', { route_id: route.id, series_from: 5001, series_to: 5050 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();
  await expect(checklist).toHaveCount(0);
});
