import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN,
  adminApi,
  apiAs,
  createRoute,
  createUser,
  headOffice,
  PHONE,
  SHOTS,
  type Api,
  uiLogin,
  uniq,
  uniqLetters,
} from './support.ts';
import { transactionScene } from './invoices-support.ts';

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
const pager = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });
const range = (page: Page) => page.getByTestId('list-range');
/** The Pad Number cells in order, wherever the column sits (a selection column may come first). */
const padNumbers = async (page: Page) => {
  const column = (await page.getByRole('columnheader').allInnerTexts()).findIndex((header) => header.trim().startsWith('Pad Number')) + 1;
  return (await page.getByRole('row').locator(`td:nth-child(${column})`).allInnerTexts()).map(Number);
};

/** A route of its own with `count` fresh pads, numbered 1..count. */
async function routeWithPads(admin: Api, count: number) {
  const route = await createRoute(admin, `Lists Route ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + count * 50 - 1 });
  return { route, from };
}

/** An issued, in-transit invoice on a route named `routeName`, carried by a courier named `courierName`. */
async function inTransitInvoice(page: Page, admin: Api, routeName: string, courierName: { first_name: string; last_name: string }) {
  const office = await headOffice(admin);
  const route = await createRoute(admin, routeName);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 49 });
  const requester = await createUser(admin, { role_id: 5 });
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id, ...courierName });
  const available = await admin.get<{ data: Array<{ id: number }> }>('available-pads', { route_id: route.id });
  const asRequester = await apiAs(page.request, requester.email, requester.password);
  const asked = await asRequester.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: office.id,
    route_id: route.id,
    pads: 1,
  });
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: [available.data[0].id],
    assigned_user_id: courier.id,
    expected_return: 5,
  });
  return { id: issued.data.id, from };
}

test('Inventories: page, filter, sort and page size live in the address; Reload, Back and a shared link restore them', async ({ page }) => {
  const admin = await adminApi(page.request);
  const { route } = await routeWithPads(admin, 25);
  await uiLogin(page, ADMIN.email, ADMIN.password);

  await page.goto(`/pads?route=${route.id}`);
  await expect(range(page)).toHaveText('1–10 of 25');
  await expect(pager(page).getByRole('button', { name: 'First page' })).toBeDisabled();

  // Sorting by Pad Number: ascending, then descending, on the server (page 1 holds 25..16).
  const numberHeader = page.getByRole('columnheader', { name: 'Pad Number' });
  await numberHeader.getByRole('button').click();
  await expect(numberHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => padNumbers(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await numberHeader.getByRole('button').click();
  await expect(numberHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => padNumbers(page)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
  await expect(page).toHaveURL(/sort=number&order=desc/);

  // Last page, then Reload and Back.
  await pager(page).getByRole('button', { name: 'Last page' }).click();
  await expect(range(page)).toHaveText('21–25 of 25');
  await expect.poll(() => padNumbers(page)).toEqual([5, 4, 3, 2, 1]);
  await expect(page).toHaveURL(/page=3/);
  await page.reload();
  await expect(range(page)).toHaveText('21–25 of 25');
  await expect(pager(page).getByRole('button', { name: '3', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('columnheader', { name: 'Pad Number' })).toHaveAttribute('aria-sort', 'descending');
  await page.goBack();
  await expect(range(page)).toHaveText('1–10 of 25');
  await expect.poll(() => padNumbers(page)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
  await page.screenshot({ path: `${SHOTS}/lists-pads-sorted-1280.png` });

  // Page size 25: one page of all 25, no page buttons.
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('25');
  await expect(range(page)).toHaveText('1–25 of 25');
  await expect(pager(page)).toHaveCount(0);
  await expect(page).toHaveURL(/per_page=25/);

  // A shared link opens on the same page, sort and search in a fresh tab.
  const link = `/pads?route=${route.id}&sort=number&order=asc&page=2`;
  const other = await page.context().newPage();
  await other.goto(link);
  /* A fresh tab boots the whole app before its first list, as the first screen after sign-in does. */
  await expect(other.getByTestId('list-range')).toHaveText('11–20 of 25', { timeout: 20_000 });
  await expect.poll(() => padNumbers(other)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  // An old link past the end shows the last page instead of an empty list.
  await other.goto(`/pads?route=${route.id}&page=9`);
  await expect(other.getByTestId('list-range')).toHaveText('21–25 of 25');
  await expect(other).toHaveURL(/page=3/);
  await other.close();
});

test('Transactions: an open invoice is in the address; Back closes it without leaving the screen, and a link reopens it', async ({
  page,
}) => {
  const admin = await adminApi(page.request);
  const invoice = await inTransitInvoice(page, admin, `Modal Route ${uniq()}`, { first_name: 'Modesto', last_name: 'Linkon' });
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto(`/invoices?search=${invoice.from}`);
  await expect(page.getByRole('textbox', { name: 'Search by branch name or pad number' })).toHaveValue(String(invoice.from));
  await page.getByRole('button', { name: `View Issued invoice ${invoice.id}` }).click();
  await expect(dialog(page, 'Issued Invoice Details')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`invoice=${invoice.id}`));

  await page.goBack();
  await expect(dialog(page, 'Issued Invoice Details')).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/invoices\\?search=${invoice.from}$`));
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();

  await page.goto(`/invoices?invoice=${invoice.id}`);
  await expect(dialog(page, 'Issued Invoice Details')).toBeVisible();
  await dialog(page, 'Issued Invoice Details').getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(dialog(page, 'Issued Invoice Details')).toBeHidden();
  await expect(page).not.toHaveURL(/invoice=/);

  // Custodies keep theirs as ?custody=, Inventories as ?pad=.
  await page.goto(`/custodies?custody=${invoice.id}`);
  await expect(dialog(page, 'Issued Custody Details')).toBeVisible();
  await page.goBack();
  await expect(dialog(page, 'Issued Custody Details')).toBeHidden();
  const pad = (await admin.get<{ data: Array<{ id: number; number: number }> }>('get-pads', { search: String(invoice.from) })).data[0];
  await page.goto(`/pads?pad=${pad.id}`);
  await expect(page.getByRole('dialog')).toContainText(String(invoice.from));
});

test('Transactions and Custodies: the search box says what it finds, and finds route and courier names', async ({ page }) => {
  const admin = await adminApi(page.request);
  const routeName = `Marinduque Loop ${uniq()}`;
  const courier = { first_name: 'Quirino', last_name: `Velasco ${uniqLetters()}` };
  const invoice = await inTransitInvoice(page, admin, routeName, courier);
  await uiLogin(page, ADMIN.email, ADMIN.password);

  await page.goto('/invoices');
  await page.getByRole('button', { name: 'What search finds' }).click();
  await expect(page.getByText(/any receipt number inside a pad/)).toBeVisible();
  await expect(page.getByText(/route name, courier/)).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('textbox', { name: 'Search by branch name or pad number' }).fill(routeName);
  // The request and the issued invoice carry the route; nothing else does.
  await expect(page.getByRole('button', { name: /^View .* invoice/ })).toHaveCount(2);
  await expect(page.getByRole('button', { name: `View Issued invoice ${invoice.id}` })).toBeVisible();
  await expect(page.getByRole('button', { name: /^View Request invoice/ })).toHaveCount(1);

  await page.goto('/custodies');
  await page.getByRole('textbox', { name: 'Search by branch name or pad number' }).fill(`${courier.first_name} ${courier.last_name}`);
  await expect(page.getByRole('button', { name: /^View .* custody/ })).toHaveCount(1);
  await expect(page.getByRole('button', { name: `View Issued custody ${invoice.id}` })).toBeVisible();
  await expect(page).toHaveURL(/search=Quirino/);
});

test('Issue form: select-all picks at most the requested count, the counter reads "3 of 3 selected" and the other boxes are disabled', async ({
  page,
}) => {
  const admin = await adminApi(page.request);
  const s = await transactionScene(admin, 6);
  const asRequester = await apiAs(page.request, s.requester.email, s.requester.password);
  const asked = await asRequester.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: s.office.id,
    route_id: s.route.id,
    pads: 3,
  });
  await uiLogin(page, s.custodian.email, s.custodian.password);
  await page.goto(`/invoices?invoice=${asked.data.id}`);
  await dialog(page, 'Request Invoice Details').getByRole('button', { name: 'Issue', exact: true }).click();
  const issue = dialog(page, 'Create Issue Invoice');
  await expect(issue.getByRole('checkbox', { name: 'Select pad 6' })).toBeVisible();

  await issue.getByRole('checkbox', { name: 'Select all pads' }).click();
  await expect(issue.getByText('3 of 3 selected')).toBeVisible();
  for (const n of [1, 2, 3]) await expect(issue.getByRole('checkbox', { name: `Select pad ${n}` })).toBeChecked();
  for (const n of [4, 5, 6]) {
    await expect(issue.getByRole('checkbox', { name: `Select pad ${n}` })).not.toBeChecked();
    await expect(issue.getByRole('checkbox', { name: `Select pad ${n}` })).toBeDisabled();
  }
  await page.screenshot({ path: `${SHOTS}/lists-issue-limit-1280.png` });

  await issue.getByRole('checkbox', { name: 'Select pad 2' }).uncheck();
  await expect(issue.getByText('2 of 3 selected')).toBeVisible();
  await expect(issue.getByRole('checkbox', { name: 'Select pad 5' })).toBeEnabled();
  await issue.getByRole('checkbox', { name: 'Select pad 5' }).check();
  await expect(issue.getByText('3 of 3 selected')).toBeVisible();
  await expect(issue.getByRole('checkbox', { name: 'Select pad 2' })).toBeDisabled();
});

test('On a phone the lists sort through "Sort by" and keep it in the address', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const admin = await adminApi(page.request);
  await inTransitInvoice(page, admin, `Phone Route ${uniq()}`, { first_name: 'Pia', last_name: 'Phone' });
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.goto('/custodies');
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Pads ↓' });
  await expect(page).toHaveURL(/sort=pads&order=desc/);
  await expect(range(page)).toContainText(' of ');
  await page.screenshot({ path: `${SHOTS}/lists-custodies-390.png`, fullPage: true });
  await context.close();
});

test('when more pads match a sorted list than it counts exactly, then the footer reads "of about" the estimate and paging still works', async ({
  page,
}) => {
  const admin = await adminApi(page.request);
  const { route } = await routeWithPads(admin, 1_200);
  await uiLogin(page, ADMIN.email, ADMIN.password);

  // Newest first, the route's total is kept exact by its id blocks; sorted by number, the list counts and then estimates.
  await page.goto(`/pads?route=${route.id}`);
  await expect(range(page)).toHaveText('1–10 of 1,200');
  await page.goto(`/pads?route=${route.id}&sort=number&order=asc`);
  await expect(range(page)).toHaveText(/^1–10 of about \d{1,3}(,\d{3})*$/);
  const shown = Number(((await range(page).textContent()) ?? '').replace(/^.* of about /, '').replace(/,/g, ''));
  expect(shown).toBeGreaterThan(1_000);
  await range(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/lists-estimate-1280.png` });
  await pager(page).getByRole('button', { name: 'Next page' }).click();
  await expect(range(page)).toHaveText(/^11–20 of about /);

  await page.setViewportSize(PHONE);
  await range(page).scrollIntoViewIfNeeded();
  await expect(range(page)).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/lists-estimate-390.png` });
});
