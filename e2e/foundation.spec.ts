import { expect, test } from '@playwright/test';
import { ADMIN, PASSWORD, adminApi, createUser, uiLogin, uniq } from './support.ts';

const navLabels = async (page: import('@playwright/test').Page) => {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const burger = page.getByRole('button', { name: 'Toggle navigation' });
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  if (!(await nav.isVisible())) await burger.click();
  await expect(nav).toBeVisible();
  const texts = await nav.locator('a, button').allInnerTexts();
  return texts.map((text) =>
    text
      .split('\n')
      .filter((line) => !/^\d+\+?$/.test(line.trim()))
      .join(' ')
      .trim(),
  );
};

test('when the admin signs in, then Transactions is home and every menu entry is there', async ({ page }) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/invoices$/);
  expect(await navLabels(page)).toEqual([
    'Custodies',
    'Transactions',
    'Dashboard',
    'Inventories',
    'Counts',
    'Reports',
    'Accountability',
    'Incidents',
    'Outages',
    'Companies',
    'Routes',
    'Branches/Agencies',
    'Locations',
    'Users',
    'Roles',
    'Import',
    'Registered series',
    'Unused forms',
    'Settings',
    'Alert settings',
    'Jobs',
    'Notifications',
    'Profile',
    'Logout',
  ]);
  await expect(page.getByText('System Administrator')).toBeVisible();
  await expect(page.getByText('Version 1.0.0')).toBeVisible();
});

for (const [role, home, menu] of [
  [
    3,
    '/pads',
    [
      'Custodies',
      'Transactions',
      'Inventories',
      'Counts',
      'Accountability',
      'Incidents',
      'Outages',
      'Import',
      'Notifications',
      'Profile',
      'Logout',
    ],
  ],
  [
    5,
    '/invoices',
    ['Custodies', 'Transactions', 'Inventories', 'Counts', 'Accountability', 'Incidents', 'Outages', 'Notifications', 'Profile', 'Logout'],
  ],
  [10, '/custodies', ['Custodies', 'Notifications', 'Profile', 'Logout']],
] as const) {
  test(`when a role ${role} user signs in, then ${home} is home with the role's menu`, async ({ page, request }) => {
    const user = await createUser(await adminApi(request), { role_id: role, first_name: 'Rolando' });
    await uiLogin(page, user.email, user.password);
    await expect(page).toHaveURL(new RegExp(`${home}$`));
    await expect(page.getByText('Hello, Rolando')).toBeVisible();
    expect(await navLabels(page)).toEqual([...menu]);
    await page.goto('/users');
    await expect(page).toHaveURL(new RegExp(`${home}$`));
  });
}

test('when someone registers without a role, then the profile is home and the menu is minimal', async ({ page }) => {
  const email = `new-${uniq()}@example.com`;
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
  await page.getByLabel('First Name').fill('Nina');
  await page.getByLabel('Last Name').fill('Cruz');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mobile Number').fill('09171234567');
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/user-profile$/);
  await expect(page.getByLabel('First Name')).toHaveValue('Nina');
  expect(await navLabels(page)).toEqual(['Custodies', 'Notifications', 'Profile', 'Logout']);
});

test('when the register form is filled badly, then the spec messages appear under the fields', async ({ page }) => {
  await page.goto('/register');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Mobile Number').fill('12345');
  await page.getByLabel(/^Password/).fill('weakpass');
  await page.getByLabel('Confirm Password').fill('different');
  await page.getByLabel('Confirm Password').blur();
  await expect(page.getByText('Invalid email format')).toBeVisible();
  await expect(page.getByText('Invalid mobile number format')).toBeVisible();
  await expect(
    page
      .getByText(
        'Password must be at least 8 characters long and contain at least one uppercase letter, one lowercase letter, one number, and one special character.',
      )
      .first(),
  ).toBeVisible();
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill('Other@1234');
  await page.getByLabel('Confirm Password').blur();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
});

test('when the sign-in form is filled badly, then each field says why and a wrong password is named under the email', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Email').fill('admin@');
  await page.getByLabel(/^Password/).fill('short');
  await expect(page.getByText('Invalid email format')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel(/^Password/).fill('Wrong@12345');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('These credentials do not match our records.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('when a reset link is opened, then its form checks the rules and a used token says so', async ({ page }) => {
  await page.goto('/reset-password/not-a-real-token-0000000000000000');
  await page.getByLabel('New Password').fill('weak');
  await page.getByLabel('Confirm Password').fill('other');
  await page.getByRole('button', { name: 'Create New Password' }).click();
  await expect(
    page.getByText(
      'Password must be at least 8 characters long and contain at least one uppercase letter, one lowercase letter, one number, and one special character',
    ),
  ).toBeVisible();
  await expect(page.getByText('Confirm password does not match the password')).toBeVisible();
  await page.getByLabel('New Password').fill('Brand@New1');
  await page.getByLabel('Confirm Password').fill('Brand@New1');
  await page.getByRole('button', { name: 'Create New Password' }).click();
  await expect(page.getByText('Invalid or expired token')).toBeVisible();
});

test('when the forgot-password form is sent, then the alert shows and the user is back at sign in', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email address').fill('nope');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await page.getByLabel('Email address').fill(`someone-${uniq()}@example.com`);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Password reset link has been sent to your email.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('when a path does not exist, then the 404 screen leads back home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await expect(page.getByText('Oops! The page you are looking for does not exist.')).toBeVisible();
  await page.getByRole('button', { name: 'Go back to home' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('when a signed-out visitor opens a protected screen, then sign in is shown', async ({ page }) => {
  await page.goto('/custodies');
  await expect(page).toHaveURL(/\/login$/);
});

test('when the user opens My QR Code and logs out, then a QR image shows and the session is gone', async ({ page }) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/user-profile');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My QR Code' }).click();
  const image = page.getByRole('img', { name: 'My QR code' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('padtrack.token'))).toBeNull();
  await page.goto('/user-profile');
  await expect(page).toHaveURL(/\/login$/);
});

test('when a stored token has expired on the server, then the next call asks to sign in again over the screen', async ({ page }) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.evaluate(() => localStorage.setItem('padtrack.token', 'revoked-token'));
  await page.goto('/user-profile');
  await expect(page.getByRole('dialog', { name: 'Sign in again' })).toContainText('Your session has ended. Please sign in again.');
  await expect(page).toHaveURL(/\/user-profile$/);
});
