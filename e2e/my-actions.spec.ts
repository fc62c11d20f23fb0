import { expect, test, type Page } from '@playwright/test';
import { shot } from './admin-support.ts';
import { badgePng } from './badges.ts';
import { padsHeldBy } from './custodies-support.ts';
import { requestThroughApi, transactionScene } from './invoices-support.ts';
import { PHONE, adminApi, apiAs, createBranch, createUser, uiLogin, watchConsole } from './support.ts';

const needs = (page: Page) => page.getByRole('region', { name: 'Needs my action' });
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

/** Signs the current user out of this browser and another in. */
async function signInAs(page: Page, who: { email: string; password: string }) {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await uiLogin(page, who.email, who.password);
}

interface MyActions {
  total: number;
  groups: Array<{ kind: string; count: number; items: Array<{ id: number; path: string }> }>;
}

test.describe('What needs me, Accept in Custodies, the dashboard, and actions a role cannot complete', () => {
  test('when a request waits and an issued invoice is on its way, then each person sees it under Needs my action with a count, a menu badge and a link that opens it', async ({
    page,
    request,
  }) => {
    const admin = await adminApi(request);
    const scene = await transactionScene(admin, 2);
    const asked = await requestThroughApi(request, scene.requester, scene.office.id, scene.route.id, 2);
    const pads = await admin.get<{ data: Array<{ id: number }> }>('available-pads', { route_id: scene.route.id });
    const second = await requestThroughApi(request, scene.requester, scene.office.id, scene.route.id, 1);
    const issued = (
      await admin.post<{ data: { id: number } }>('issue-invoice', {
        invoice_id: second.id,
        pads: [pads.data[0].id],
        assigned_user_id: scene.courier.id,
        expected_return: 5,
      })
    ).data;

    await uiLogin(page, scene.custodian.email, scene.custodian.password);
    await expect(page).toHaveURL(/\/pads$/);
    await expect(needs(page)).toBeVisible({ timeout: 30_000 });
    const custodianView = (
      await (await apiAs(request, scene.custodian.email, scene.custodian.password)).get<{ data: MyActions }>('my-actions')
    ).data;
    const toIssue = custodianView.groups.find((g) => g.kind === 'issue');
    const issueGroup = needs(page).getByRole('region', { name: /^Requests to issue/ });
    await expect(issueGroup).toHaveAccessibleName(`Requests to issue: ${toIssue?.count}`);
    await expect(nav(page).getByRole('link', { name: 'Transactions' })).toHaveAccessibleDescription(`${toIssue?.count} waiting for you`);
    await issueGroup.getByRole('link', { name: new RegExp(`^Request #${asked.id} with 2 pads`) }).click();
    await expect(page).toHaveURL(new RegExp(`/invoices\\?invoice=${asked.id}$`));
    await expect(page.getByRole('dialog', { name: 'Request Invoice Details' })).toBeVisible();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Issue' })).toBeVisible();

    await signInAs(page, scene.requester);
    const toAccept = needs(page).getByRole('region', { name: 'Invoices to accept: 1' });
    await expect(toAccept).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Transactions' })).toHaveAccessibleDescription('1 waiting for you');
    await shot(page, 'h5-needs-my-action-1280');
    await toAccept.getByRole('link', { name: new RegExp(`^Issued #${issued.id} with 1 pad`) }).click();
    await expect(page).toHaveURL(new RegExp(`/invoices\\?invoice=${issued.id}$`));
    await expect(page.getByRole('dialog', { name: 'Issued Invoice Details' }).getByRole('button', { name: 'Accept' })).toBeVisible();

    await signInAs(page, scene.courier);
    await expect(page).toHaveURL(/\/custodies$/);
    const carried = needs(page).getByRole('region', { name: 'Custody I carry: 1' });
    await expect(nav(page).getByRole('link', { name: 'Custodies' })).toHaveAccessibleDescription('1 waiting for you');
    await page.setViewportSize(PHONE);
    await shot(page, 'h5-needs-my-action-390');
    await carried.getByRole('link', { name: new RegExp(`^Issued #${issued.id}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/custodies\\?custody=${issued.id}$`));
    await expect(page.getByRole('dialog', { name: 'Issued Custody Details' })).toBeVisible();

    await (await apiAs(request, scene.requester.email, scene.requester.password)).post(`accept-invoice/${issued.id}`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/custodies');
    await expect(needs(page).getByText('Nothing waits for you right now.')).toBeVisible();
    await expect(nav(page).getByRole('link', { name: 'Custodies' })).toHaveAccessibleDescription('');
  });

  test('when a turnover reaches the Branch Custodian, then she accepts it from Custodies with the Confirm scan and it is stored as Completed', async ({
    page,
    request,
    browser,
  }) => {
    const admin = await adminApi(request);
    const from = await createBranch(admin, 'Lipa Agency');
    const to = await createBranch(admin, 'Calapan Terminal');
    const holder = await createUser(admin, { role_id: 5, branch_id: from.id, first_name: 'Rosa', last_name: 'Reyes' });
    const courier = await createUser(admin, { role_id: 10, branch_id: from.id, first_name: 'Dan', last_name: 'Diaz' });
    const receiver = await createUser(admin, { role_id: 4, branch_id: to.id, first_name: 'Ramon', last_name: 'Aquino' });
    const pads = await padsHeldBy(request, admin, holder, courier, 1);
    const asHolder = await apiAs(request, holder.email, holder.password);
    const turnover = (
      await asHolder.post<{ data: { id: number } }>('create-turnover-invoice', {
        pads: pads.map((p) => p.id),
        branch_id: to.id,
        assigned_user_id: courier.id,
      })
    ).data;
    const badge = await badgePng(request, browser, courier);

    const errors = watchConsole(page);
    await uiLogin(page, receiver.email, receiver.password);
    await expect(page).toHaveURL(/\/custodies$/);
    await needs(page)
      .getByRole('region', { name: 'Invoices to accept: 1' })
      .getByRole('link', { name: new RegExp(`^Turnover #${turnover.id}`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/custodies\\?custody=${turnover.id}$`));
    const details = page.getByRole('dialog', { name: 'Turnover Custody Details' });
    await expect(details.getByRole('button', { name: 'Accept' })).toBeVisible();
    await shot(page, 'h5-custody-accept-1280');
    await details.getByRole('button', { name: 'Accept' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Invoice' });
    await expect(confirm.getByRole('button', { name: 'Submit' })).toBeDisabled();
    const chooser = page.waitForEvent('filechooser');
    await confirm.getByRole('button', { name: 'Scan Image File' }).click();
    await (await chooser).setFiles(badge);
    await confirm.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Invoice accepted successfully')).toBeVisible();

    const stored = (
      await asHolder.get<{ data: { invoice_status: { name: string }; accepted_by: number | null } }>(`get-invoice/${turnover.id}`)
    ).data;
    expect(stored.invoice_status.name).toBe('Completed');
    const held = (await (await apiAs(request, receiver.email, receiver.password)).get<{ data: Array<{ id: number }> }>('get-user-pads'))
      .data;
    expect(held.map((p) => p.id)).toEqual(pads.map((p) => p.id));
    expect(errors).toEqual([]);

    await page.setViewportSize(PHONE);
    await page.goto(`/custodies?custody=${turnover.id}`);
    await expect(page.getByRole('dialog', { name: 'Turnover Custody Details' })).toBeVisible();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Accept' })).toHaveCount(0);
    await shot(page, 'h5-custody-accepted-390');
  });

  test('when roles 1, 2, 8 and 9 open the Dashboard, then it shows pads by status and branch, stock per route, and invoices in transit, while other roles and the sign-in page never load it', async ({
    page,
    request,
  }) => {
    const loaded: string[] = [];
    page.on('request', (r) => loaded.push(r.url()));
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    expect(loaded.filter((url) => /dashboard|recharts|charts/i.test(url))).toEqual([]);

    const admin = await adminApi(request);
    const auditor = await createUser(admin, { role_id: 9, first_name: 'Aida', last_name: 'Auditor' });
    const head = await createUser(admin, { role_id: 5 });
    await transactionScene(admin, 2);
    const figures = (
      await (
        await apiAs(request, auditor.email, auditor.password)
      ).get<{
        data: {
          pads_total: number;
          pads_by_status: Array<{ name: string; count: number }>;
          stock_by_route: Array<{ name: string; pads: number }>;
        };
      }>('dashboard')
    ).data;

    await uiLogin(page, auditor.email, auditor.password);
    await expect(page).toHaveURL(/\/invoices$/);
    await nav(page)
      .getByRole('link', { name: /Dashboard/ })
      .click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('stat-pads')).toHaveText(figures.pads_total.toLocaleString('en-US'));
    const byStatus = page.getByRole('table', { name: 'Pads by status' });
    for (const row of figures.pads_by_status) {
      await expect(byStatus.getByRole('row', { name: new RegExp(`^${row.name} ${row.count.toLocaleString('en-US')}$`) })).toBeVisible();
    }
    await expect(page.getByRole('table', { name: 'Pads by holding branch' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Numbers in stock per route' }).getByRole('row').nth(1)).toContainText(
      figures.stock_by_route[0].name,
    );
    await expect(page.getByRole('table', { name: 'Invoices in transit' }).getByRole('row', { name: /^Issued/ })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Donut chart of pads by status' }).locator('svg.recharts-surface')).toBeVisible();
    await shot(page, 'h5-dashboard-1280');
    await page.setViewportSize(PHONE);
    await expect(page.getByTestId('stat-pads')).toBeVisible();
    await shot(page, 'h5-dashboard-390');

    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAs(page, head);
    await expect(nav(page).getByRole('link', { name: /Dashboard/ })).toHaveCount(0);
    expect(
      (
        await request.get('/api/dashboard', {
          headers: { authorization: `Bearer ${(await apiAs(request, head.email, head.password)).token}` },
        })
      ).status(),
    ).toBe(403);
  });

  test('when the Auditor opens Transactions, then Request, Return and Turnover are not offered; when a branch head holds no pads, then Return says why', async ({
    page,
    request,
  }) => {
    const admin = await adminApi(request);
    const auditor = await createUser(admin, { role_id: 9 });
    const head = await createUser(admin, { role_id: 5 });

    await uiLogin(page, auditor.email, auditor.password);
    await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Filter' })).toBeVisible();
    for (const name of ['Request', 'Return', 'Turnover']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
    await shot(page, 'h5-auditor-transactions-1280');

    await signInAs(page, head);
    for (const name of ['Request', 'Return', 'Turnover']) await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Create Return Invoice' });
    await expect(modal.getByRole('alert').filter({ hasText: 'No pads in your custody' })).toContainText(
      'Pads come into your custody when you accept an Issued invoice or a Turnover',
    );
    await shot(page, 'h5-return-no-pads-1280');
    await page.setViewportSize(PHONE);
    await shot(page, 'h5-return-no-pads-390');
  });
});
