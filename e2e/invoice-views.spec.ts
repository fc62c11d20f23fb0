import { expect, test, type Locator, type Page } from '@playwright/test';
import { badgePng } from './badges.ts';
import { scanImageFile } from './invoices-support.ts';
import { adminApi, apiAs, createBranch, createRoute, createUser, headOffice, uiLogin, uniq, watchConsole } from './support.ts';

const COMPARED = ['By', 'To', 'Route', 'Expected Return'] as const;

type Facts = Record<string, string>;

/** The label → value rows of a details modal's facts table. */
async function detailFacts(dialog: Locator): Promise<Facts> {
  const pairs = await dialog
    .getByRole('table', { name: /details$/ })
    .getByRole('row')
    .evaluateAll((rows) => rows.map((row) => [row.querySelector('th')?.textContent ?? '', row.querySelector('td')?.textContent ?? '']));
  return Object.fromEntries(pairs);
}

/** A list row's cells keyed by their column headers. */
async function rowFacts(row: Locator): Promise<Facts> {
  const headers = await row.locator('xpath=ancestor::table[1]/thead//th').allTextContents();
  const cells = await row.locator('td').allTextContents();
  return Object.fromEntries(headers.map((header, i) => [header, cells[i] ?? '']));
}

const pick = (facts: Facts, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, facts[key]]));

/** Follows a menu link inside the app (no page load), opening the collapsed menu first when needed. */
async function openScreen(page: Page, label: string, heading: string) {
  const link = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: label, exact: true });
  const shown = await link.evaluate((el) => el.getBoundingClientRect().right > 0);
  if (!shown) await page.getByRole('button', { name: 'Toggle navigation' }).filter({ visible: true }).click();
  await expect(link).toBeInViewport();
  await link.click();
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
}

test('when one issued invoice is opened in Transactions, Custodies and Reports, then By, To, Route and Expected Return read the same, and accepting it updates every screen without a reload', async ({
  page,
  request,
  browser,
}) => {
  const errors = watchConsole(page);
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const agency = await createBranch(admin, `Calapan Agency ${uniq()}`);
  const requester = await createUser(admin, { role_id: 8, branch_id: agency.id, first_name: 'Ana', last_name: 'Reyes' });
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id, first_name: 'Dan', last_name: 'Diaz' });
  const route = await createRoute(admin, `Batangas Calapan ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 2 * 50 - 1 });
  const available = await admin.get<{ data: Array<{ id: number }> }>('available-pads', { route_id: route.id, per_page: 100 });
  const asked = await (
    await apiAs(request, requester.email, requester.password)
  ).post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: office.id,
    route_id: route.id,
    pads: 2,
  });
  const issued = (
    await admin.post<{ data: { id: number } }>('issue-invoice', {
      invoice_id: asked.data.id,
      pads: available.data.slice(0, 2).map((p) => p.id),
      assigned_user_id: courier.id,
      expected_return: 5,
    })
  ).data;
  const courierBadge = await badgePng(request, browser, courier);

  await uiLogin(page, requester.email, requester.password);
  await expect(page).toHaveURL(/\/invoices$/);
  await page.evaluate(() => Reflect.set(window, 'padtrackSameDocument', true));

  // Transactions: the list row and the details.
  const transactionRow = page.getByRole('row').filter({ has: page.getByRole('button', { name: `View Issued invoice ${issued.id}` }) });
  await expect(transactionRow).toContainText('In-Transit');
  const inTransactions = await rowFacts(transactionRow);
  expect(pick(inTransactions, COMPARED)).toEqual({
    By: office.name,
    To: agency.name,
    Route: expect.stringContaining(route.name),
    'Expected Return': '5 days',
  });
  await transactionRow.getByRole('button', { name: `View Issued invoice ${issued.id}` }).click();
  const transactionDetails = page.getByRole('dialog', { name: 'Issued Invoice Details' });
  await expect(transactionDetails.getByRole('table', { name: 'Invoice details' })).toContainText('In-Transit');
  const detailsInTransactions = await detailFacts(transactionDetails);
  expect(pick(detailsInTransactions, ['By', 'To', 'Route'])).toEqual(pick(inTransactions, ['By', 'To', 'Route']));
  expect(detailsInTransactions['Expected Return']).toContain(`(${inTransactions['Expected Return']})`);
  await transactionDetails.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  // Custodies: the same invoice in transit, with the same facts.
  await openScreen(page, 'Custodies', 'Custodies');
  const custodyView = page.getByRole('button', { name: `View Issued custody ${issued.id}` });
  const custodyRow = page.getByRole('row').filter({ has: custodyView });
  await expect(custodyRow).toContainText('In-Transit');
  expect(pick(await rowFacts(custodyRow), ['By', 'To', 'Route'])).toEqual(pick(inTransactions, ['By', 'To', 'Route']));
  await custodyView.click();
  const custodyDetails = page.getByRole('dialog', { name: 'Issued Custody Details' });
  await expect(custodyDetails.getByRole('table', { name: 'Custody details' })).toContainText('In-Transit');
  expect(pick(await detailFacts(custodyDetails), COMPARED)).toEqual(pick(detailsInTransactions, COMPARED));
  await custodyDetails.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  // Back in Transactions the requester confirms the courier by badge and accepts.
  await openScreen(page, 'Transactions', 'Transactions');
  await transactionRow.getByRole('button', { name: `View Issued invoice ${issued.id}` }).click();
  await transactionDetails.getByRole('button', { name: 'Accept', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Invoice' });
  await scanImageFile(page, courierBadge);
  await expect(confirm.getByText(`Scanned: ${courier.full_name}`)).toBeVisible();
  await confirm.getByRole('button', { name: 'Submit' }).click();
  await expect(confirm).toBeHidden();
  await expect(transactionDetails.getByRole('table', { name: 'Invoice details' })).toContainText('Completed');
  await transactionDetails.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();
  await expect(transactionRow).toContainText('Completed');

  // Custodies no longer lists it.
  await openScreen(page, 'Custodies', 'Custodies');
  await expect(page.getByRole('table')).toBeVisible();
  await expect(custodyView).toHaveCount(0);

  // Reports offers it for a report, with the same facts in the list and in the details.
  await openScreen(page, 'Reports', 'Reports');
  await page.getByRole('button', { name: 'Generate Report' }).click();
  const generate = page.getByRole('dialog', { name: 'Generate Report' });
  await generate.getByPlaceholder('Search by invoice number').fill(String(issued.id));
  const reportRow = generate.getByRole('row').filter({ has: page.getByLabel(`Select invoice ${issued.id}`) });
  await expect(reportRow).toContainText('Completed');
  expect(pick(await rowFacts(reportRow), COMPARED)).toEqual(pick(inTransactions, COMPARED));
  await reportRow.getByRole('button', { name: `View invoice ${issued.id}` }).click();
  const reportDetails = page.getByRole('dialog', { name: 'Issued Invoice Details' });
  await expect(reportDetails.getByRole('table', { name: 'Invoice details' })).toContainText('Completed');
  expect(pick(await detailFacts(reportDetails), COMPARED)).toEqual(pick(detailsInTransactions, COMPARED));

  expect(await page.evaluate(() => Reflect.get(window, 'padtrackSameDocument'))).toBe(true);
  expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
});

test('when a request says which invoice issued it, then its "#N" is a link that opens invoice N', async ({ page, request }) => {
  const errors = watchConsole(page);
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const route = await createRoute(admin, `Route ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 49 });
  const requester = await createUser(admin, { role_id: 5, first_name: 'Rita', last_name: 'Ramos' });
  const courier = await createUser(admin, { role_id: 10 });
  const asRequester = await apiAs(request, requester.email, requester.password);
  const asked = (
    await asRequester.post<{ data: { id: number } }>('create-request-invoice', { branch_id: office.id, route_id: route.id, pads: 1 })
  ).data;
  const [pad] = (await admin.get<{ data: Array<{ id: number }> }>('available-pads', { route_id: route.id, per_page: 10 })).data;
  const issued = (
    await admin.post<{ data: { id: number } }>('issue-invoice', {
      invoice_id: asked.id,
      pads: [pad.id],
      assigned_user_id: courier.id,
      expected_return: 5,
    })
  ).data;
  expect(issued.id).not.toBe(asked.id);

  await uiLogin(page, requester.email, requester.password);
  await page.goto(`/invoices?invoice=${asked.id}`);
  const details = page.getByRole('dialog', { name: 'Request Invoice Details' });
  const line = details.getByText(`issued 1 pad for this request (invoice #${issued.id})`, { exact: false });
  await expect(line).toBeVisible();
  await line.getByRole('link', { name: `Invoice #${issued.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/invoices\\?invoice=${issued.id}$`));
  const opened = page.getByRole('dialog', { name: 'Issued Invoice Details' });
  await expect(opened).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Request Invoice Details' })).toHaveCount(0);
  await expect(opened).toContainText(`${from}`);
  expect(errors, errors.join('\n')).toEqual([]);
});
