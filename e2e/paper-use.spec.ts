import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoLogoPng } from '../src/server/demo/operator.ts';
import { OUTAGE_MSG } from '../src/shared/schemas/outages.ts';
import { USAGE_MSG } from '../src/shared/schemas/pads.ts';
import { EXCEPTION_REASON_LABELS, PAPER_USE_MSG } from '../src/shared/schemas/paper-uses.ts';
import { coveredPlace, type CoveredPlace } from './paper-use-support.ts';
import { pdfText } from './pdf-text.ts';
import { ADMIN, PHONE, adminApi, animationsSettled, createUser, seriousAxe, uiLogin, waitForToastsToClose, type Api } from './support.ts';

/** docs/screenshots: the screens of issue 38 at the desktop and the phone width. */
const SHOTS = 'docs/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const NO_TOASTS = '.mantine-Notifications-root { display: none !important; }';

async function shot(page: Page, name: string) {
  await animationsSettled(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, style: NO_TOASTS });
}

async function openRail(page: Page) {
  if ((page.viewportSize()?.width ?? 0) < 768) await page.getByRole('button', { name: 'Toggle navigation' }).click();
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** The counter marks one number used in Pad Details, as on any day. */
async function markUsed(page: Page, place: CoveredPlace, number: number) {
  await page.goto(`/pads?pad=${place.pad.id}`);
  const details = page.getByRole('dialog', { name: 'Pad Details' });
  await details.getByRole('button', { name: new RegExp(`^${number}: `) }).click();
  await details.getByRole('button', { name: `Mark used ${number}` }).click();
  await expect(page.getByText(USAGE_MSG.recorded(number, number)).first()).toBeVisible();
  await waitForToastsToClose(page);
}

const cardOf = (page: Page, id: number): Locator => page.getByRole('listitem').filter({ has: page.getByText(`#${id} `, { exact: false }) });

let admin: Api;
let place: CoveredPlace;
let accounting: { email: string; password: string };

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
  admin = await adminApi(request);
  place = await coveredPlace(request, admin, 'Calapan Port');
  accounting = await createUser(admin, { role_id: 8, first_name: 'Teresita' });
});

test.describe.configure({ mode: 'serial' });

test('when the network fails, the Supervisor at the counter declares an outage on her phone; paper used inside it is linked, paper used after it closes becomes an exception', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await uiLogin(page, place.supervisor.email, place.supervisor.password);
  const rail = await openRail(page);
  await rail.getByRole('link', { name: 'Outages', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Outages' })).toBeVisible();

  await page.getByRole('button', { name: 'Declare outage' }).click();
  const form = page.getByRole('dialog', { name: 'Declare outage' });
  await expect(form.getByLabel('Establishment')).toHaveValue(place.branch.name);
  await expect(form.getByLabel(/^Start/)).not.toHaveValue('');
  await form.getByRole('button', { name: 'Declare outage' }).click();
  await expect(form.getByText('Choose the cause')).toBeVisible();
  await form.getByRole('radio', { name: 'Network or internet down' }).click();
  await form.getByLabel('Details').fill('PLDT fibre down since the storm; the e-receipt terminal cannot reach the server.');
  const photo = form.locator('input[type="file"]');
  await expect(photo).toHaveAttribute('accept', 'image/*');
  await photo.setInputFiles({ name: 'router-lights.png', mimeType: 'image/png', buffer: demoLogoPng() });
  await shot(page, 'outages-declare-390');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'outages-declare-1280');
  await page.setViewportSize(PHONE);
  expect(await seriousAxe(page, '[role="dialog"]')).toEqual([]);
  await form.getByRole('button', { name: 'Declare outage' }).click();
  await expect(page.getByText(OUTAGE_MSG.declared).first()).toBeVisible();
  await expect(form).toBeHidden();

  const outages = await admin.get<{ data: Array<{ id: number; state: string; evidence_count: number }> }>('outages', {
    branch_id: place.branch.id,
  });
  expect(outages.data).toHaveLength(1);
  const outage = outages.data[0];
  expect(outage).toMatchObject({ state: 'open', evidence_count: 1 });
  await expect(cardOf(page, outage.id)).toContainText('Open');
  await waitForToastsToClose(page);
  await shot(page, 'outages-390');

  const inside = place.pad.series_from;
  await markUsed(page, place, inside);

  await page.goto('/outages');
  await cardOf(page, outage.id)
    .getByRole('button', { name: `CLOSE outage ${outage.id}` })
    .click();
  const closing = page.getByRole('dialog', { name: `Close outage #${outage.id}` });
  await expect(closing.getByRole('radio', { name: 'Ended now' })).toBeChecked();
  await shot(page, 'outages-close-390');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'outages-close-1280');
  await page.setViewportSize(PHONE);
  await closing.getByRole('button', { name: 'Close outage' }).click();
  await expect(page.getByText(OUTAGE_MSG.closed).first()).toBeVisible();
  await expect(cardOf(page, outage.id)).toContainText('Closed');
  await waitForToastsToClose(page);

  const after = inside + 1;
  await markUsed(page, place, after);

  await page.goto(`/outages?outage=${outage.id}`);
  const details = page.getByRole('dialog', { name: `Outage #${outage.id}` });
  await expect(details.getByRole('list', { name: 'Paper ranges' })).toContainText(`Pad ${place.pad.number}: ${inside} (1)`);
  await expect(details.getByText('router-lights.png')).toBeVisible();
  await expect(details.getByText('0 entered · 1 pending')).toBeVisible();
  await shot(page, 'outages-details-390');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'outages-details-1280');
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();
  await shot(page, 'outages-1280');
  await context.close();

  const exceptions = await admin.get<{ data: Array<{ id: number; state: string; number_from: number; establishment: { id: number } }> }>(
    'paper-use-exceptions',
    { branch_id: place.branch.id },
  );
  expect(exceptions.data.map((e) => [e.number_from, e.state])).toEqual([[after, 'open']]);
});

test('when Accounting opens the exception from Needs my action and justifies it, then the summary list shows the outage with its range and the exception with its decision, in the PDF too', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  const page = await context.newPage();
  await uiLogin(page, accounting.email, accounting.password);
  const group = page.getByRole('region', { name: /^Paper used outside an outage/ });
  const link = group.getByRole('link', { name: new RegExp(place.branch.name) });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(/\/outages\?tab=exceptions&exception=\d+/);
  const after = place.pad.series_from + 1;
  const opened = page.getByRole('dialog', { name: `Exception: numbers ${after}` });
  await expect(opened).toContainText(place.branch.name);
  await shot(page, 'outages-exception-1280');
  await page.setViewportSize(PHONE);
  await shot(page, 'outages-exception-390');
  await page.setViewportSize(DESKTOP);
  await opened.getByRole('button', { name: 'Decide…' }).click();
  const decide = page.getByRole('dialog', { name: `Decide exception: numbers ${after}` });
  await decide.getByRole('button', { name: 'Save decision' }).click();
  await expect(decide.getByText(PAPER_USE_MSG.reasonRequired)).toBeVisible();
  await decide.getByRole('radio', { name: 'Justify' }).check();
  await decide.getByRole('combobox', { name: 'Reason' }).click();
  await page.getByRole('option', { name: EXCEPTION_REASON_LABELS.outage_not_declared }).click();
  await decide
    .getByLabel('Explanation')
    .fill('The network was still down after the outage was closed too early; the terminal log shows it.');
  await shot(page, 'outages-decide-1280');
  await page.setViewportSize(PHONE);
  await shot(page, 'outages-decide-390');
  await page.setViewportSize(DESKTOP);
  await decide.getByRole('button', { name: 'Save decision' }).click();
  await expect(page.getByText(PAPER_USE_MSG.decided('justified')).first()).toBeVisible();
  await expect(decide).toBeHidden();
  await expect(opened).toContainText('Justified');
  await expect(opened.getByRole('button', { name: 'Decide…' })).toHaveCount(0);

  await page.goto('/outages?tab=exceptions');
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'Justified' }).click();
  await expect(page.getByRole('table', { name: 'Exceptions' })).toContainText(place.branch.name);
  await waitForToastsToClose(page);
  await shot(page, 'outages-exceptions-1280');

  await page.getByRole('tab', { name: 'Summary list' }).click();
  const establishment = page.getByRole('combobox', { name: 'Establishment' });
  await establishment.click();
  await establishment.fill(place.branch.name);
  await page.getByRole('option', { name: place.branch.name }).click();
  const inside = place.pad.series_from;
  await expect(page.getByRole('table', { name: 'Outages in the period' })).toContainText(`Pad ${place.pad.number}: ${inside} (1)`);
  await expect(page.getByRole('table', { name: 'Outages in the period' })).toContainText('Network or internet down');
  const exceptionRows = page.getByRole('table', { name: 'Exceptions in the period' });
  await expect(exceptionRows).toContainText(`Pad ${place.pad.number}: ${after}`);
  await expect(exceptionRows).toContainText('Justified');
  await expect(exceptionRows).toContainText(EXCEPTION_REASON_LABELS.outage_not_declared);
  const totals = page.getByRole('region', { name: 'Totals' });
  await expect(totals).toContainText(/Total paper numbers\s*2/);
  await expect(totals).toContainText(/Ledger's used numbers\s*2/);
  await shot(page, 'paper-use-summary-1280');
  expect(await seriousAxe(page)).toEqual([]);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF' }).click();
  const file = await (await download).path();
  const text = pdfText(fs.readFileSync(file));
  expect(text).toContain(place.branch.name);
  expect(text).toContain(String(inside));
  expect(text).toContain(String(after));
  expect(text).toMatch(/Justified/i);

  await page.setViewportSize(PHONE);
  await expect(totals).toBeVisible();
  await shot(page, 'paper-use-summary-390');
  await page.getByRole('tab', { name: 'Exceptions' }).click();
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'Justified' }).click();
  await expect(page.getByRole('list', { name: 'Exceptions' })).toContainText(place.branch.name);
  await shot(page, 'outages-exceptions-390');
  await context.close();
});

test("when the Admin opens a branch's e-invoicing and a series' role, then both are edited in place, the role change kept in its history", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await uiLogin(page, ADMIN.email, ADMIN.password);
  for (const [size, suffix] of [
    [DESKTOP, '1280'],
    [PHONE, '390'],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto(`/branches?search=${encodeURIComponent(place.branch.name)}`);
    await page.getByRole('button', { name: `E-INVOICING ${place.branch.name}` }).click();
    const eInvoicing = page.getByRole('dialog', { name: `E-invoicing: ${place.branch.name}` });
    await expect(eInvoicing.getByLabel('Invoicing system')).toHaveValue('OceanJet e-Receipts 2.1');
    await expect(eInvoicing.getByRole('switch', { name: /Issues e-invoices/ })).toBeChecked();
    await shot(page, `paper-use-branch-e-invoicing-${suffix}`);
    await page.keyboard.press('Escape');
    await expect(eInvoicing).toBeHidden();

    await page.goto(`/registered-series?search=${encodeURIComponent(place.atp)}`);
    await expect(page.getByText('Contingency (outages)').first()).toBeVisible();
    await page.getByRole('button', { name: new RegExp(`^CHANGE ROLE ${place.atp}`) }).click();
    const role = page.getByRole('dialog', { name: `Change role: ATP ${place.atp}` });
    await expect(role.getByRole('list', { name: 'Role history' })).toContainText('Kept at the counter for outages after go-live');
    await shot(page, `paper-use-series-role-${suffix}`);
    if (suffix === '390') {
      await role.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Converted receipts (until consumed)' }).click();
      await role.getByLabel('Reason').fill('Converted under RR 11-2024: used until consumed');
      await role.getByRole('button', { name: 'Change role' }).click();
      await expect(page.getByText('Series role changed to Converted receipts (until consumed)').first()).toBeVisible();
      await expect(role).toBeHidden();
    } else {
      await role.getByRole('button', { name: 'Cancel' }).click();
      await expect(role).toBeHidden();
    }
  }
  const stored = await admin.get<{ data: { role: string; role_history: Array<{ role: string; reason: string }> } }>(
    `registered-series/${place.seriesId}`,
  );
  expect(stored.data.role).toBe('converted');
  expect(stored.data.role_history[0]).toMatchObject({ role: 'converted', reason: 'Converted under RR 11-2024: used until consumed' });
  await context.close();
});
