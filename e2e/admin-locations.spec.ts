import { expect, test } from '@playwright/test';
import { ADMIN, adminApi, uiLogin, uniq } from './support.ts';
import { bodyRows, confirm, dialog, expectColumns, expectFieldError, pager, phoneCards, rowWith, search, shot } from './admin-support.ts';

const PLACEHOLDER = 'Search by location name';

test('when an admin manages locations, then search, pages, add, edit, view and delete work as docs/spec.md §2 words them', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const tag = `Pier${uniq()}`;
  for (let i = 0; i < 11; i += 1) await admin.post('add-location', { name: `${tag} Dock ${i}` });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/locations');
  await expect(page.getByRole('heading', { name: 'Locations' })).toBeVisible();
  await expectColumns(page, ['Name', 'Actions']);

  await search(page, PLACEHOLDER, tag.toLowerCase());
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(rowWith(page, `${tag} Dock 10`)).toBeVisible();
  await pager(page).getByRole('button', { name: '2', exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(rowWith(page, `${tag} Dock 0`)).toBeVisible();
  await expect(page.getByPlaceholder(PLACEHOLDER)).toHaveValue(tag.toLowerCase());
  await shot(page, 'locations-list-desktop');

  await search(page, PLACEHOLDER, `${tag} Dock 1`);
  await expect(pager(page)).toBeHidden();
  await expect(bodyRows(page)).toHaveCount(2);

  await page.getByRole('button', { name: 'Add Location' }).click();
  const add = dialog(page, 'Add Location');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'Name is required');
  await add.getByLabel('Name').fill(`${tag} Dock 1`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'The name has already been taken.');
  await shot(page, 'locations-add-desktop');
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(add).toBeHidden();
  await page.getByRole('button', { name: 'Add Location' }).click();
  await expect(add.getByLabel('Name')).toHaveValue('');
  await expect(add.getByLabel('Name')).not.toHaveAttribute('aria-invalid', 'true');
  await add.getByLabel('Name').fill(`${tag} Dock 1 North`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Location created successfully')).toBeVisible();
  await expect(rowWith(page, `${tag} Dock 1 North`)).toBeVisible();

  await rowWith(page, `${tag} Dock 1 North`).getByRole('button', { name: /^EDIT/ }).click();
  const edit = dialog(page, 'Edit Location');
  await expect(edit.getByLabel('Name')).toHaveValue(`${tag} Dock 1 North`);
  await edit.getByLabel('Name').fill(`${tag} Dock 1 South`);
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(rowWith(page, `${tag} Dock 1 South`)).toBeVisible();

  await rowWith(page, `${tag} Dock 1 South`).getByRole('button', { name: /^VIEW/ }).click();
  const details = dialog(page, 'Location Details');
  await expect(details).toContainText(`${tag} Dock 1 South`);
  await details.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();
  await expect(details).toBeHidden();

  await rowWith(page, `${tag} Dock 1 South`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this location?');
  await expect(page.getByText('Location deleted successfully')).toBeVisible();
  await expect(rowWith(page, `${tag} Dock 1 South`)).toHaveCount(0);

  const company = (await admin.post<{ data: { id: number } }>('add-company', { name: `Owner ${tag}`, company_type_id: 1 })).data;
  const used = (await admin.get<{ data: Array<{ id: number; name: string }> }>('get-locations')).data.find(
    (l) => l.name === `${tag} Dock 1`,
  );
  await admin.post('add-branch', { company_id: company.id, name: `Agency ${tag}`, location_id: used?.id });
  await rowWith(page, `${tag} Dock 1`)
    .filter({ hasNotText: 'Dock 10' })
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this location?');
  await expect(page.getByText('Error deleting location')).toBeVisible();
  await expect(page.getByText('1 branch is at this location. Move it to another location first.')).toBeVisible();
  await expect(rowWith(page, `${tag} Dock 1`).first()).toBeVisible();

  await search(page, PLACEHOLDER, `nothing-${tag}`);
  await expect(page.getByText('No locations')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await search(page, PLACEHOLDER, tag);
  await expect(phoneCards(page, 'Locations')).toHaveCount(10);
  await expect(
    phoneCards(page, 'Locations')
      .first()
      .getByRole('button', { name: /^DELETE/ }),
  ).toBeInViewport();
  await shot(page, 'locations-list-phone');
});
