import { expect, test, type Page } from '@playwright/test';
import { ADMIN, adminApi, createUser, headOffice, PHONE, SHOTS, uiLogin } from './support.ts';

const roleName = async (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('padtrack.user') ?? '{}') as { role?: { name?: string } }).role?.name ?? '');

test('when a courier signs in on a phone, then the header shows his name and role', async ({ page, request }) => {
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id, first_name: 'Nestor', last_name: 'Bautista' });
  await page.setViewportSize(PHONE);
  await uiLogin(page, courier.email, courier.password);
  const header = page.getByRole('banner');
  const role = await roleName(page);
  expect(role).not.toEqual('');
  await expect(header.getByText(courier.full_name)).toBeInViewport({ ratio: 1 });
  await expect(header.getByText(role, { exact: true })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: `${SHOTS}/header-phone-courier.png` });
});

test('when an admin (who has the receipt finder) is on a phone, then the header keeps name and role, and the footer ends the page', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await uiLogin(page, ADMIN.email, ADMIN.password);
  const role = await roleName(page);
  const name = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('padtrack.user') ?? '{}') as { full_name?: string }).full_name ?? '',
  );
  const header = page.getByRole('banner');
  await expect(header.getByText(name)).toBeInViewport({ ratio: 1 });
  await expect(header.getByText(role, { exact: true })).toBeInViewport({ ratio: 1 });
  await header.getByRole('button', { name: 'Find receipt no.' }).click();
  await expect(page.getByRole('textbox', { name: 'Find receipt no.' })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/header-phone-admin-find-390.png` });
  await page.keyboard.press('Escape');

  // The footer is not fixed on a phone: it follows the screen's content, at the end of the page.
  const footer = page.getByTestId('page-footer');
  await expect(footer).toContainText('All rights reserved.');
  await page.goto('/locations');
  await expect(page.getByRole('heading', { name: 'Locations' })).toBeVisible();
  await expect(page.locator('.mantine-AppShell-footer')).toHaveCount(0);
  await footer.scrollIntoViewIfNeeded();
  await expect(footer).toBeInViewport();
  const bottom = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight - window.scrollY);
  expect(bottom).toBeLessThanOrEqual(1);
  await page.screenshot({ path: `${SHOTS}/footer-phone-end-390.png` });

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('contentinfo')).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/footer-desktop-1280.png` });
});

for (const size of [{ width: 1280, height: 800 }, PHONE]) {
  test(`when a toast appears over an open modal at ${size.width} px, then it leaves the modal's title bar and close button uncovered`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await uiLogin(page, ADMIN.email, ADMIN.password);
    await page.goto('/locations');
    await page.route('**/api/add-location', (route) =>
      route.fulfill({ status: 409, json: { message: 'That location is already listed' } }),
    );
    await page.getByRole('button', { name: 'Add Location' }).click();
    const modal = page.getByRole('dialog', { name: 'Add Location' });
    await modal.getByRole('textbox', { name: 'Name' }).fill('Pier Uno');
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'That location is already listed' });
    await expect(toast).toBeVisible();
    await expect(modal).toBeVisible();
    const titleBar = await modal.locator('.mantine-Modal-header').boundingBox();
    const close = await modal.getByRole('button', { name: 'Close' }).boundingBox();
    const box = await toast.boundingBox();
    if (!titleBar || !close || !box) throw new Error('the modal header, its close button or the toast has no box');
    const overlaps = (a: typeof box, b: typeof box) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps(box, titleBar)).toBe(false);
    expect(overlaps(box, close)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/toast-over-modal-${size.width}.png` });
  });
}
