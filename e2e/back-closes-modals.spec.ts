import { expect, test, type Page } from '@playwright/test';
import { dialog, search, shot } from './admin-support.ts';
import { ADMIN, adminApi, createBranch, createRoute, PHONE, uiLogin, uniq } from './support.ts';

/** Opens a modal with a button, then the browser's Back must close it and leave the list as it was. */
async function backCloses(page: Page, open: () => Promise<void>, title: string, path: string) {
  await open();
  await expect(dialog(page, title)).toBeVisible();
  await page.goBack();
  await expect(dialog(page, title)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${path}(\\?search=[^&]+)?$`));
}

test('when a modal is open on any list and the user presses Back, then the modal closes and the list stays', async ({ page, request }) => {
  test.setTimeout(180_000);
  const admin = await adminApi(request);
  const tag = `Back${uniq()}`;
  const branch = await createBranch(admin, `${tag} Branch`);
  const route = await createRoute(admin, `${tag} Route`);
  const company = (await admin.get<{ data: Array<{ id: number; name: string }> }>('get-companies', { search: 'Lines' })).data[0];
  await admin.post('add-location', { name: `${tag} Pier` });
  await uiLogin(page, ADMIN.email, ADMIN.password);

  const lists = [
    { path: '/users', add: 'Add User', noun: 'User', placeholder: 'Search by name or email', row: ADMIN.email },
    { path: '/companies', add: 'Add Company', noun: 'Company', placeholder: 'Search by company name', row: company.name },
    { path: '/routes', add: 'Add Route', noun: 'Route', placeholder: 'Search by route name or TIN', row: route.name },
    { path: '/branches', add: 'Add Branch', noun: 'Branch', placeholder: 'Search by branch name', row: branch.name },
    { path: '/locations', add: 'Add Location', noun: 'Location', placeholder: 'Search by location name', row: `${tag} Pier` },
  ];
  for (const list of lists) {
    await page.goto(list.path);
    await search(page, list.placeholder, list.row);
    const row = page.getByRole('row').filter({ hasText: list.row }).first();
    await expect(row).toBeVisible();

    await backCloses(page, () => page.getByRole('button', { name: list.add }).click(), `Add ${list.noun}`, list.path);
    await backCloses(page, () => row.getByRole('button', { name: /^VIEW/ }).click(), `${list.noun} Details`, list.path);
    await backCloses(page, () => row.getByRole('button', { name: /^EDIT/ }).click(), `Edit ${list.noun}`, list.path);
    await expect(row).toBeVisible();

    // Closing with the modal's own button steps back too, so Back afterwards leaves the screen as before, not into the modal.
    await page.getByRole('button', { name: list.add }).click();
    await dialog(page, `Add ${list.noun}`).getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog(page, `Add ${list.noun}`)).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`${list.path}(\\?search=[^&]+)?$`));
  }

  await page.goto('/reports');
  await backCloses(page, () => page.getByRole('button', { name: 'Generate Report' }).click(), 'Generate Report', '/reports');
  await page.goto('/pads');
  await backCloses(page, () => page.getByRole('button', { name: 'Add Pad' }).click(), 'Add Pad', '/pads');
  await page.goto('/invoices');
  await backCloses(page, () => page.getByRole('button', { name: 'Request', exact: true }).click(), 'Create Request Invoice', '/invoices');

  await page.setViewportSize(PHONE);
  await page.goto('/locations');
  await page.getByRole('button', { name: 'Add Location' }).click();
  await expect(dialog(page, 'Add Location')).toBeVisible();
  await shot(page, 'back-add-location-390');
  await page.goBack();
  await expect(dialog(page, 'Add Location')).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Locations' })).toBeVisible();
});
