import { expect, test, type Page } from '@playwright/test';
import { abbreviateSeries, seriesRange } from '../src/shared/format.ts';
import { transactionScene } from './invoices-support.ts';
import { ADMIN, PHONE, SHOTS, adminApi, apiAs, uiLogin, type Api } from './support.ts';

interface ScenePad {
  id: number;
  number: number;
  series_from: number;
  series_to: number;
}

/** An issued, in-transit invoice with its courier and expected return, plus a second request still pending. */
async function issuedScene(admin: Api, request: Parameters<typeof apiAs>[0]) {
  const s = await transactionScene(admin, 3);
  const requester = await apiAs(request, s.requester.email, s.requester.password);
  const custodian = await apiAs(request, s.custodian.email, s.custodian.password);
  const available = await admin.get<{ data: ScenePad[] }>('available-pads', { route_id: s.route.id, per_page: 100 });
  const pads = [...available.data].sort((a, b) => a.series_from - b.series_from);
  const asked = await requester.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: s.office.id,
    route_id: s.route.id,
    pads: 2,
  });
  const issued = await custodian.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: pads.slice(0, 2).map((p) => p.id),
    assigned_user_id: s.courier.id,
    expected_return: 7,
  });
  const pending = await requester.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: s.office.id,
    route_id: s.route.id,
    pads: 1,
  });
  return { ...s, pads, issuedId: issued.data.id, pendingId: pending.data.id };
}

/** Headers that end outside the window, and tables wider than their box (so they scroll sideways). */
async function layoutProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const table of document.querySelectorAll('main table')) {
      let box = table.parentElement as HTMLElement;
      while (box.parentElement && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
      if (box.scrollWidth > box.clientWidth) {
        /* Each column's width and its widest cell's text, so a failure names the column that would not wrap. */
        const columns = [...table.querySelectorAll('thead th')].map((th, i) => {
          const cells = [...table.querySelectorAll(`tbody tr td:nth-child(${i + 1})`)];
          const widest = cells.reduce<Element | null>((a, b) => (a && a.scrollWidth >= b.scrollWidth ? a : b), null);
          return `${th.textContent} ${Math.round(th.getBoundingClientRect().width)} px ("${widest?.textContent ?? ''}")`;
        });
        problems.push(
          `table "${table.getAttribute('aria-label') ?? ''}" scrolls: ${box.scrollWidth} > ${box.clientWidth}: ${columns.join(', ')}`,
        );
      }
      for (const th of table.querySelectorAll('thead th')) {
        const right = th.getBoundingClientRect().right;
        if (right > window.innerWidth) problems.push(`header "${th.textContent}" ends at ${Math.round(right)} > ${window.innerWidth}`);
      }
    }
    return problems;
  });
}

const LISTS = ['/invoices', '/custodies', '/pads', '/reports', '/companies', '/routes', '/branches', '/locations', '/users', '/roles'];

test('when every list is shown at 1280 and 1440 px, then each column header is in view and no table scrolls sideways', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = await adminApi(request);
  await issuedScene(admin, request);
  await uiLogin(page, ADMIN.email, ADMIN.password);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of LISTS) {
      await page.goto(path);
      await expect(page.locator('main table').first()).toBeVisible();
      await expect(page.getByTestId('table-loader')).toHaveCount(0);
      expect(await layoutProblems(page), `${path} at ${width}px`).toEqual([]);
    }
    await page.goto('/invoices');
    await expect(page.getByRole('row').filter({ hasText: 'In-Transit' }).first()).toContainText('7 days');
    for (const header of ['Assigned To', 'Expected Return', 'Route', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: header }), `${header} at ${width}px`).toBeInViewport({ ratio: 1 });
    }
    await page.screenshot({ path: `${SHOTS}/layout-transactions-${width}.png` });
  }
});

test('when a user collapses the navigation rail, then it keeps icons with named links in view, survives a reload, and is that user’s own choice', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const s = await transactionScene(admin, 1);
  await page.setViewportSize({ width: 1440, height: 900 });
  await uiLogin(page, ADMIN.email, ADMIN.password);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const width = async () => (await nav.boundingBox())?.width ?? 0;
  await expect(nav.getByText('Transactions', { exact: true })).toBeInViewport();
  expect(await width()).toBeGreaterThan(180);

  await page.getByRole('button', { name: 'Collapse navigation' }).click();
  await expect(page.getByRole('button', { name: 'Expand navigation' })).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(width).toBeLessThan(80);
  for (const link of await nav.getByRole('link').all()) {
    await expect(link).toBeInViewport({ ratio: 1 });
    expect((await link.textContent())?.trim()).not.toBe('');
  }
  await expect(nav.getByRole('link', { name: 'Transactions', exact: true })).toBeInViewport();
  await nav.getByRole('link', { name: 'Inventories', exact: true }).click();
  await expect(page).toHaveURL(/\/pads$/);
  await page.screenshot({ path: `${SHOTS}/layout-rail-collapsed-1440.png` });

  await page.reload();
  await expect(page.getByRole('button', { name: 'Expand navigation' })).toBeVisible();
  await expect.poll(width).toBeLessThan(80);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await uiLogin(page, s.custodian.email, s.custodian.password);
  await expect(page.getByRole('button', { name: 'Collapse navigation' })).toBeVisible();
  await expect.poll(width).toBeGreaterThan(180);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('button', { name: 'Expand navigation' })).toBeVisible();
  await expect.poll(width).toBeLessThan(80);
  await page.getByRole('button', { name: 'Expand navigation' }).click();
  await page.reload();
  await expect.poll(width).toBeGreaterThan(180);
});

test('when the phone menu is closed, then keyboard focus never lands in the hidden drawer', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await uiLogin(page, ADMIN.email, ADMIN.password);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Transactions', exact: true })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Account menu' }).focus();
  const stops: string[] = [];
  for (let i = 0; i < 15; i += 1) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() =>
      document.activeElement?.closest('nav') ? 'nav' : document.activeElement?.closest('main') ? 'main' : 'other',
    );
    stops.push(where);
    if (where === 'main') break;
  }
  expect(stops).toContain('main');
  expect(stops).not.toContain('nav');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(nav.getByRole('link', { name: 'Transactions', exact: true })).toBeInViewport();
  await nav.getByRole('link', { name: 'Inventories', exact: true }).click();
  await expect(page).toHaveURL(/\/pads$/);
});

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Opens an invoice's details from the Transactions list, found by the scene's agency. */
async function openInvoice(page: Page, agency: string, type: string, id: number) {
  await page.goto('/invoices');
  await page.getByPlaceholder('Search by branch name or pad number').fill(agency);
  await page.getByRole('button', { name: `View ${type} invoice ${id}`, exact: true }).click();
}

test('when pads are listed on a phone, then Inventories and the invoice, issue and return pad lists are cards with the series in full', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await adminApi(request);
  const s = await issuedScene(admin, request);
  const [first, second, third] = s.pads;
  await page.setViewportSize(PHONE);

  await uiLogin(page, s.custodian.email, s.custodian.password);
  await page.goto('/pads');
  await page.getByPlaceholder('Search by pad name').fill(String(first.series_from));
  const padCards = page.getByRole('list', { name: 'Pads' });
  const card = padCards.getByRole('listitem').filter({ hasText: seriesRange(first.series_from, first.series_to) });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(`Series Number${seriesRange(first.series_from, first.series_to)}`);
  // Needs my action above the list grows with what else waits at the head office the whole suite shares.
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole('button', { name: /^VIEW pad/ })).toBeInViewport({ ratio: 1 });
  await expect(page.locator('main table')).toHaveCount(0);
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: `${SHOTS}/layout-pads-390.png` });

  await openInvoice(page, s.agency.name, 'Issued', s.issuedId);
  const details = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: /Issued Invoice Details/ }) });
  const invoicePads = details.getByRole('list', { name: 'Invoice pads' });
  await expect(invoicePads.getByRole('listitem')).toHaveCount(2);
  await expect(invoicePads).toContainText(seriesRange(second.series_from, second.series_to));
  await expect(details.locator('table', { has: page.getByRole('columnheader', { name: 'Series Number' }) })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/layout-invoice-pads-390.png` });

  await openInvoice(page, s.agency.name, 'Request', s.pendingId);
  await page
    .getByRole('dialog')
    .filter({ has: page.getByRole('heading', { name: /Request Invoice Details/ }) })
    .getByRole('button', { name: 'Issue', exact: true })
    .click();
  const issue = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: /Create Issue Invoice/ }) });
  const available = issue.getByRole('list', { name: 'Available pads' });
  await expect(available.getByRole('listitem')).toHaveCount(1);
  await expect(available).toContainText(seriesRange(third.series_from, third.series_to));
  await available.getByRole('checkbox', { name: `Select pad ${third.number}` }).check();
  await expect(issue.getByText('1 of 1 selected')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/layout-issue-pads-390.png` });

  const holder = await apiAs(request, s.requester.email, s.requester.password);
  await holder.post(`accept-invoice/${s.issuedId}`);
  await page.goto('/login');
  await page.evaluate(() => localStorage.clear());
  await uiLogin(page, s.requester.email, s.requester.password);
  await page.goto('/invoices');
  await page.getByRole('button', { name: 'Return', exact: true }).click();
  const ret = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: /Create Return Invoice/ }) });
  const mine = ret.getByRole('list', { name: 'My pads' });
  await expect(mine.getByRole('listitem')).toHaveCount(2);
  await expect(mine).toContainText(seriesRange(first.series_from, first.series_to));
  await mine.getByRole('checkbox', { name: `Select pad ${first.number}` }).check();
  await expect(ret.getByText(/^1 (of \d+ )?selected$/)).toBeVisible();
  await expect(mine.getByRole('button', { name: `Edit pad ${first.number}` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/layout-return-pads-390.png` });
});

test('when staff compare series with paper, then the issue picker and the invoice pads show them in full and only the series circles abbreviate', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const s = await issuedScene(admin, request);
  const [first, , third] = s.pads;
  await uiLogin(page, s.custodian.email, s.custodian.password);

  await openInvoice(page, s.agency.name, 'Issued', s.issuedId);
  const details = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: /Issued Invoice Details/ }) });
  await expect(details.getByRole('table', { name: 'Invoice pads' })).toContainText(seriesRange(first.series_from, first.series_to));
  await expect(details).not.toContainText(abbreviateSeries(first.series_from));

  await openInvoice(page, s.agency.name, 'Request', s.pendingId);
  await page
    .getByRole('dialog')
    .filter({ has: page.getByRole('heading', { name: /Request Invoice Details/ }) })
    .getByRole('button', { name: 'Issue', exact: true })
    .click();
  const issue = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: /Create Issue Invoice/ }) });
  await expect(issue.getByRole('table', { name: 'Available pads' })).toContainText(seriesRange(third.series_from, third.series_to));
  await expect(issue).not.toContainText(abbreviateSeries(third.series_from));
  await page.screenshot({ path: `${SHOTS}/layout-issue-series-1280.png` });

  await page.goto('/pads');
  await page.getByPlaceholder('Search by pad name').fill(String(first.series_from));
  await page.getByRole('button', { name: `VIEW pad ${first.number} ${seriesRange(first.series_from, first.series_to)}` }).click();
  const circles = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: /Pad Details/ }) });
  await expect(circles.getByText(abbreviateSeries(first.series_from), { exact: true })).toBeVisible();
});
