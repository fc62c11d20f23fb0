import { expect, test, type Page } from '@playwright/test';
import { dialog, pick, rowWith, search } from './admin-support.ts';
import { ADMIN, adminApi, uiLogin, uniq } from './support.ts';

/** Ends the page's session on the server, as an expiry or a revocation elsewhere would. */
async function endSessionOnServer(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('padtrack.token'));
  const res = await page.request.post('/api/logout', {
    headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(res.status()).toBe(200);
}

/** Signs in as the admin and fills the Add Company form without sending it. */
async function fillNewCompany(page: Page, name: string) {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/companies');
  await page.getByRole('button', { name: 'Add Company' }).click();
  const add = dialog(page, 'Add Company');
  await add.getByLabel('Name').fill(name);
  await pick(add, 'Company Type', 'Partner');
  return add;
}

test('when the session ends while a form is filled, then sign-in happens in place, the form keeps its values and the submit can be repeated', async ({
  page,
  request,
}) => {
  const name = `Session Keep ${uniq()}`;
  const add = await fillNewCompany(page, name);
  await endSessionOnServer(page);

  await add.getByRole('button', { name: 'Add', exact: true }).click();
  const signIn = dialog(page, 'Sign in again');
  await expect(signIn).toBeVisible();
  await expect(signIn.getByRole('alert')).toContainText('Your session has ended. Please sign in again.');
  await expect(page.getByText('Unauthenticated.')).toHaveCount(0);
  await expect(add.getByLabel('Name')).toHaveValue(name);

  await signIn.getByRole('textbox', { name: 'Password' }).fill('wrong-password');
  await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(signIn.getByText('These credentials do not match our records.')).toBeVisible();
  await signIn.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
  await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(signIn).toBeHidden();
  await expect(page).toHaveURL(/\/companies/);
  await expect(add.getByLabel('Name')).toHaveValue(name);

  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await search(page, 'Search by company name', name);
  await expect(rowWith(page, name)).toHaveCount(1);
  const admin = await adminApi(request);
  const stored = await admin.get<{ data: Array<{ name: string }> }>('get-companies-with-search', { search: name });
  expect(stored.data.map((c) => c.name)).toEqual([name]);
});

test('when the session is gone on reload, then sign-in returns to the exact address', async ({ page }) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.evaluate(() => localStorage.removeItem('padtrack.token'));
  await page.goto('/users?search=nobody-here&page=1');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel(/^Password/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/users\?search=nobody-here&page=1$/);
});

test('when a save cannot reach the server, then it says No connection, keeps the form, and claims no success', async ({
  page,
  request,
}) => {
  const name = `Offline Co ${uniq()}`;
  const add = await fillNewCompany(page, name);
  await page.route('**/api/add-company', (route) => route.abort('internetdisconnected'));
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('No connection. Your changes were not saved.')).toBeVisible();
  await expect(page.getByText('An unexpected error occurred')).toHaveCount(0);
  await expect(page.getByText('Company created successfully')).toHaveCount(0);
  await expect(add.getByLabel('Name')).toHaveValue(name);
  const admin = await adminApi(request);
  expect((await admin.get<{ data: unknown[] }>('get-companies-with-search', { search: name })).data).toEqual([]);

  await page.unroute('**/api/add-company');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Company created successfully')).toBeVisible();
});

test('when a list refresh fails, then the rows stay with a stale-data banner and Retry brings it back', async ({ page }) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/companies');
  await expect(page.getByRole('table').first().locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('table').first()).not.toHaveAttribute('aria-busy', 'true');
  const rowsBefore = await page.getByRole('table').first().locator('tbody tr').count();

  await page.route('**/api/get-companies-with-search**', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Add Company' }).click();
  const add = dialog(page, 'Add Company');
  await add.getByLabel('Name').fill(`Stale ${uniq()}`);
  await pick(add, 'Company Type', 'Partner');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();

  const banner = page.getByRole('alert').filter({ hasText: 'Could not refresh this list; it shows what was loaded before.' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('No connection. Could not load the latest data.');
  expect(await page.getByRole('table').first().locator('tbody tr').count()).toBe(rowsBefore);

  await page.unroute('**/api/get-companies-with-search**');
  await banner.getByRole('button', { name: 'Retry' }).click();
  await expect(banner).toBeHidden();
});
