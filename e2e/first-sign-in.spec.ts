import { expect, test } from '@playwright/test';
import { MSG } from '../src/shared/messages.ts';
import { dialog, pick, shot } from './admin-support.ts';
import { ADMIN, adminApi, createUser, headOffice, PASSWORD, PHONE, uiLogin, uniq } from './support.ts';

test('when an admin gives a new user a password, then the first sign-in must change it before any screen opens', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const email = `first-${uniq()}@padtrack.test`;

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/users?add=1');
  const add = dialog(page, 'Add User');
  await add.getByLabel('First Name').fill('Nestor');
  await add.getByLabel('Last Name').fill('Bautista');
  await add.getByLabel('Contact Number').fill('0917-123-4567');
  await add.getByLabel('Email').fill(email);
  await add.getByLabel(/^Password/).fill('Given@12345');
  await pick(add, 'Branch', office.name);
  await pick(add, 'Role', 'Driver');
  await pick(add, 'Status', 'Active');
  await shot(page, 'users-add-first-password-1280');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();

  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    const context = await browser.newContext({ viewport, baseURL: `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}` });
    const user = await context.newPage();
    await user.goto('/login');
    await user.getByLabel('Email').fill(email);
    await user.getByLabel(/^Password/).fill(viewport === PHONE ? 'Mine@123456' : 'Given@12345');
    await user.getByRole('button', { name: 'Sign In' }).click();
    if (viewport === PHONE) {
      // The password was changed at 1280 px: the first sign-in happened once, this one goes straight home.
      await expect(user).toHaveURL(/\/custodies$/);
      await shot(user, 'first-sign-in-done-390');
      await context.close();
      continue;
    }
    await expect(user).toHaveURL(/\/change-password$/);
    await expect(user.getByText(MSG.mustChangePassword)).toBeVisible();
    await shot(user, 'change-password-1280');
    await user.setViewportSize(PHONE);
    await shot(user, 'change-password-390');
    await user.setViewportSize(viewport);

    // No screen opens meanwhile, and the server refuses the calls a screen would make.
    await user.goto('/custodies');
    await expect(user).toHaveURL(/\/change-password$/);
    const token = await user.evaluate(() => localStorage.getItem('padtrack.token'));
    const refused = await user.request.get('/api/my-actions', { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toBe(MSG.mustChangePassword);

    await user.getByLabel('Current Password').fill('Given@12345');
    await user.getByLabel('New Password').fill('Given@12345');
    await user.getByLabel('Confirm Password').fill('Given@12345');
    await user.getByRole('button', { name: 'Change Password' }).click();
    await expect(user.getByText(MSG.newPasswordSame)).toBeVisible();
    await user.getByLabel('New Password').fill('Mine@123456');
    await user.getByLabel('Confirm Password').fill('Mine@123456');
    await user.getByRole('button', { name: 'Change Password' }).click();
    await expect(user).toHaveURL(/\/custodies$/);
    await expect(user.getByRole('heading', { name: 'Custodies' })).toBeVisible();
    expect((await user.request.get('/api/my-actions', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
    await context.close();
  }
});

test('when an admin adds a user with a set-password e-mail, then no password is asked and the account is made', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const email = `mailed-${uniq()}@padtrack.test`;
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = dialog(page, 'Add User');
  await add.getByLabel('First Name').fill('Mila');
  await add.getByLabel('Last Name').fill('Santos');
  await add.getByLabel('Contact Number').fill('0917-123-4567');
  await add.getByLabel('Email').fill(email);
  await add.getByLabel('E-mail the user a link to set the password instead').check();
  await expect(add.getByLabel(/^Password/)).toHaveCount(0);
  await pick(add, 'Branch', office.name);
  await pick(add, 'Role', 'Driver');
  await pick(add, 'Status', 'Active');
  await shot(page, 'users-add-set-password-mail-1280');
  await page.setViewportSize(PHONE);
  await shot(page, 'users-add-set-password-mail-390');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();
  const listed = await admin.get<{ data: Array<{ email: string }> }>('get-users', { search: email });
  expect(listed.data.map((u) => u.email)).toEqual([email]);
});

test('when a role opens an address it may not, then it is told why and lands on its home screen', async ({ page, request }) => {
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id });
  await page.setViewportSize(PHONE);
  await uiLogin(page, courier.email, PASSWORD);
  await page.goto('/users');
  await expect(page.getByText(MSG.screenForbidden)).toBeVisible();
  await expect(page).toHaveURL(/\/custodies$/);
  await shot(page, 'forbidden-address-390');
});
