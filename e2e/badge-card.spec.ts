import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminApi, createBranch, createUser, PHONE, SHOTS, uiLogin, uniq, uniqLetters } from './support.ts';

function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'badge-e2e-'));
  try {
    fs.writeFileSync(path.join(dir, 'badge.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'badge.pdf'), '-']).toString();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('when a courier opens My QR Code on a phone, then the name is under the code and full screen fills the width on white', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const courier = await createUser(admin, { role_id: 10, first_name: 'Ramon', last_name: `Pier ${uniqLetters()}` });
  await page.setViewportSize(PHONE);
  await uiLogin(page, courier.email, courier.password);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My QR Code' }).click();
  const modal = page.getByRole('dialog', { name: 'My QR Code' });
  await expect(modal.getByRole('img', { name: 'My QR code' })).toBeVisible();
  await expect(modal.getByTestId('qr-name')).toHaveText(courier.full_name);

  await modal.getByRole('button', { name: 'Show full screen' }).click();
  const full = page.getByRole('dialog', { name: `QR code of ${courier.full_name}` });
  const code = full.getByRole('img', { name: 'My QR code, full screen' });
  await expect(code).toBeVisible();
  await expect(full.getByText(courier.full_name, { exact: true })).toBeVisible();
  const box = await code.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(PHONE.width * 0.9);
  expect(await full.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: `${SHOTS}/qr-full-screen-390.png` });

  await full.getByRole('button', { name: 'Close full screen' }).click();
  await expect(modal).toBeVisible();
});

test('when an admin prints a badge from Users, then a new tab opens the badge card PDF with name, role and branch', async ({
  page,
  context,
  request,
}) => {
  const admin = await adminApi(request);
  const branch = await createBranch(admin, `Roxas Pier ${uniq()}`);
  const driver = await createUser(admin, {
    role_id: 10,
    branch_id: branch.id,
    first_name: 'Badge',
    last_name: `Holder ${uniqLetters()}`,
  });
  await uiLogin(page, 'admin@padtrack.test', 'Admin@12345');
  await page.goto('/users');
  await page.getByPlaceholder('Search by name or email').fill(driver.email);
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: `PRINT BADGE ${driver.full_name}` }).click(),
  ]);
  await tab.waitForURL(/\/api\/user-badge\/\d+\/pdf\?/);
  const pdf = await request.get(tab.url());
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const text = pdfText(await pdf.body());
  expect(text).toContain(driver.full_name);
  expect(text).toContain('Driver');
  expect(text).toContain(branch.name);
});
