import { expect, test } from '@playwright/test';
import type { LatestLedgerCheck } from '../src/shared/schemas/ledger.ts';
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
