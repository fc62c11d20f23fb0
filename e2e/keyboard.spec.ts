import { expect, test, type Locator, type Page } from '@playwright/test';
import { adminApi, apiAs, createUser, SHOTS, uniqLetters } from './support.ts';
import { requestThroughApi, transactionScene } from './invoices-support.ts';
import { CUSTODY_MSG, handOverPending } from '../src/shared/schemas/custodies.ts';
import { badgePng } from './badges.ts';

/** Presses Tab until `target` has the focus; fails when it is not reachable by keyboard. */
async function tabTo(page: Page, target: Locator, max = 80) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target.toString()} is not reachable with Tab`);
}

/** Signs in by typing and Enter only. */
async function keyboardLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await tabTo(page, page.getByLabel(/^Password/));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/login$/);
}

/** Focuses a searchable select, types part of an option and picks it with the arrow keys and Enter. */
async function pickByKeyboard(page: Page, combobox: Locator, text: string) {
  await tabTo(page, combobox);
  await page.keyboard.type(text);
  await expect(page.getByRole('option', { name: text })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(combobox).toHaveValue(text);
}

test('when the custodian issues, the courier hands over and the requester confirms and accepts by keyboard alone, then the invoice is completed', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await adminApi(request);
  const s = await transactionScene(admin, 1);
  const nextCourier = await createUser(admin, {
    role_id: 11,
    branch_id: s.office.id,
    first_name: 'Lina',
    last_name: `Runner ${uniqLetters()}`,
  });
  await requestThroughApi(request, s.requester, s.office.id, s.route.id, 1);
  const pads = (await admin.get<{ data: Array<{ number: number }> }>('available-pads', { route_id: s.route.id })).data;

  // Issue: the custodian opens the pending request and issues it to the first courier.
  await keyboardLogin(page, s.custodian.email, s.custodian.password);
  await page.goto('/invoices');
  await tabTo(page, page.getByPlaceholder('Search by branch name or pad number'));
  await page.keyboard.type(s.agency.name);
  const view = page.getByRole('button', { name: /^View Request invoice/ });
  await expect(view).toHaveCount(1);
  await tabTo(page, view);
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: 'Request Invoice Details' });
  await tabTo(page, details.getByRole('button', { name: 'Issue', exact: true }));
  await page.keyboard.press('Enter');
  const issue = page.getByRole('dialog', { name: 'Create Issue Invoice' });
  const padBox = issue.getByRole('checkbox', { name: `Select pad ${pads[0].number}` });
  await tabTo(page, padBox);
  await page.keyboard.press('Space');
  await expect(padBox).toBeChecked();
  await tabTo(page, issue.getByLabel('Expected Return (Days)'));
  await page.keyboard.type('5');
  await pickByKeyboard(page, issue.getByRole('combobox', { name: 'Assign to' }), s.courier.full_name);
  await page.screenshot({ path: `${SHOTS}/keyboard-issue.png` });
  await tabTo(page, issue.getByRole('button', { name: 'Submit' }));
  await page.keyboard.press('Enter');
  await expect(issue).toBeHidden();
  await expect(details.getByRole('table', { name: 'Invoice details' })).toContainText('Issued');

  // Hand over: the courier gives the custody to the next courier.
  const courierPage = await (await browser.newContext()).newPage();
  await keyboardLogin(courierPage, s.courier.email, s.courier.password);
  await courierPage.goto('/custodies');
  await tabTo(courierPage, courierPage.getByRole('button', { name: /^View Issued custody/ }));
  await courierPage.keyboard.press('Enter');
  const custody = courierPage.getByRole('dialog', { name: 'Issued Custody Details' });
  await tabTo(courierPage, custody.getByRole('button', { name: 'Hand Over' }));
  await courierPage.keyboard.press('Enter');
  const handOver = courierPage.getByRole('dialog', { name: 'Hand Over Custody' });
  await pickByKeyboard(courierPage, handOver.getByRole('combobox', { name: 'Hand over to' }), nextCourier.full_name);
  await tabTo(courierPage, handOver.getByRole('button', { name: 'Submit' }));
  await courierPage.keyboard.press('Enter');
  await expect(courierPage.getByText(handOverPending(nextCourier.full_name), { exact: true })).toBeVisible();
  await courierPage.context().close();

  // Two-party hand-over: the next courier accepts it on his own phone, from Needs my action (the first Accept custody).
  const nextPage = await (await browser.newContext()).newPage();
  await keyboardLogin(nextPage, nextCourier.email, nextCourier.password);
  await nextPage.goto('/custodies');
  await tabTo(nextPage, nextPage.getByRole('button', { name: 'Accept custody' }).first());
  await nextPage.keyboard.press('Enter');
  await expect(nextPage.getByText(CUSTODY_MSG.acceptedHandOver)).toBeVisible();
  await nextPage.context().close();

  // Confirm and accept: the requester scans the next courier's badge from a file and submits.
  const badge = await badgePng(request, browser, nextCourier);
  const requesterPage = await (await browser.newContext()).newPage();
  await keyboardLogin(requesterPage, s.requester.email, s.requester.password);
  await requesterPage.goto('/invoices');
  await tabTo(requesterPage, requesterPage.getByRole('button', { name: /^View Issued invoice/ }));
  await requesterPage.keyboard.press('Enter');
  const issued = requesterPage.getByRole('dialog', { name: 'Issued Invoice Details' });
  await tabTo(requesterPage, issued.getByRole('button', { name: 'Accept' }));
  await requesterPage.keyboard.press('Enter');
  const confirm = requesterPage.getByRole('dialog', { name: 'Confirm Invoice' });
  await tabTo(requesterPage, confirm.getByRole('button', { name: 'Scan Image File' }));
  const chooser = requesterPage.waitForEvent('filechooser');
  await requesterPage.keyboard.press('Enter');
  await (await chooser).setFiles(badge);
  const submit = confirm.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeEnabled();
  await tabTo(requesterPage, submit);
  await requesterPage.keyboard.press('Enter');
  await expect(requesterPage.getByText('Invoice accepted successfully')).toBeVisible();
  await requesterPage.context().close();

  const asRequester = await apiAs(request, s.requester.email, s.requester.password);
  const mine = await asRequester.get<{ data: Array<{ invoice_type: { name: string }; invoice_status: { name: string } }> }>(
    'get-invoices',
    { search: s.agency.name },
  );
  expect(mine.data.filter((i) => i.invoice_type.name === 'Issued').map((i) => i.invoice_status.name)).toEqual(['Completed']);
});
