import { expect, test } from '@playwright/test';
import { ADMIN, adminApi, createUser, uiLogin, uniq } from './support.ts';
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

const PLACEHOLDER = 'Search by branch name';

test('when an admin manages branches, then search, pages, add, edit, view and delete work', async ({ page, request }) => {
  const admin = await adminApi(request);
  const tag = `Agency${uniq()}`;
  const company = (await admin.post<{ data: { id: number; name: string } }>('add-company', { name: `Owner ${tag}`, company_type_id: 2 }))
    .data;
  const pier = (await admin.post<{ data: { id: number; name: string } }>('add-location', { name: `Pier ${tag}` })).data;
  const port = (await admin.post<{ data: { id: number; name: string } }>('add-location', { name: `Port ${tag}` })).data;
  for (let i = 0; i < 11; i += 1)
    await admin.post('add-branch', { company_id: company.id, name: `${tag} Desk ${i}`, location_id: pier.id });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/branches');
  await expect(page.getByRole('heading', { name: 'Branches/Agencies' })).toBeVisible();
  await expectColumns(page, ['Company', 'Name', 'Location', 'Actions']);

  await search(page, PLACEHOLDER, tag.toLowerCase());
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(rowWith(page, `${tag} Desk 10`)).toContainText(`Owner ${tag}`);
  await expect(rowWith(page, `${tag} Desk 10`)).toContainText(`Pier ${tag}`);
  await pager(page).getByRole('button', { name: '2', exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(1);
  await shot(page, 'branches-list-desktop');

  await page.getByRole('button', { name: 'Add Branch' }).click();
  const add = dialog(page, 'Add Branch');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByRole('combobox', { name: 'Company' }), 'Company is required');
  await expectFieldError(add.getByLabel('Name'), 'Name is required');
  await expectFieldError(add.getByRole('combobox', { name: 'Location' }), 'Location is required');
  await pick(add, 'Company', company.name);
  await add.getByLabel('Name').fill(`${tag} Desk 7`);
  await pick(add, 'Location', port.name);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'The name has already been taken.');
  await shot(page, 'branches-add-desktop');
  await add.getByLabel('Name').fill(`${tag} Annex`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Branch created successfully')).toBeVisible();
  await search(page, PLACEHOLDER, `${tag} Annex`);
  await expect(rowWith(page, `${tag} Annex`)).toContainText(port.name);

  await rowWith(page, `${tag} Annex`).getByRole('button', { name: /^EDIT/ }).click();
  const edit = dialog(page, 'Edit Branch');
  await expect(edit.getByLabel('Name')).toHaveValue(`${tag} Annex`);
  await expect(edit.getByRole('combobox', { name: 'Location' })).toHaveValue(port.name);
  await pick(edit, 'Location', pier.name);
  await edit.getByLabel('Name').fill(`${tag} Annex Two`);
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(rowWith(page, `${tag} Annex Two`)).toContainText(pier.name);

  await rowWith(page, `${tag} Annex Two`).getByRole('button', { name: /^VIEW/ }).click();
  const details = dialog(page, 'Branch Details');
  await expect(details).toContainText(company.name);
  await expect(details).toContainText(pier.name);
  await details.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  await rowWith(page, `${tag} Annex Two`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this branch?');
  await expect(page.getByText('No branches')).toBeVisible();

  const desk = (await admin.get<{ data: Array<{ id: number; name: string }> }>('get-branches')).data.find(
    (b) => b.name === `${tag} Desk 3`,
  );
  await createUser(admin, { role_id: 7, branch_id: desk?.id });
  await search(page, PLACEHOLDER, `${tag} Desk 3`);
  await rowWith(page, `${tag} Desk 3`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this branch?');
  await expect(page.getByText('Error deleting branch')).toBeVisible();
  await expect(page.getByText('1 user belongs to this branch. Move that user to another branch first.')).toBeVisible();
  await expect(rowWith(page, `${tag} Desk 3`)).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await search(page, PLACEHOLDER, tag);
  await expect(phoneCards(page, 'Branches/Agencies')).toHaveCount(10);
  await expect(
    phoneCards(page, 'Branches/Agencies')
      .first()
      .getByRole('button', { name: /^DELETE/ }),
  ).toBeInViewport();
  await shot(page, 'branches-list-phone');
});
