import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, PHONE } from './support.ts';

const SCREENS = '.tmp/screens';

test('when /login is fetched without running any script, then its HTML holds the sign-in form with its labels, texts and no inline script', async ({
  request,
}) => {
  const response = await request.get('/login');
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toMatch(/<form[^>]* action="\/login" method="post">/);
  for (const text of ['>Sign in</h1>', '>Email<', '>Password<', 'Forgot password?', 'Sign In', 'No account yet? Create Account']) {
    expect(html, text).toContain(text);
  }
  expect(html).toMatch(/<label[^>]*for="email"/);
  expect(html).toMatch(/<input[^>]*id="email"[^>]*type="email"|<input[^>]*type="email"[^>]*id="email"/);
  expect(html).toMatch(/<label[^>]*for="password"/);
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
  /* Another address keeps the empty shell: a signed-in screen never shows a sign-in form first. */
  expect(await (await request.get('/invoices')).text()).toContain('<div id="root"></div>');
});

test('when the form is sent before the script has taken it over, then the server sends the browser back to /login', async ({ request }) => {
  const response = await request.post('/login', { form: { email: 'x@example.com', password: 'not-sent-anywhere' }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toBe('/login');
});

test('when someone types into the form before the script has arrived, then what they typed and the focus survive the takeover, and signing in works', async ({
  page,
}) => {
  let release: () => void = () => undefined;
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  /* A module script holds DOMContentLoaded back, not the form. */
  await page.goto('/login', { waitUntil: 'commit' });
  const email = page.getByLabel('Email');
  await expect(email).toBeVisible();
  const before = await page.getByRole('button', { name: 'Sign In' }).boundingBox();
  await email.fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password.slice(0, 4));
  await page.evaluate(() => Object.assign(window, { servedForm: document.querySelector('form') }));

  release();
  /* React's form replaces the served one: the same place, the same values, the password field still focused. */
  await page.waitForFunction(() => !(window as unknown as { servedForm: Element }).servedForm.isConnected);
  await expect(email).toHaveValue(ADMIN.email);
  await expect(page.getByLabel('Password')).toHaveValue(ADMIN.password.slice(0, 4));
  await expect(page.getByLabel('Password')).toBeFocused();
  expect(await page.getByRole('button', { name: 'Sign In' }).boundingBox()).toEqual(before);
  await page.keyboard.type(ADMIN.password.slice(4));
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login$/);
});

test('when the script takes the form over at 1280 and 390 px wide, then not one pixel changes (screenshots under .tmp/screens)', async ({
  page,
}) => {
  fs.mkdirSync(SCREENS, { recursive: true });
  for (const [width, viewport] of [
    ['1280', { width: 1280, height: 800 }],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto('/login');
    await expect(page.getByLabel('Email')).toBeVisible();
    const served = await page.screenshot({ path: `${SCREENS}/sign-in-${width}-before-script.png` });
    await page.unroute(/\/assets\/.*\.js$/);
    await page.goto('/login');
    await page.waitForLoadState('networkidle');
    const drawn = await page.screenshot({ path: `${SCREENS}/sign-in-${width}.png` });
    expect(served.equals(drawn), `the ${width} px screen changed when the script took over`).toBe(true);
  }
});
