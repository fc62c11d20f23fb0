import { expect, test } from '@playwright/test';
import {
  ADMIN,
  adminApi,
  animationsSettled,
  apiAs,
  createBranch,
  createUser,
  headOffice,
  PASSWORD,
  uiLogin,
  uniqLetters,
} from './support.ts';
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

const PLACEHOLDER = 'Search by name or email';

test('when an admin manages users, then search, Role filter, pages, add, edit, view, delete, reset and activation work', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const tag = `zed${uniqLetters()}`;
  const branch = await createBranch(admin, `Office ${tag}`);
  for (let i = 0; i < 11; i += 1)
    await createUser(admin, {
      role_id: i < 4 ? 10 : 8,
      branch_id: branch.id,
      first_name: `Tess ${tag}`,
      last_name: `Crew ${'abcdefghijk'[i]}`,
    });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expectColumns(page, ['First Name', 'Last Name', 'Email', 'Role', 'Branch', 'Status', 'Actions']);

  await search(page, PLACEHOLDER, tag.toUpperCase());
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(rowWith(page, 'Crew k')).toContainText('Accounting');
  await expect(rowWith(page, 'Crew k')).toContainText(`Office ${tag}`);
  await expect(rowWith(page, 'Crew k')).toContainText('Active');
  await pager(page).getByRole('button', { name: '2', exact: true }).click();
  await expect(bodyRows(page)).toHaveCount(1);

  await page.getByRole('button', { name: 'Filter' }).click();
  await pick(page, 'Role', 'Driver');
  await expect(bodyRows(page)).toHaveCount(4);
  await expect(bodyRows(page).filter({ hasText: 'Accounting' })).toHaveCount(0);
  await shot(page, 'users-list-desktop');
  await page.getByRole('button', { name: 'Clear Filter' }).click();
  await expect(bodyRows(page)).toHaveCount(10);

  await page.getByRole('button', { name: 'Add User' }).click();
  const add = dialog(page, 'Add User');
  const addButton = add.getByRole('button', { name: 'Add', exact: true });
  await add.getByLabel('First Name').focus();
  // A modal's first opening may still fade in: Mantine reads the reduced-motion preference in an effect.
  await animationsSettled(page);
  const before = await addButton.boundingBox();
  if (!before) throw new Error('Add is not on screen');
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.down();
  // Leaving the empty First Name for Add shows no error yet, so Add stays under the pointer until it is released.
  await expect(add.getByLabel('First Name')).toHaveAccessibleDescription('');
  const pressed = await addButton.boundingBox();
  expect(Math.abs((pressed?.y ?? 0) - before.y), 'a pressed button sinks by 1 px at most').toBeLessThanOrEqual(1);
  await page.mouse.up();
  await expectFieldError(add.getByLabel('First Name'), 'First Name is required');
  await expectFieldError(add.getByLabel('Contact Number'), 'Contact Number is required');
  await expectFieldError(add.getByRole('textbox', { name: 'Password' }), 'Password is required');
  await expectFieldError(add.getByRole('combobox', { name: 'Branch' }), 'Branch is required');
  await add.getByLabel('First Name').fill('Ana2');
  await add.getByLabel('First Name').blur();
  await expectFieldError(add.getByLabel('First Name'), 'Only letters and spaces are allowed');
  await add.getByLabel('First Name').fill(`Ana ${tag}`);
  await add.getByLabel('Last Name').fill('Reyes');
  await add.getByLabel('Contact Number').fill('12345');
  await add.getByLabel('Contact Number').blur();
  await expectFieldError(add.getByLabel('Contact Number'), 'Invalid phone number format');
  await add.getByLabel('Contact Number').fill('0917-555-1234');
  const existing = (await admin.get<{ data: Array<{ email: string }> }>('get-users', { search: tag })).data[0].email;
  await add.getByLabel('Email').fill(existing.toUpperCase());
  await add.getByRole('textbox', { name: 'Password' }).fill('weakpass');
  await add.getByRole('textbox', { name: 'Password' }).blur();
  await expectFieldError(
    add.getByRole('textbox', { name: 'Password' }),
    'Password must be at least 8 characters long and contain at least one uppercase letter, one lowercase letter, one number, and one special character.',
  );
  await add.getByRole('textbox', { name: 'Password' }).fill('Strong@123');
  await pick(add, 'Branch', branch.name);
  await pick(add, 'Role', 'Messenger');
  await pick(add, 'Status', 'Active');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expectFieldError(add.getByLabel('Email'), 'The email has already been taken.');
  await shot(page, 'users-add-desktop');
  const email = `ana.${tag}@example.com`;
  await add.getByLabel('Email').fill(email);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('User created successfully')).toBeVisible();
  await search(page, PLACEHOLDER, email);
  await expect(rowWith(page, email)).toContainText('Messenger');

  await rowWith(page, email).getByRole('button', { name: /^EDIT/ }).click();
  const edit = dialog(page, 'Edit User');
  await expect(edit.getByLabel('First Name')).toHaveValue(`Ana ${tag}`);
  await expect(edit.getByRole('textbox', { name: 'Password' })).toHaveCount(0);
  await expect(edit.getByRole('combobox', { name: 'Role' })).toHaveValue('Messenger');
  await edit.getByLabel('Last Name').fill('Reyes Cruz');
  await pick(edit, 'Role', 'Driver');
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(rowWith(page, email)).toContainText('Reyes Cruz');
  await expect(rowWith(page, email)).toContainText('Driver');

  await rowWith(page, email).getByRole('button', { name: /^VIEW/ }).click();
  const details = dialog(page, 'User Details');
  await expect(details).toContainText('Reyes Cruz');
  await expect(details).toContainText('0917-555-1234');
  await expect(details).toContainText(branch.name);
  await details.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  await rowWith(page, email)
    .getByRole('button', { name: /^RESET PASSWORD/ })
    .click();
  await confirm(page, 'Are you sure you want to reset password of this user?');
  await expect(page.getByText("Password reset link has been sent to user's email.")).toBeVisible();

  const session = await apiAs(request, email, 'Strong@123');
  await expect(rowWith(page, email).getByRole('button', { name: /^DEACTIVATE/ })).toBeVisible();
  await rowWith(page, email)
    .getByRole('button', { name: /^DEACTIVATE/ })
    .click();
  await confirm(page, "Are you sure you want to change this user's status?");
  await expect(page.getByText('User deactivated successfully')).toBeVisible();
  await expect(rowWith(page, email)).toContainText('Inactive');
  await expect(rowWith(page, email).getByRole('button', { name: /^ACTIVATE/ })).toBeVisible();
  const ended = await request.get('/api/user-profile', { headers: { authorization: `Bearer ${session.token}` } });
  expect(ended.status()).toBe(401);
  await rowWith(page, email)
    .getByRole('button', { name: /^ACTIVATE/ })
    .click();
  await confirm(page, "Are you sure you want to change this user's status?");
  await expect(page.getByText('User activated successfully')).toBeVisible();
  await expect(rowWith(page, email).getByRole('button', { name: /^DEACTIVATE/ })).toBeVisible();

  await rowWith(page, email)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this user?');
  await expect(page.getByText('User deleted successfully')).toBeVisible();
  await expect(page.getByText('No users')).toBeVisible();

  await search(page, PLACEHOLDER, 'admin@padtrack.test');
  await rowWith(page, 'admin@padtrack.test')
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this user?');
  await expect(page.getByText('Error deleting user')).toBeVisible();
  await expect(page.getByText('You cannot delete your own account. Ask another administrator.')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await search(page, PLACEHOLDER, tag);
  await expect(phoneCards(page, 'Users')).toHaveCount(10);
  await expect(
    phoneCards(page, 'Users')
      .first()
      .getByRole('button', { name: /^DEACTIVATE/ }),
  ).toBeVisible();
  await shot(page, 'users-list-phone');
  await page.getByRole('button', { name: 'Add User' }).click();
  await expect(dialog(page, 'Add User').getByLabel('First Name')).toBeVisible();
  await shot(page, 'users-add-phone');
  await dialog(page, 'Add User').getByRole('button', { name: 'Cancel' }).click();
});

test('when an invoice names a user, then deleting is refused with "Deactivate the user instead" and the row stays', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const tag = `req${uniqLetters()}`;
  const user = await createUser(admin, { role_id: 5, first_name: `Rhea ${tag}` });
  const routeCompany = (await admin.post<{ data: { id: number } }>('add-company', { name: `Lines ${tag}`, company_type_id: 1 })).data;
  const route = (await admin.post<{ data: { id: number } }>('add-route', { company_id: routeCompany.id, name: `Route ${tag}`, tin: '1' }))
    .data;
  const requester = await apiAs(request, user.email, PASSWORD);
  await requester.post('create-request-invoice', { branch_id: 1, route_id: route.id, pads: 1 });

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/users');
  await search(page, PLACEHOLDER, tag);
  await rowWith(page, user.email)
    .getByRole('button', { name: /^DELETE/ })
    .click();
  await confirm(page, 'Are you sure you want to delete this user?');
  await expect(page.getByText('Error deleting user')).toBeVisible();
  await expect(page.getByText(/Deactivate the user instead\.$/)).toBeVisible();
  await expect(rowWith(page, user.email)).toBeVisible();
});

test('when a user holds pads or carries an invoice, then deactivating or changing their role shows the refusal naming them and the way to hand them on', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const tag = `held${uniqLetters()}`;
  const office = await headOffice(admin);
  const holder = await createUser(admin, { role_id: 5, first_name: `Hana ${tag}` });
  const courier = await createUser(admin, { role_id: 10, first_name: `Carlo ${tag}` });
  const route = (
    await admin.post<{ data: { id: number } }>('add-route', {
      company_id: (await admin.post<{ data: { id: number } }>('add-company', { name: `Lines ${tag}`, company_type_id: 1 })).data.id,
      name: `Route ${tag}`,
      tin: '1',
    })
  ).data;
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 99 });
  const pads = (await admin.get<{ data: Array<{ id: number; number: number }> }>('available-pads', { route_id: route.id, per_page: 10 }))
    .data;
  const asHolder = await apiAs(request, holder.email, PASSWORD);
  const ask = async () =>
    (await asHolder.post<{ data: { id: number } }>('create-request-invoice', { branch_id: office.id, route_id: route.id, pads: 1 })).data
      .id;
  const issue = async (padId: number) =>
    (
      await admin.post<{ data: { id: number } }>('issue-invoice', {
        invoice_id: await ask(),
        pads: [padId],
        assigned_user_id: courier.id,
        expected_return: 5,
      })
    ).data.id;
  await asHolder.post(`accept-invoice/${await issue(pads[0].id)}`);
  const inTransit = await issue(pads[1].id);

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/users');
  await search(page, PLACEHOLDER, tag);
  await rowWith(page, holder.email)
    .getByRole('button', { name: /^DEACTIVATE/ })
    .click();
  await confirm(page, "Are you sure you want to change this user's status?");
  await expect(
    page.getByText(
      `This user holds pad Route ${tag} #${pads[0].number}, so the user cannot be deactivated. Return or Turnover the pads first.`,
    ),
  ).toBeVisible();
  await expect(rowWith(page, holder.email)).toContainText('Active');

  await rowWith(page, holder.email).getByRole('button', { name: /^EDIT/ }).click();
  const edit = dialog(page, 'Edit User');
  await pick(edit, 'Role', 'Supervisor');
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(
    page.getByText(
      `This user holds pad Route ${tag} #${pads[0].number}, so the user cannot be given another role. Return or Turnover the pads first.`,
    ),
  ).toBeVisible();
  await expect(edit).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(rowWith(page, holder.email)).toContainText('Branch Head');

  await rowWith(page, courier.email)
    .getByRole('button', { name: /^DEACTIVATE/ })
    .click();
  await confirm(page, "Are you sure you want to change this user's status?");
  await expect(
    page.getByText(`This user carries in-transit invoice #${inTransit}, so the user cannot be deactivated. Hand Over the invoices first.`),
  ).toBeVisible();
  await expect(rowWith(page, courier.email)).toContainText('Active');
});
