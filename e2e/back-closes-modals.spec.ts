import { expect, test, type Page } from '@playwright/test';
import { dialog, search, shot } from './admin-support.ts';
import { heldPad } from './counter-support.ts';
import { ADMIN, adminApi, createBranch, createRoute, PHONE, uiLogin, uniq } from './support.ts';

const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;

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

test('when a form over Pad Details is open on a phone and the user presses Back, then only that form closes, and typed text is asked about first', async ({
  browser,
  request,
}) => {
  test.slow();
  const from = 5_000_400_251;
  const { holder } = await heldPad(request, from);
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: BASE });
  const page = await context.newPage();
  await uiLogin(page, holder.email, holder.password);
  await page.goto(`/pads?search=${from}`);
  await page
    .getByRole('list', { name: 'Pads' })
    .getByRole('button', { name: /^VIEW pad/ })
    .first()
    .tap();
  const details = dialog(page, 'Pad Details');
  await details.getByRole('button', { name: `${from + 2}: Not Used, shown as`, exact: false }).tap();

  // Nothing typed: Back closes Cancel numbers at once, and Pad Details stays.
  await details.getByRole('button', { name: 'Cancel numbers…' }).tap();
  const cancel = dialog(page, `Cancel ${from + 2}`);
  await expect(cancel).toBeVisible();
  await page.goBack();
  await expect(cancel).toBeHidden();
  await expect(details).toBeVisible();

  // Typed text: Back asks; Keep editing keeps the text, Discard closes only the form.
  await details.getByRole('button', { name: 'Cancel numbers…' }).tap();
  await cancel.getByLabel('Details').fill('Stub 3 torn in half by the turnstile');
  await page.goBack();
  const question = dialog(page, 'Discard what you typed?');
  await expect(question).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/back-discard-question-390.png' });
  await question.getByRole('button', { name: 'Keep editing' }).tap();
  await expect(question).toBeHidden();
  await expect(cancel.getByLabel('Details')).toHaveValue('Stub 3 torn in half by the turnstile');
  await page.goBack();
  await question.getByRole('button', { name: 'Discard' }).tap();
  await expect(cancel).toBeHidden();
  await expect(details).toBeVisible();

  // Report a loss over Pad Details: the same.
  await details.getByRole('button', { name: 'Report a loss' }).tap();
  const report = dialog(page, 'Report a loss');
  await report.getByLabel('Place').fill('Calapan pier, gangway 2');
  await page.goBack();
  await question.getByRole('button', { name: 'Keep editing' }).tap();
  await expect(report.getByLabel('Place')).toHaveValue('Calapan pier, gangway 2');
  await report.getByRole('button', { name: 'Cancel', exact: true }).tap();
  await question.getByRole('button', { name: 'Discard' }).tap();
  await expect(report).toBeHidden();
  await expect(details).toBeVisible();

  // With the forms gone, Back closes Pad Details and leaves Inventories where it was.
  await page.goBack();
  await expect(details).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/pads\\?search=${from}$`));
  await context.close();
});
