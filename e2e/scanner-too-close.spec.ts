import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { fakeCamera, fakeCameraFile } from './badges.ts';
import { adminApi, createUser, PHONE, SHOTS, uiLogin, watchConsole } from './support.ts';

const BLANK_Y4M = fakeCameraFile('no-code');

/** Chromium's fake camera films a grey frame with no code on it, as a badge held against the lens looks. */
test.use({ viewport: PHONE, ...fakeCamera(BLANK_Y4M) });

test.describe('the scanner when nothing decodes', () => {
  let user: { email: string; password: string };

  test.beforeAll(async ({ playwright }, testInfo) => {
    execFileSync('ffmpeg', [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=0x808080:s=640x480:d=1:r=10',
      '-pix_fmt',
      'yuv420p',
      BLANK_Y4M,
    ]);
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    user = await createUser(await adminApi(request), { role_id: 7 });
    await request.dispose();
  });

  test('when Open Scanner is tapped once, then the camera runs, and after 3 s without a code it says to move the code farther away', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    await uiLogin(page, user.email, user.password);
    await page.goto('/invoices');
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Create Return Invoice' });
    await modal.getByRole('button', { name: 'Open Scanner' }).click();
    const scanner = modal.getByTestId('qr-scanner');
    await expect(scanner).toHaveAttribute('data-state', 'scanning', { timeout: 20_000 });
    await expect(scanner.getByRole('button', { name: 'Stop Camera' })).toBeVisible();
    const hint = scanner.getByRole('status').filter({ hasText: 'Move the code farther from the camera' });
    const scanningSince = Date.now();
    await expect(hint).toBeVisible({ timeout: 15_000 });
    expect(Date.now() - scanningSince).toBeGreaterThanOrEqual(1_500);
    await page.screenshot({ path: `${SHOTS}/scanner-too-close-390.png` });

    await scanner.getByRole('button', { name: 'Stop Camera' }).click();
    await expect(scanner).toHaveAttribute('data-state', 'not-started');
    await expect(hint).toBeHidden();
    await modal.getByRole('button', { name: 'Close Scanner' }).click();

    await modal.getByRole('button', { name: 'Scan Pad Labels' }).click();
    const padScanner = modal.getByTestId('qr-scanner');
    await expect(padScanner).toHaveAttribute('data-state', 'scanning', { timeout: 20_000 });
    await expect(padScanner.getByRole('status').filter({ hasText: 'Move the code farther from the camera' })).toBeVisible({
      timeout: 15_000,
    });
    expect(errors).toEqual([]);
  });
});
