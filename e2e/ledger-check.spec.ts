import { expect, test } from '@playwright/test';
import { latestLedgerCheckSchema, type LatestLedgerCheck } from '../src/shared/schemas/ledger.ts';
import { adminApi, apiAs, createUser, PHONE, uiLogin, watchConsole } from './support.ts';

const SHOTS = 'docs/screenshots';

test('when the scheduled ledger check has run, then Accounting sees on the Dashboard that it passed, when, and what it checked', async ({
  page,
  request,
}) => {
  const accounting = await createUser(await adminApi(request), { role_id: 8 });
  const api = await apiAs(request, accounting.email, accounting.password);
  /* The server looks at its jobs 5 s after it starts: a week with no check yet runs one then. */
  await expect
    .poll(async () => (await api.get<{ data: LatestLedgerCheck }>('ledger-checks/latest')).data.check, { timeout: 60_000 })
    .not.toBeNull();
  const { check, every_days: everyDays } = (await api.get<{ data: LatestLedgerCheck }>('ledger-checks/latest')).data;
  expect(check).toMatchObject({ ok: true, mode: 'full', source: 'schedule', problems: 0 });
  expect(everyDays).toBe(7);

  const errors = watchConsole(page);
  await uiLogin(page, accounting.email, accounting.password);
  await page.goto('/dashboard');
  const panel = page.getByRole('region', { name: 'Ledger check' });
  await expect(panel.getByText('Passed', { exact: true })).toBeVisible();
  await expect(panel).toContainText(
    new RegExp(
      `Full check finished \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}.*: ${check?.pads.toLocaleString('en-US')} pads, ${check?.events.toLocaleString('en-US')} events, \\d+ certificates, no problems\\.`,
    ),
  );
  await expect(panel).toContainText('Runs on its own every week.');
  await expect(page.getByRole('region', { name: /^Ledger check failed/ })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/dashboard-ledger-check-1280.png` });
  await page.setViewportSize(PHONE);
  await expect(panel).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/dashboard-ledger-check-390.png` });
  expect(errors).toEqual([]);
});

test('when a full check is running, then the Dashboard says on one status line how far it has got, above the last result', async ({
  page,
  request,
}) => {
  const accounting = await createUser(await adminApi(request), { role_id: 8 });
  /* A check of test data ends within a second: the answer is a five-year check's, half done, after last week's. */
  const week = Date.now() - 7 * 86_400_000;
  const latest = latestLedgerCheckSchema.parse({
    check: {
      id: 41,
      mode: 'full',
      source: 'schedule',
      ran_by: 'scheduled check on instance 2417-4c1d9e02',
      started_at: new Date(week).toISOString(),
      finished_at: new Date(week + 27_000).toISOString(),
      ok: true,
      pads: 402_000,
      events: 5_087_499,
      certificates: 1_284,
      problems: 0,
      problem_lines: [],
    },
    every_days: 7,
    running: {
      mode: 'full',
      started_at: new Date(Date.now() - 14_000).toISOString(),
      pads: 187_345,
      pads_total: 402_000,
      events: 2_369_118,
    },
  });
  await page.route('**/api/ledger-checks/latest', (route) => route.fulfill({ json: { data: latest } }));

  const errors = watchConsole(page);
  await uiLogin(page, accounting.email, accounting.password);
  await page.goto('/dashboard');
  const panel = page.getByRole('region', { name: 'Ledger check' });
  await expect(panel.getByRole('status')).toHaveText(
    /^Full check running: 187,345 of 402,000 pads \(46%\), 2,369,118 events, [\d,]+ events\/s$/,
  );
  await expect(panel.getByRole('progressbar', { name: 'Ledger check progress' })).toHaveAttribute('aria-valuenow', '46');
  await expect(panel.getByText('Running', { exact: true })).toBeVisible();
  await expect(panel.getByText('Last passed', { exact: true })).toBeVisible();
  await expect(panel).toContainText('402,000 pads, 5,087,499 events, 1,284 certificates, no problems.');
  await page.screenshot({ path: `${SHOTS}/dashboard-ledger-check-running-1280.png` });
  await page.setViewportSize(PHONE);
  await expect(panel.getByRole('status')).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/dashboard-ledger-check-running-390.png` });
  expect(errors).toEqual([]);
});
