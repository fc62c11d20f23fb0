import { expect, test } from '@playwright/test';
import { ADMIN, adminApi, uiLogin, uniq } from './support.ts';
import {
  bodyRows,
  confirm,
  dialog,
  expectColumns,
  expectFieldError,
  pager,
  phoneCards,
  pick,
  rowWith,
  search,
  shot,
} from './admin-support.ts';

const PLACEHOLDER = 'Search by company name';

test('when an admin manages companies, then search, Company Type filter, pages, add, edit, view and delete work', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const tag = `Lines${uniq()}`;
  for (let i = 0; i < 11; i += 1) await admin.post('add-company', { name: `${tag} Co ${i}`, company_type_id: i < 6 ? 2 : 1 });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/companies');
  await expect(page.getByRole('heading', { name: 'Companies' })).toBeVisible();
  await expectColumns(page, ['Name', 'Company Type', 'Actions']);

  await search(page, PLACEHOLDER, tag);
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(rowWith(page, `${tag} Co 10`)).toContainText('Shipping Line');
  await pager(page).getByRole('button', { name: '2', exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(1);

  await page.getByRole('button', { name: 'Filter' }).click();
  await pick(page, 'Company Type', 'Travel Agency');
  await expect(bodyRows(page)).toHaveCount(6);
  await expect(pager(page)).toBeHidden();
  await expect(bodyRows(page).filter({ hasText: 'Shipping Line' })).toHaveCount(0);
  await shot(page, 'companies-list-desktop');
  await page.getByRole('button', { name: 'Clear Filter' }).click();
  await expect(bodyRows(page)).toHaveCount(10);

  await page.getByRole('button', { name: 'Add Company' }).click();
  const add = dialog(page, 'Add Company');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'Name is required');
  await expectFieldError(add.getByRole('combobox', { name: 'Company Type' }), 'Company Type is required');
  await add.getByLabel('Name').fill(`${tag} Co 3`);
  await pick(add, 'Company Type', 'Partner');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'The name has already been taken.');
  await shot(page, 'companies-add-desktop');
  await add.getByLabel('Name').fill(`${tag} Partners`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await expect(rowWith(page, `${tag} Partners`)).toContainText('Partner');

  await rowWith(page, `${tag} Partners`).getByRole('button', { name: /^EDIT/ }).click();
  const edit = dialog(page, 'Edit Company');
  await expect(edit.getByLabel('Name')).toHaveValue(`${tag} Partners`);
  await expect(edit.getByRole('combobox', { name: 'Company Type' })).toHaveValue('Partner');
  await pick(edit, 'Company Type', 'Travel Agency');
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(rowWith(page, `${tag} Partners`)).toContainText('Travel Agency');

  await rowWith(page, `${tag} Partners`).getByRole('button', { name: /^VIEW/ }).click();
  const details = dialog(page, 'Company Details');
  await expect(details).toContainText(`${tag} Partners`);
  await expect(details).toContainText('Travel Agency');
  await details.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  await rowWith(page, `${tag} Partners`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this company?');
  await expect(rowWith(page, `${tag} Partners`)).toHaveCount(0);

  const owner = (await admin.get<{ data: Array<{ id: number; name: string }> }>('get-companies')).data.find(
    (c) => c.name === `${tag} Co 4`,
  );
  await admin.post('add-route', { company_id: owner?.id, name: `Route ${tag}`, tin: '123' });
  await rowWith(page, `${tag} Co 4`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this company?');
  await expect(page.getByText('Error deleting company')).toBeVisible();
  await expect(page.getByText('1 route belongs to this company. Move it to another company or delete it first.')).toBeVisible();
  await expect(rowWith(page, `${tag} Co 4`)).toBeVisible();

  await search(page, PLACEHOLDER, `none-${tag}`);
  await expect(page.getByText('No companies')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await search(page, PLACEHOLDER, tag);
  await expect(phoneCards(page, 'Companies')).toHaveCount(10);
  await expect(
    phoneCards(page, 'Companies')
      .first()
      .getByRole('button', { name: /^DELETE/ }),
  ).toBeInViewport();
  await shot(page, 'companies-list-phone');
});
