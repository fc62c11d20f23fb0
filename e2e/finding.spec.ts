import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN,
  adminApi,
  animationsSettled,
  apiAs,
  createBranch,
  createRoute,
  createUser,
  headOffice,
  PHONE,
  uiLogin,
  uniq,
  uniqLetters,
} from './support.ts';

/** docs/screenshots: the finding screens of issue 36 point 11, at the desktop and the phone width. */
const DOCS = 'docs/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const SIZES = [
  { size: DESKTOP, suffix: '1280' },
  { size: PHONE, suffix: '390' },
];

let agency = { id: 0, name: '' };
let branchHead = { id: 0, full_name: '', email: '', password: '' };
let driver = { id: 0, full_name: '' };
let officeName = '';
let heldPadNumber = 0;
let pendingRequest = 0;

/**
 * A branch whose head holds one pad (requested, issued and accepted through the API), a driver of the head office
 * for the Assign to list, and a request left pending for the admin to issue.
 */
test.beforeAll(async ({ request }) => {
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  officeName = office.name;
  agency = await createBranch(admin, `Roxas Agency ${uniq()}`);
  const route = await createRoute(admin, `Roxas Caticlan ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 3 * 50 - 1 });
  branchHead = await createUser(admin, { role_id: 5, branch_id: agency.id, first_name: 'Bea', last_name: `Head ${uniqLetters()}` });
  driver = await createUser(admin, { role_id: 10, branch_id: office.id, first_name: 'Dario', last_name: `Driver ${uniqLetters()}` });
  const requester = await apiAs(request, branchHead.email, branchHead.password);
  const ask = async () =>
    (await requester.post<{ data: { id: number } }>('create-request-invoice', { branch_id: office.id, route_id: route.id, pads: 1 })).data
      .id;
  const available = (await admin.get<{ data: Array<{ id: number; number: number }> }>('available-pads', { route_id: route.id })).data;
  heldPadNumber = available[0].number;
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: await ask(),
    pads: [available[0].id],
    assigned_user_id: driver.id,
    expected_return: 5,
  });
  await requester.post(`accept-invoice/${issued.data.id}`);
  pendingRequest = await ask();
});

async function openRail(page: Page) {
  if ((page.viewportSize()?.width ?? 0) < 768) await page.getByRole('button', { name: 'Toggle navigation' }).click();
  return page.getByRole('navigation', { name: 'Main navigation' });
}

test('when the head office opens the menu, then Counts and Incidents are entries that open their screens, at 1280 and 390 px', async ({
  page,
}) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  for (const { size, suffix } of SIZES) {
    await page.setViewportSize(size);
    for (const [label, path, heading] of [
      ['Counts', '/counts', 'Counts'],
      ['Incidents', '/incidents', 'Incidents'],
    ]) {
      const rail = await openRail(page);
      await rail.getByRole('link', { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
    const rail = await openRail(page);
    /* The Admin's menu is taller than a phone: the drawer opens where it was left, so Counts is scrolled back into view. */
    await rail.getByRole('link', { name: 'Counts', exact: true }).scrollIntoViewIfNeeded();
    await expect(rail.getByRole('link', { name: 'Counts', exact: true })).toBeInViewport();
    await expect(rail.getByRole('link', { name: 'Incidents', exact: true })).toBeInViewport();
    await animationsSettled(page);
    await page.screenshot({ path: `${DOCS}/menu-counts-incidents-${suffix}.png` });
    if (suffix === '390') await page.getByRole('button', { name: 'Toggle navigation' }).click();
  }
});

test('when a Branch Head opens the menu, then Incidents and Counts are there, and a Ticketing Officer sees Incidents only', async ({
  page,
  request,
}) => {
  await uiLogin(page, branchHead.email, branchHead.password);
  const rail = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(rail.getByRole('link', { name: 'Counts', exact: true })).toBeVisible();
  await expect(rail.getByRole('link', { name: 'Incidents', exact: true })).toBeVisible();
  const officer = await createUser(await adminApi(request), { role_id: 7, branch_id: agency.id });
  await page.evaluate(() => localStorage.clear());
  await uiLogin(page, officer.email, officer.password);
  await expect(rail.getByRole('link', { name: 'Incidents', exact: true })).toBeVisible();
  await expect(rail.getByRole('link', { name: 'Counts', exact: true })).toHaveCount(0);
});

test("when the head office filters Inventories by a branch or a person, then only their pads are listed and Print labels prints that selection's labels", async ({
  page,
}) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  for (const { size, suffix } of SIZES) {
    await page.setViewportSize(size);
    await page.goto('/pads');
    await page.getByRole('button', { name: /^Filter/ }).click();
    const heldBy = page.getByRole('combobox', { name: 'Held by' });
    await heldBy.click();
    await heldBy.fill(agency.name);
    await page.getByRole('option', { name: agency.name }).click();
    await expect(page).toHaveURL(new RegExp(`holder=b%3A${agency.id}`));
    const main = page.getByRole('main');
    await expect(main.getByText(`${branchHead.full_name} (${agency.name})`).first()).toBeVisible();
    await expect(main.getByRole('button', { name: /^VIEW pad/ })).toHaveCount(1);
    const print = main.getByRole('button', { name: 'Print labels (1)' });
    await expect(print).toBeEnabled();
    await page.screenshot({ path: `${DOCS}/inventories-held-by-branch-${suffix}.png` });

    await heldBy.click();
    await heldBy.fill(branchHead.full_name);
    const person = page.getByRole('option', { name: branchHead.full_name });
    await expect(person).toContainText(`Branch Head · ${agency.name}`);
    await page.screenshot({ path: `${DOCS}/inventories-held-by-person-picker-${suffix}.png` });
    await person.click();
    await expect(page).toHaveURL(new RegExp(`holder=u%3A${branchHead.id}`));
    await expect(main.getByRole('button', { name: /^VIEW pad/ })).toHaveCount(1);
    await expect(main.getByText(String(heldPadNumber)).first()).toBeVisible();

    await print.click();
    await expect(page.getByRole('menu').getByText('All 1 pad listed')).toBeVisible();
    const labels = page.waitForResponse((r) => r.url().includes('/api/pad-labels?'));
    await page.getByRole('menuitem', { name: 'A4 sheet' }).click();
    const sheet = await labels;
    expect(sheet.status()).toBe(200);
    expect(sheet.headers()['content-type']).toContain('application/pdf');
  }
});

test('when the custodian issues a request, then Assign to shows each person with role and branch, at 1280 and 390 px', async ({ page }) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  for (const { size, suffix } of SIZES) {
    await page.setViewportSize(size);
    await page.goto('/invoices');
    await page.getByRole('button', { name: `View Request invoice ${pendingRequest}`, exact: true }).click();
    await page.getByRole('dialog', { name: 'Request Invoice Details' }).getByRole('button', { name: 'Issue', exact: true }).click();
    const issue = page.getByRole('dialog', { name: 'Create Issue Invoice' });
    const assign = issue.getByRole('combobox', { name: 'Assign to' });
    await assign.click();
    await assign.fill(driver.full_name);
    const option = page.getByRole('option', { name: driver.full_name });
    await expect(option).toContainText(`Driver · ${officeName}`);
    await page.screenshot({ path: `${DOCS}/assign-to-role-branch-${suffix}.png` });
    await page.keyboard.press('Escape');
    for (let i = 0; i < 3 && (await page.getByRole('dialog').count()) > 0; i += 1) await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
});

test('when Unused forms is still asking the server for another date, then it says it is loading, then shows the totals, at 1280 and 390 px', async ({
  page,
}) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  for (const [{ size, suffix }, date] of SIZES.map((entry, i) => [entry, `2026-0${i + 1}-28`] as const)) {
    await page.setViewportSize(size);
    await page.goto('/unused-forms');
    await expect(page.getByText(/^Total unused:/)).toBeVisible();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/unused-forms?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('As of the end of').fill(date);
    await expect(page.getByRole('status').filter({ hasText: 'Loading the unused forms…' })).toBeVisible();
    await page.screenshot({ path: `${DOCS}/unused-forms-loading-${suffix}.png` });
    release();
    await expect(page.getByText(/^Total unused:/)).toBeVisible();
    await expect(page.getByText('Loading the unused forms…')).toHaveCount(0);
    await page.unrouteAll({ behavior: 'wait' });
  }
});
