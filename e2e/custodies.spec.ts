import { expect, test } from '@playwright/test';
import { adminApi, apiAs, createBranch, createUser, headOffice, SHOTS, uiLogin, uniq, uniqLetters } from './support.ts';
import { acceptInTransactions, padsHeldBy } from './custodies-support.ts';
import { handOverPending } from '../src/shared/schemas/custodies.ts';
import { badgePng } from './badges.ts';

test.describe('returns and turnovers from Transactions', () => {
  test('when a requester returns a pad, then Accounting accepts it and it leaves his custody', async ({ page, request, browser }) => {
    const admin = await adminApi(request);
    await headOffice(admin);
    const branch = await createBranch(admin, `Calapan Agency ${uniq()}`);
    const requester = await createUser(admin, { role_id: 5, branch_id: branch.id, first_name: 'Berto' });
    const courier = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Carlo', last_name: 'Courier' });
    const accounting = await createUser(admin, { role_id: 8, first_name: 'Alma', last_name: 'Accounting' });
    const pads = await padsHeldBy(request, admin, requester, courier, 2);

    await uiLogin(page, requester.email, requester.password);
    await expect(page).toHaveURL(/\/invoices$/);
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Create Return Invoice' });
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: `Edit pad ${pads[0].number}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Pad' });
    await expect(edit.getByRole('button', { name: 'Save Changes' })).toBeVisible();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toBeHidden();
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Please select at least one pad').first()).toBeVisible();
    await modal.getByRole('checkbox', { name: `Select pad ${pads[0].number}` }).check();
    await modal.getByRole('combobox', { name: 'Assign to' }).click();
    await page.getByRole('option', { name: courier.full_name }).click();
    await page.screenshot({ path: `${SHOTS}/custodies-return-modal.png` });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Return invoice created successfully')).toBeVisible();

    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await expect(modal.getByRole('checkbox', { name: `Select pad ${pads[1].number}` })).toBeVisible();
    await expect(modal.getByRole('checkbox', { name: `Select pad ${pads[0].number}` })).toHaveCount(0);
    await modal.getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/custodies');
    await expect(page.getByRole('row', { name: new RegExp(`Return.*${branch.name}`) })).toHaveCount(1);

    const badge = await badgePng(request, browser, courier);
    const accountingPage = await (await browser.newContext()).newPage();
    await uiLogin(accountingPage, accounting.email, accounting.password);
    await acceptInTransactions(accountingPage, branch.name, /Return/, badge);
    await accountingPage.context().close();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Custodies' })).toBeVisible();
    await expect(page.getByText('No custodies')).toBeVisible();
    await page.goto('/invoices');
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await expect(modal.getByRole('checkbox', { name: `Select pad ${pads[1].number}` })).toBeVisible();
    await expect(modal.getByRole('checkbox', { name: `Select pad ${pads[0].number}` })).toHaveCount(0);
  });

  test('when a requester turns pads over to another branch, then a supervisor there accepts them into her custody', async ({
    page,
    request,
    browser,
  }) => {
    const admin = await adminApi(request);
    await headOffice(admin);
    const from = await createBranch(admin, `Batangas Agency ${uniq()}`);
    const to = await createBranch(admin, `Roxas Agency ${uniq()}`);
    const requester = await createUser(admin, { role_id: 7, branch_id: from.id, first_name: 'Tess' });
    const courier = await createUser(admin, { role_id: 11, branch_id: from.id, first_name: 'Mario', last_name: 'Messenger' });
    const supervisor = await createUser(admin, { role_id: 6, branch_id: to.id, first_name: 'Sofia', last_name: 'Supervisor' });
    const pads = await padsHeldBy(request, admin, requester, courier, 1);

    await uiLogin(page, requester.email, requester.password);
    await page.getByRole('button', { name: 'Turnover', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Create Turnover Invoice' });
    await expect(modal).toBeVisible();
    await modal.getByRole('checkbox', { name: `Select pad ${pads[0].number}` }).check();
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Please select a branch').first()).toBeVisible();
    await modal.getByRole('combobox', { name: 'Branch' }).click();
    await page.getByRole('option', { name: to.name }).click();
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Please select a user to assign').first()).toBeVisible();
    await modal.getByRole('combobox', { name: 'Assign to' }).click();
    await page.getByRole('option', { name: courier.full_name }).click();
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Turnover invoice created successfully')).toBeVisible();

    await page.goto('/custodies');
    const row = page.getByRole('row', { name: new RegExp(to.name) });
    await expect(row).toContainText('Turnover');
    await expect(row).toContainText(courier.full_name);
    await page.screenshot({ path: `${SHOTS}/custodies-list-desktop.png`, fullPage: true });
    await row.getByRole('button', { name: /View/ }).click();
    const details = page.getByRole('dialog', { name: 'Turnover Custody Details' });
    await expect(details).toBeVisible();
    await expect(details.getByRole('table').nth(1)).toContainText(String(pads[0].number));
    await page.screenshot({ path: `${SHOTS}/custodies-details-desktop.png` });
    await expect(details.getByRole('button', { name: 'Hand Over' })).toHaveCount(0);

    const badge = await badgePng(request, browser, courier);
    const supervisorPage = await (await browser.newContext()).newPage();
    await uiLogin(supervisorPage, supervisor.email, supervisor.password);
    await acceptInTransactions(supervisorPage, to.name, /Turnover/, badge);
    await supervisorPage.goto('/invoices');
    await supervisorPage.getByRole('button', { name: 'Turnover', exact: true }).click();
    const theirs = supervisorPage.getByRole('dialog', { name: 'Create Turnover Invoice' });
    await expect(theirs.getByRole('checkbox', { name: `Select pad ${pads[0].number}` })).toBeVisible();
    await supervisorPage.context().close();
  });

  test('when an administrator hands over on a desktop, then the modal offers couriers by name and the pick waits for that courier to accept', async ({
    page,
    request,
  }) => {
    const admin = await adminApi(request);
    await headOffice(admin);
    const branch = await createBranch(admin, `Dumaguete Agency ${uniq()}`);
    const requester = await createUser(admin, { role_id: 5, branch_id: branch.id });
    const courier = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Pedro', last_name: 'Driver' });
    const other = await createUser(admin, {
      role_id: 11,
      branch_id: branch.id,
      first_name: 'Lina',
      last_name: `Runner ${uniqLetters()}`,
    });
    const pads = await padsHeldBy(request, admin, requester, courier, 1);
    await (
      await apiAs(request, requester.email, requester.password)
    ).post('create-return-invoice', { pads: [pads[0].id], assigned_user_id: courier.id });

    await uiLogin(page, 'admin@padtrack.test', 'Admin@12345');
    await page.goto('/custodies');
    await page.getByPlaceholder('Search by branch name or pad number').fill(branch.name);
    await expect(page).toHaveURL(/[?&]search=/);
    const row = page.getByRole('row', { name: new RegExp(courier.full_name) });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: /View/ }).click();
    const details = page.getByRole('dialog', { name: 'Return Custody Details' });
    await expect(details).toHaveCSS('opacity', '1');
    await details.getByRole('button', { name: 'Hand Over' }).click();
    const modal = page.getByRole('dialog', { name: 'Hand Over Custody' });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(modal.getByText('Hand over to is required')).toBeVisible();
    await modal.getByRole('combobox', { name: 'Hand over to' }).click();
    await expect(page.getByRole('option', { name: courier.full_name })).toHaveCount(0);
    await page.getByRole('option', { name: other.full_name }).click();
    await page.screenshot({ path: `${SHOTS}/custodies-hand-over-desktop.png` });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(handOverPending(other.full_name))).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(courier.full_name) })).toHaveCount(1);
  });
});
