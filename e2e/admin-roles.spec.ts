import { expect, test } from '@playwright/test';
import { ADMIN, adminApi, createUser, uiLogin, uniq } from './support.ts';
import { bodyRows, confirm, dialog, expectColumns, expectFieldError, pager, phoneCards, rowWith, search, shot } from './admin-support.ts';

const PLACEHOLDER = 'Search by role name';

test('when an admin manages roles, then search, pages, add, rename, view and delete work, and system roles stay', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const tag = `Crew${uniq()}`;
  for (let i = 0; i < 11; i += 1) await admin.post('add-role', { name: `${tag} Rank ${i}` });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/roles');
  await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible();
  await expectColumns(page, ['ID', 'Name', 'Type', 'Actions']);
  await expect(rowWith(page, 'IT Admin')).toContainText('System');
  await expect(rowWith(page, 'IT Admin').getByRole('button', { name: /^DELETE/ })).toHaveCount(0);
  await shot(page, 'roles-list-desktop');

  await search(page, PLACEHOLDER, tag);
  await expect(bodyRows(page)).toHaveCount(10);
  await pager(page).getByRole('button', { name: '2', exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(rowWith(page, `${tag} Rank 10`)).toContainText('Custom');

  await page.getByRole('button', { name: 'Add Role' }).click();
  const add = dialog(page, 'Add Role');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'Name is required');
  await add.getByLabel('Name').fill('messenger');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'The name has already been taken.');
  await add.getByLabel('Name').fill(`${tag} Purser`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await search(page, PLACEHOLDER, `${tag} Purser`);
  await expect(bodyRows(page)).toHaveCount(1);

  await rowWith(page, `${tag} Purser`).getByRole('button', { name: /^EDIT/ }).click();
  const edit = dialog(page, 'Edit Role');
  await expect(edit.getByLabel('Name')).toHaveValue(`${tag} Purser`);
  await edit.getByLabel('Name').fill(`${tag} Purser Chief`);
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(rowWith(page, `${tag} Purser Chief`)).toBeVisible();

  await rowWith(page, `${tag} Purser Chief`).getByRole('button', { name: /^VIEW/ }).click();
  const details = dialog(page, 'Role Details');
  await expect(details).toContainText(`${tag} Purser Chief`);
  await expect(details).toContainText('Custom role');
  await details.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  await rowWith(page, `${tag} Purser Chief`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this role?');
  await expect(page.getByText('No roles')).toBeVisible();

  const role = (await admin.get<{ data: Array<{ id: number; name: string }> }>('get-roles')).data.find((r) => r.name === `${tag} Rank 4`);
  await createUser(admin, { role_id: role?.id ?? 0 });
  await search(page, PLACEHOLDER, `${tag} Rank 4`);
  await rowWith(page, `${tag} Rank 4`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this role?');
  await expect(page.getByText('Error deleting role')).toBeVisible();
  await expect(page.getByText('1 user has this role. Give that user another role first.')).toBeVisible();
  await expect(rowWith(page, `${tag} Rank 4`)).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await search(page, PLACEHOLDER, tag);
  await expect(phoneCards(page, 'Roles')).toHaveCount(10);
  await shot(page, 'roles-list-phone');
});
