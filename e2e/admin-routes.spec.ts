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

const PLACEHOLDER = 'Search by route name or TIN';

test('when an admin manages routes, then search by name or TIN, pages, add, edit, view and delete work', async ({ page, request }) => {
  const admin = await adminApi(request);
  const tag = `Leg${uniq()}`;
  const company = (await admin.post<{ data: { id: number; name: string } }>('add-company', { name: `Starlite ${tag}`, company_type_id: 1 }))
    .data;
  const other = (await admin.post<{ data: { id: number; name: string } }>('add-company', { name: `Supercat ${tag}`, company_type_id: 1 }))
    .data;
  for (let i = 0; i < 11; i += 1) await admin.post('add-route', { company_id: company.id, name: `${tag} Trip ${i}`, tin: `00${i}-555` });
  await admin.post('add-route', { company_id: other.id, name: 'Cebu - Ormoc', tin: `TIN-${tag}` });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/routes');
  await expect(page.getByRole('heading', { name: 'Routes' })).toBeVisible();
  await expectColumns(page, ['Company', 'Name', 'TIN', 'Actions']);

  await search(page, PLACEHOLDER, tag.toUpperCase());
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(rowWith(page, 'Cebu - Ormoc')).toContainText(`Supercat ${tag}`);
  await expect(rowWith(page, 'Cebu - Ormoc')).toContainText(`TIN-${tag}`);
  await pager(page).getByRole('button', { name: 'Next page' }).click();
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(pager(page).getByRole('button', { name: 'Next page' })).toBeDisabled();
  await shot(page, 'routes-list-desktop');

  await search(page, PLACEHOLDER, `tin-${tag}`);
  await expect(bodyRows(page)).toHaveCount(1);

  await page.getByRole('button', { name: 'Add Route' }).click();
  const add = dialog(page, 'Add Route');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByRole('combobox', { name: 'Company' }), 'Company is required');
  await expectFieldError(add.getByLabel('Name'), 'Name is required');
  await expectFieldError(add.getByLabel('TIN'), 'TIN is required');
  await pick(add, 'Company', company.name);
  await add.getByLabel('Name').fill(`${tag} Trip 2`);
  await add.getByLabel('TIN').fill('777-888');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Name'), 'This company already has a route with this name.');
  await shot(page, 'routes-add-desktop');
  await add.getByLabel('Name').fill(`${tag} Night Trip`);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await search(page, PLACEHOLDER, `${tag} Night`);
  await expect(rowWith(page, `${tag} Night Trip`)).toContainText('777-888');

  await rowWith(page, `${tag} Night Trip`).getByRole('button', { name: /^EDIT/ }).click();
  const edit = dialog(page, 'Edit Route');
  await expect(edit.getByRole('combobox', { name: 'Company' })).toHaveValue(company.name);
  await expect(edit.getByLabel('TIN')).toHaveValue('777-888');
  await pick(edit, 'Company', other.name);
  await edit.getByLabel('TIN').fill('999-000');
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(rowWith(page, `${tag} Night Trip`)).toContainText(other.name);
  await expect(rowWith(page, `${tag} Night Trip`)).toContainText('999-000');

  await rowWith(page, `${tag} Night Trip`).getByRole('button', { name: /^VIEW/ }).click();
  const details = dialog(page, 'Route Details');
  await expect(details).toContainText(other.name);
  await expect(details).toContainText('999-000');
  await details.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  await rowWith(page, `${tag} Night Trip`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this route?');
  await expect(page.getByText('No routes')).toBeVisible();

  const route = (await admin.get<{ data: Array<{ id: number; name: string }> }>('get-routes')).data.find((r) => r.name === `${tag} Trip 5`);
  await admin.post('add-pad', { route_id: route?.id, series_from: 5_000_001, series_to: 5_000_100 });
  await search(page, PLACEHOLDER, `${tag} Trip 5`);
  await rowWith(page, `${tag} Trip 5`)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this route?');
  await expect(page.getByText('Error deleting route')).toBeVisible();
  await expect(page.getByText(/pads? uses? this route, so it cannot be deleted\. Edit the route instead\./)).toBeVisible();
  await expect(rowWith(page, `${tag} Trip 5`)).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await search(page, PLACEHOLDER, tag);
  await expect(phoneCards(page, 'Routes')).toHaveCount(10);
  await expect(
    phoneCards(page, 'Routes')
      .first()
      .getByRole('button', { name: /^DELETE/ }),
  ).toBeInViewport();
  await shot(page, 'routes-list-phone');
});
