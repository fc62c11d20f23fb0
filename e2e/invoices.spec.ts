import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { adminApi, PHONE, SHOTS, uiLogin, watchConsole } from './support.ts';
import { requestThroughApi, scanImageFile, transactionScene } from './invoices-support.ts';
import { badgePng } from './badges.ts';

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

/** The open modal from its top and from its bottom, on a desktop and on a phone. */
async function shootModal(page: Page, name: string) {
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page
      .locator('.mantine-Modal-content')
      .last()
      .evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${size}.png` });
    await page
      .locator('.mantine-Modal-content')
      .last()
      .evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.screenshot({ path: `${SHOTS}/${name}-${size}-bottom.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
}

test('when a branch head requests pads, a custodian issues them to a courier picked by badge, and the branch head confirms and accepts, then the timeline runs Pending to Completed', async ({
  page,
  request,
  browser,
}) => {
  const errors = watchConsole(page);
  const admin = await adminApi(request);
  const s = await transactionScene(admin, 3);
  const courierBadge = await badgePng(request, browser, s.courier);
  const ownBadge = await badgePng(request, browser, s.requester);
  const routeText = new RegExp(s.route.name);

  // The branch head asks for two pads.
  await uiLogin(page, s.requester.email, s.requester.password);
  await expect(page).toHaveURL(/\/invoices$/);
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();
  await expect(page.getByText('Hello, Rosa')).toBeVisible();
  await expect(page.getByPlaceholder('Search by branch name or pad number')).toBeVisible();
  await expect(page.getByText('No invoices')).toBeVisible();
  for (const name of ['Request', 'Return', 'Turnover']) await expect(page.getByRole('button', { name, exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Request', exact: true }).click();
  const requestModal = dialog(page, 'Create Request Invoice');
  await expect(requestModal.getByRole('combobox', { name: 'Branch' })).toBeDisabled();
  await expect(requestModal.getByRole('combobox', { name: 'Branch' })).toHaveValue(s.office.name);
  await requestModal.getByRole('button', { name: 'Submit' }).click();
  await expect(requestModal.getByText('Route is required')).toBeVisible();
  await expect(requestModal.getByText('Number of Pads is required')).toBeVisible();
  await pick(page, 'Route', routeText);
  await requestModal.getByRole('textbox', { name: 'Number of Pads' }).fill('2x');
  await requestModal.getByRole('button', { name: 'Submit' }).click();
  await expect(requestModal.getByText('Invalid Number of Pads format')).toBeVisible();
  await requestModal.getByRole('textbox', { name: 'Number of Pads' }).fill('2');
  await requestModal.getByRole('button', { name: 'Submit' }).click();
  await expect(requestModal).toBeHidden();
  const requestRow = page.getByRole('row').filter({ hasText: 'Pending' });
  await expect(requestRow).toHaveCount(1);
  await expect(requestRow).toContainText('Request');
  await expect(requestRow).toContainText(s.agency.name);
  await expect(requestRow).toContainText(s.office.name);
  await signOut(page);

  // The custodian issues two pads and picks the courier by scanning his badge image.
  await uiLogin(page, s.custodian.email, s.custodian.password);
  await page.goto('/invoices');
  await page
    .getByRole('button', { name: /^View Request invoice/ })
    .first()
    .click();
  const requestDetails = dialog(page, 'Request Invoice Details');
  await expect(requestDetails.getByRole('table', { name: 'Invoice details' })).toContainText(s.requester.full_name);
  await requestDetails.getByRole('button', { name: 'Issue', exact: true }).click();
  const issueModal = dialog(page, 'Create Issue Invoice');
  await expect(issueModal.getByRole('textbox', { name: 'Branch' })).toBeDisabled();
  await expect(issueModal.getByRole('textbox', { name: 'Number of Pads' })).toHaveValue('2');
  await expect(issueModal.getByRole('textbox', { name: 'Route' })).toHaveValue(routeText);
  await issueModal.getByRole('button', { name: 'Submit' }).click();
  await expect(issueModal.getByText('Please select at least one pad')).toBeVisible();
  await expect(issueModal.getByText('Expected Return (Days) is required')).toBeVisible();
  await expect(issueModal.getByText('Assign to is required')).toBeVisible();
  await issueModal.getByRole('checkbox', { name: 'Select pad 1' }).check();
  await issueModal.getByRole('checkbox', { name: 'Select pad 2' }).check();
  await expect(issueModal.getByText('2 of 2 selected')).toBeVisible();
  await issueModal.getByRole('textbox', { name: 'Expected Return (Days)' }).fill('3');
  await issueModal.getByRole('button', { name: 'Open Scanner' }).click();
  await expect(issueModal.getByText('Position the QR code within the frame')).toBeVisible();
  await scanImageFile(page, courierBadge);
  await expect(issueModal.getByText(`Scanned: ${s.courier.full_name}`)).toBeVisible();
  await expect(issueModal.getByRole('combobox', { name: 'Assign to' })).toHaveValue(s.courier.full_name);
  await shootModal(page, 'invoices-issue-modal');
  await issueModal.getByRole('button', { name: 'Submit' }).click();
  await expect(issueModal).toBeHidden();
  await expect(requestDetails.getByRole('table', { name: 'Invoice details' })).toContainText('Issued');
  await requestDetails.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();
  const issuedRow = page.getByRole('row').filter({ hasText: 'In-Transit' }).filter({ hasText: routeText });
  await expect(issuedRow).toContainText(s.courier.full_name);
  await expect(issuedRow).toContainText('3 days');
  await signOut(page);

  // The branch head confirms the courier by his badge and accepts.
  await uiLogin(page, s.requester.email, s.requester.password);
  await page.getByRole('button', { name: /^View Issued invoice/ }).click();
  const issuedDetails = dialog(page, 'Issued Invoice Details');
  await expect(issuedDetails.getByRole('table', { name: 'Invoice details' })).toContainText(s.courier.full_name);
  await expect(issuedDetails.getByRole('table').nth(1)).toContainText('Issued');
  await issuedDetails.getByRole('button', { name: 'Accept', exact: true }).click();
  const confirmModal = dialog(page, 'Confirm Invoice');
  await expect(confirmModal.getByRole('combobox', { name: 'Assigned to' })).toBeDisabled();
  await expect(confirmModal.getByRole('combobox', { name: 'Assigned to' })).toHaveValue(s.courier.full_name);
  await expect(confirmModal.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await scanImageFile(page, ownBadge);
  await expect(confirmModal.getByRole('alert')).toHaveText('This QR code does not belong to the user assigned to this invoice.');
  await expect(confirmModal.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await scanImageFile(page, courierBadge);
  await expect(confirmModal.getByText(`Scanned: ${s.courier.full_name}`)).toBeVisible();
  await confirmModal.getByRole('button', { name: 'Submit' }).click();
  await expect(confirmModal).toBeHidden();
  await expect(issuedDetails.getByRole('table', { name: 'Invoice details' })).toContainText('Completed');
  const timeline = issuedDetails.getByTestId('activity');
  await expect(timeline).toHaveCount(4);
  const titles = await timeline.evaluateAll((items) => items.map((item) => item.querySelector('.mantine-Timeline-itemTitle')?.textContent));
  expect(titles).toEqual(['Pending', 'Issued', 'In-Transit', 'Completed']);
  await expect(timeline.nth(2)).toContainText(s.courier.full_name);
  await expect(issuedDetails.getByRole('button', { name: 'Accept', exact: true })).toHaveCount(0);
  await shootModal(page, 'invoices-view-modal');
  await issuedDetails.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();
  const unexpected = errors.filter((e) => !e.includes('status of 422'));
  expect(unexpected).toEqual([]);
});

test('when the list is searched and filtered, then only matching invoices show and clearing brings them back', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const s = await transactionScene(admin, 1);
  await requestThroughApi(request, s.requester, s.office.id, s.route.id, 1);
  await requestThroughApi(request, s.requester, s.office.id, s.route.id, 2);
  await uiLogin(page, s.requester.email, s.requester.password);
  const rows = page.getByRole('row').filter({ has: page.getByRole('button', { name: /^View / }) });
  await expect(rows).toHaveCount(2);
  await page.getByPlaceholder('Search by branch name or pad number').fill('no such branch');
  await expect(page.getByText('No invoices')).toBeVisible();
  await page.getByPlaceholder('Search by branch name or pad number').fill(s.agency.name);
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: 'Filter' }).click();
  await pick(page, 'Invoice Type', 'Issued');
  await expect(page.getByText('No invoices')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Filter' }).click();
  await expect(rows).toHaveCount(2);
  await pick(page, 'Invoice Status', 'Pending');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('-');
  await page.screenshot({ path: `${SHOTS}/invoices-list-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await expect(page.getByRole('listitem')).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/invoices-list-phone.png`, fullPage: true });
});

test('when a scanned image is not a user badge, then the scanner says why and the select stays empty', async ({ page, request }) => {
  const admin = await adminApi(request);
  const s = await transactionScene(admin, 1);
  await requestThroughApi(request, s.requester, s.office.id, s.route.id, 1);
  const textCode = path.join(os.tmpdir(), 'padtrack-qr-text.png');
  const bareId = path.join(os.tmpdir(), `padtrack-qr-bare-${s.courier.id}.png`);
  await QRCode.toFile(textCode, 'hello ferry', { margin: 4, width: 300 });
  await QRCode.toFile(bareId, String(s.courier.id), { margin: 4, width: 300 });

  await uiLogin(page, s.custodian.email, s.custodian.password);
  await page.goto('/invoices');
  await page
    .getByRole('button', { name: /^View Request invoice/ })
    .first()
    .click();
  await dialog(page, 'Request Invoice Details').getByRole('button', { name: 'Issue', exact: true }).click();
  const issueModal = dialog(page, 'Create Issue Invoice');
  await issueModal.getByRole('button', { name: 'Open Scanner' }).click();
  await scanImageFile(page, textCode);
  await expect(issueModal.getByRole('alert')).toHaveText('Invalid QR code format: Not a number');
  await scanImageFile(page, bareId);
  await expect(issueModal.getByRole('alert')).toHaveText('Invalid QR code format. Please scan a valid user QR code.');
  await expect(issueModal.getByRole('combobox', { name: 'Assign to' })).toHaveValue('');
  await issueModal.getByRole('button', { name: 'Start Camera' }).click();
  await expect(issueModal.getByRole('alert')).toHaveText(
    /^(No camera found on this device\.|Camera access was denied\. Please allow camera access and try again\.|Failed to start camera\. Please ensure camera permissions are granted\.)$/,
  );
  await expect(page.getByTestId('qr-scanner')).toHaveAttribute('data-state', 'not-started');
  await issueModal.getByRole('button', { name: 'Cancel' }).click();
  await dialog(page, 'Request Invoice Details').getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();

  await signOut(page);
  await uiLogin(page, s.requester.email, s.requester.password);
  await page
    .getByRole('button', { name: /^View Request invoice/ })
    .first()
    .click();
  const details = dialog(page, 'Request Invoice Details');
  await expect(details.getByRole('button', { name: 'Issue', exact: true })).toHaveCount(0);
  await details.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Are you sure you want to delete this invoice?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes', exact: true }).click();
  await expect(details).toBeHidden();
  await expect(page.getByText('No invoices')).toBeVisible();
});
