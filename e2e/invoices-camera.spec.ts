import { expect, test } from '@playwright/test';
import { adminApi, BASE_ARGS, SHOTS, uiLogin, watchConsole } from './support.ts';
import { requestThroughApi, transactionScene } from './invoices-support.ts';
import { badgePng, badgeVideo, type Person, fakeCamera, fakeCameraFile } from './badges.ts';

const CAMERA_Y4M = fakeCameraFile('invoice-badge');

/** Chromium's fake camera films the courier's badge; launch options apply to the whole file. */
test.use(fakeCamera(CAMERA_Y4M));

test.describe('the custodian picks the courier with the camera', () => {
  let custodian: Person;
  let courier: Person;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    const admin = await adminApi(request);
    const s = await transactionScene(admin, 2);
    custodian = s.custodian;
    courier = s.courier;
    await requestThroughApi(request, s.requester, s.office.id, s.route.id, 1);
    const renderer = await playwright.chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: BASE_ARGS,
    });
    badgeVideo(await badgePng(request, renderer, courier), CAMERA_Y4M);
    await renderer.close();
    await request.dispose();
  });

  test('when the camera sees the courier’s badge, then the Assign to select is filled with him', async ({ page }) => {
    const errors = watchConsole(page);
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto('/invoices');
    await page
      .getByRole('button', { name: /^View Request invoice/ })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Request Invoice Details' }).getByRole('button', { name: 'Issue', exact: true }).click();
    const issueModal = page.getByRole('dialog', { name: 'Create Issue Invoice' });
    await issueModal.getByRole('button', { name: 'Open Scanner' }).click();
    const scanner = page.getByTestId('qr-scanner');
    await expect(issueModal.getByText(`Scanned: ${courier.full_name}`)).toBeVisible();
    await expect(issueModal.getByRole('combobox', { name: 'Assign to' })).toHaveValue(courier.full_name);
    await expect(scanner).toHaveAttribute('data-state', 'not-started');
    await expect(scanner.getByRole('button', { name: 'Scan Image File' })).toBeEnabled();
    await page.screenshot({ path: `${SHOTS}/invoices-camera-scan-desktop.png` });
    expect(errors).toEqual([]);
  });
});
