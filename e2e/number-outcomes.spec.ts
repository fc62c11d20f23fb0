import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { pdfText } from './pdf-text.ts';
import {
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
  watchConsole,
  type Api,
} from './support.ts';

const SHOTS = 'docs/screenshots';
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;
const DASH = '\u2013';

interface PadRow {
  id: number;
  number: number;
  series_number: string;
  next_number: number | null;
  series: Array<{ number: number; status: number }>;
}

/**
 * Pads of a fresh route in a holder's hands the way the product puts them there: generated, requested, issued to a
 * courier and (unless `inTransit`) accepted. Pads hold 50 numbers from `from`.
 */
async function padsOf(
  request: APIRequestContext,
  opts: { role: number; from: number; count: number; branchId?: number; inTransit?: boolean },
) {
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const route = await createRoute(admin);
  const branchId = opts.branchId ?? (await createBranch(admin, `Calapan Desk ${uniq()}`)).id;
  const holder = await createUser(admin, { role_id: opts.role, branch_id: branchId, first_name: 'Rosa', last_name: 'Holder' });
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id, first_name: 'Dario', last_name: 'Driver' });
  await admin.post('add-pad', { route_id: route.id, series_from: opts.from, series_to: opts.from + opts.count * 50 - 1 });
  const available = (await admin.get<{ data: PadRow[] }>('available-pads', { route_id: route.id, per_page: 100 })).data.slice(
    0,
    opts.count,
  );
  const asHolder = await apiAs(request, holder.email, holder.password);
  const asked = await asHolder.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: office.id,
    route_id: route.id,
    pads: opts.count,
  });
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: available.map((pad) => pad.id),
    assigned_user_id: courier.id,
    expected_return: 5,
  });
  if (!opts.inTransit) await asHolder.post(`accept-invoice/${issued.data.id}`);
  return { admin, office, route, branchId, holder, courier, asHolder, pads: available, invoiceId: issued.data.id };
}

const padNow = async (api: Api, id: number) => (await api.get<{ data: PadRow }>(`get-pad/${id}`)).data;

/** Counts what the user does (a click or a tap), so a test can say how many actions a task took. */
function actionCounter() {
  let count = 0;
  return {
    act: async (action: Promise<void>) => {
      count += 1;
      await action;
    },
    get count() {
      return count;
    },
  };
}

async function axe(page: Page, where: string, scope = '[role="dialog"]'): Promise<string[]> {
  await animationsSettled(page);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).include(scope).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/** A small real PDF (one page of text) made by Chromium, as a scanned affidavit would be uploaded. */
async function paperPdf(browser: Browser, title: string): Promise<string> {
  const page = await browser.newPage();
  await page.setContent(`<h1>${title}</h1><p>Subscribed and sworn before me.</p>`);
  const file = path.join(os.tmpdir(), `padtrack-${title.replace(/\W+/g, '-').toLowerCase()}-${process.env.E2E_PORT ?? 3100}.pdf`);
  fs.writeFileSync(file, await page.pdf({ width: '8.5in', height: '11in' }));
  await page.close();
  return file;
}

const circle = (scope: Locator, number: number, state?: string) =>
  scope.getByRole('button', { name: state ? `${number}: ${state}` : new RegExp(`^${number}: `) });

test.describe('Usage by range', () => {
  test('when a branch head marks 37 receipts used on a desktop, then it takes 4 actions, the next number moves on, a skip asks why and a second booklet warns', async ({
    page,
    request,
  }) => {
    const from = 1_000_001_201;
    const { holder, asHolder, pads } = await padsOf(request, { role: 5, from, count: 2 });
    const errors = watchConsole(page);
    await uiLogin(page, holder.email, holder.password);
    await page.goto(`/pads?search=${from}`);
    await expect(page.getByRole('row').filter({ hasText: `${from}-${from + 49}` })).toContainText(`Next: ${from}`);

    const counter = actionCounter();
    await counter.act(page.getByRole('button', { name: `VIEW pad ${pads[0].number} ${from}-${from + 49}` }).click());
    const details = page.getByRole('dialog', { name: 'Pad Details' });
    await counter.act(circle(details, from).click());
    await counter.act(circle(details, from + 36).click({ modifiers: ['Shift'] }));
    await expect(details.getByTestId('selection-bar')).toContainText(`Selected ${from}${DASH}${from + 36} (37)`);
    await page.screenshot({ path: `${SHOTS}/pad-numbers-1280.png` });
    await counter.act(details.getByRole('button', { name: `Mark used ${from}${DASH}${from + 36}` }).click());
    await expect(page.getByText(`Numbers ${from}${DASH}${from + 36} marked used`)).toBeVisible();
    expect(counter.count).toBeLessThanOrEqual(4);

    await expect(circle(details, from + 36, 'Used')).toBeVisible();
    await expect(circle(details, from + 37, 'Not Used')).toBeVisible();
    await expect(details.getByText('Next Number').locator('..')).toContainText(String(from + 37));
    await expect(details.getByRole('list', { name: 'History' }).getByRole('listitem').last()).toContainText(
      `Marked used: ${from}-${from + 36} (37)`,
    );
    const stored = await padNow(asHolder, pads[0].id);
    expect(stored.next_number).toBe(from + 37);
    expect(stored.series.filter((entry) => entry.status === 2).map((entry) => entry.number)).toEqual(
      Array.from({ length: 37 }, (_, i) => from + i),
    );

    // Starting two numbers after the next one asks why, and cancels the two skipped numbers with that reason.
    await circle(details, from + 39).click();
    await details.getByRole('button', { name: `Mark used ${from + 39}` }).click();
    const skip = page.getByRole('dialog', { name: `Mark used ${from + 39}` });
    await expect(skip).toContainText(`cancels ${from + 37}${DASH}${from + 38} (2)`);
    await skip.getByLabel('Details').fill('Two blank stubs torn out by the wind');
    await skip.getByRole('button', { name: `Mark used ${from + 39}` }).click();
    await expect(page.getByText(`Number ${from + 39} marked used`)).toBeVisible();
    await expect(circle(details, from + 37, 'Cancelled')).toBeVisible();
    await expect(circle(details, from + 38, 'Cancelled')).toBeVisible();
    await expect(details.getByText('Next Number').locator('..')).toContainText(String(from + 40));
    await expect(details.getByLabel('Legend')).toHaveText(/Not Used\s*Used\s*Cancelled\s*Lost/);
    await page.keyboard.press('Escape');

    // A mouse drag picks a run on the second booklet; using it while the first is partly used warns.
    const second = from + 50;
    await page.goto(`/pads?search=${second}`);
    await page.getByRole('button', { name: `VIEW pad ${pads[1].number} ${second}-${second + 49}` }).click();
    await circle(details, second).hover();
    await page.mouse.down();
    await circle(details, second + 2).hover();
    await page.mouse.up();
    await expect(details.getByTestId('selection-bar')).toContainText(`Selected ${second}${DASH}${second + 2} (3)`);
    await details.getByRole('button', { name: `Mark used ${second}${DASH}${second + 2}` }).click();
    await expect(page.getByText(`Numbers ${second}${DASH}${second + 2} marked used`)).toBeVisible();
    await expect(page.getByText(/Use one booklet at a time/)).toBeVisible();
    expect(errors, errors.join('\n')).toEqual([]);
  });

  test('when a ticketing officer marks 37 receipts used on a phone, then it takes 4 taps and a tap shows the full printed number', async ({
    browser,
    request,
  }) => {
    const from = 2_000_004_801;
    const { holder, asHolder, pads } = await padsOf(request, { role: 7, from, count: 1 });
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: BASE });
    const page = await context.newPage();
    const errors = watchConsole(page);
    await uiLogin(page, holder.email, holder.password);
    await page.goto(`/pads?search=${from}`);
    const card = page.getByRole('list', { name: 'Pads' }).getByRole('listitem').first();
    await expect(card).toContainText(`Next Number${from}`);

    const counter = actionCounter();
    await counter.act(card.getByRole('button', { name: /^VIEW pad/ }).tap());
    const details = page.getByRole('dialog', { name: 'Pad Details' });
    await counter.act(circle(details, from).tap());
    await expect(details.getByTestId('series-shown')).toHaveText(`Receipt no. ${from} · Not Used`);
    await counter.act(circle(details, from + 36).tap());
    await expect(details.getByTestId('series-shown')).toHaveText(`Receipt no. ${from + 36} · Not Used`);
    const mark = details.getByRole('button', { name: `Mark used ${from}${DASH}${from + 36}` });
    await expect(mark).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/pad-numbers-390.png` });
    await counter.act(mark.tap());
    await expect(page.getByText(`Numbers ${from}${DASH}${from + 36} marked used`)).toBeVisible();
    expect(counter.count).toBeLessThanOrEqual(4);
    expect((await padNow(asHolder, pads[0].id)).next_number).toBe(from + 37);
    await expect(circle(details, from + 36, 'Used')).toBeVisible();
    expect(errors, errors.join('\n')).toEqual([]);
    await context.close();
  });
});

test.describe('Cancelled numbers', () => {
  test('when a ticketing officer cancels two spoiled receipts, then the branch head approves them from Needs my action and may undo one with a reason', async ({
    page,
    browser,
    request,
  }) => {
    /* Three people, two widths and four axe runs: a budget for a busy two-core machine, not a speed check. */
    test.slow();
    const from = 3_000_000_001;
    const { admin, branchId, holder, pads } = await padsOf(request, { role: 7, from, count: 1 });
    const head = await createUser(admin, { role_id: 5, branch_id: branchId, first_name: 'Berto', last_name: 'Head' });
    const errors = watchConsole(page);
    await uiLogin(page, holder.email, holder.password);
    await page.goto(`/pads?pad=${pads[0].id}`);
    const details = page.getByRole('dialog', { name: 'Pad Details' });
    await circle(details, from + 4).click();
    await circle(details, from + 5).click();
    await details.getByRole('button', { name: 'Cancel numbers…' }).click();
    const cancel = page.getByRole('dialog', { name: `Cancel ${from + 4}${DASH}${from + 5}` });
    await cancel.getByRole('button', { name: 'Cancel numbers' }).click();
    await expect(cancel.getByText('Reason is required')).toBeVisible();
    await cancel.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Spoiled (torn, stained, misprinted)' }).click();
    await cancel.getByLabel('Details').fill('Coffee spilled on both stubs');
    await cancel.getByRole('radio', { name: 'Yes' }).check();
    const findings = await axe(page, 'cancel modal @1280');
    await page.screenshot({ path: `${SHOTS}/cancel-numbers-1280.png` });
    await cancel.getByRole('button', { name: 'Cancel numbers' }).click();
    await expect(page.getByText('Sent for approval')).toBeVisible();
    await expect(circle(details, from + 4, 'Not Used')).toBeVisible();
    expect(errors, errors.join('\n')).toEqual([]);

    const approver = await (await browser.newContext({ baseURL: BASE })).newPage();
    await uiLogin(approver, head.email, head.password);
    const group = approver.getByRole('region', { name: /^Cancellations to approve/ });
    await expect(group).toBeVisible();
    await group.getByRole('link').first().click();
    const asked = approver.getByRole('dialog', { name: 'Pad Details' });
    const request1 = asked.getByTestId('outcome-request');
    await expect(request1).toContainText(`Cancel ${from + 4}${DASH}${from + 5} (2)`);
    await expect(request1).toContainText('Coffee spilled on both stubs');
    await expect(request1).toContainText('All copies retained: Yes');
    await expect(request1).toContainText(`Asked by ${holder.full_name}`);
    findings.push(...(await axe(approver, 'approval @1280')));
    await approver.screenshot({ path: `${SHOTS}/outcome-approval-1280.png` });
    await approver.setViewportSize(PHONE);
    await request1.scrollIntoViewIfNeeded();
    findings.push(...(await axe(approver, 'approval @390')));
    await approver.screenshot({ path: `${SHOTS}/outcome-approval-390.png` });
    await approver.setViewportSize({ width: 1280, height: 800 });
    await asked.getByRole('button', { name: `Approve cancellation of ${from + 4}${DASH}${from + 5}` }).click();
    await expect(approver.getByText('Request approved')).toBeVisible();
    await expect(circle(asked, from + 4, 'Cancelled')).toBeVisible();
    await expect(circle(asked, from + 5, 'Cancelled')).toBeVisible();
    await expect(asked.getByTestId('outcome-request')).toHaveCount(0);
    await expect(asked.getByRole('list', { name: 'History' })).toContainText(`Cancelled: ${from + 4}-${from + 5} (2)`);

    await circle(asked, from + 5).click();
    await asked.getByRole('button', { name: 'Undo cancellation…' }).click();
    const undo = approver.getByRole('dialog', { name: `Undo cancellation of ${from + 5}` });
    await undo.getByLabel('Reason').fill('Only one stub was spoiled; the other is clean');
    await undo.getByRole('button', { name: 'Undo cancellation' }).click();
    await expect(circle(asked, from + 5, 'Not Used')).toBeVisible();
    const history = asked.getByRole('list', { name: 'History' });
    await expect(history.getByRole('listitem').last()).toContainText(`Cancellation undone: ${from + 5}`);
    await expect(history.getByRole('listitem').last()).toContainText('Only one stub was spoiled');

    await approver.setViewportSize(PHONE);
    await circle(asked, from + 5).click();
    await asked.getByRole('button', { name: 'Cancel numbers…' }).click();
    findings.push(...(await axe(approver, 'cancel modal @390')));
    await approver.screenshot({ path: `${SHOTS}/cancel-numbers-390.png` });
    await approver
      .getByRole('dialog', { name: `Cancel ${from + 5}` })
      .getByRole('button', { name: 'Cancel', exact: true })
      .click();
    findings.push(...(await axe(approver, 'pad details @390')));
    expect(findings, findings.join('\n')).toEqual([]);
    await approver.context().close();
  });
});

test.describe('Loss incidents', () => {
  test('when a courier reports the pads he carries lost on a phone, then accounting confirms it, the Notice of Loss names the numbers and two users record some found', async ({
    browser,
    request,
  }) => {
    /* Four people, a PDF and axe runs at two widths: a budget for a busy two-core machine, not a speed check. */
    test.slow();
    const from = 4_000_000_001;
    const { admin, courier, pads } = await padsOf(request, { role: 5, from, count: 2, inTransit: true });
    const accounting = await createUser(admin, { role_id: 8, first_name: 'Alma', last_name: 'Accounting' });
    const custodian = await createUser(admin, { role_id: 3, first_name: 'Celia', last_name: 'Custodian' });
    const affidavit = await paperPdf(browser, 'Affidavit of Loss');

    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: BASE });
    const driver = await phone.newPage();
    const errors = watchConsole(driver);
    await uiLogin(driver, courier.email, courier.password);
    await expect(driver).toHaveURL(/\/custodies$/);
    await driver
      .getByRole('button', { name: /^View Issued custody/ })
      .first()
      .tap();
    await driver.getByRole('button', { name: 'Report a loss' }).tap();
    const report = driver.getByRole('dialog', { name: 'Report a loss' });
    await expect(report.getByRole('checkbox', { name: `Pad ${pads[0].number} (${from}-${from + 49})` })).toBeChecked();
    await expect(report.getByRole('checkbox', { name: `Pad ${pads[1].number} (${from + 50}-${from + 99})` })).toBeChecked();
    await report.getByRole('checkbox', { name: `Pad ${pads[1].number} (${from + 50}-${from + 99})` }).uncheck();
    await report.getByRole('button', { name: 'Report loss' }).tap();
    await expect(report.getByText('Place is required')).toBeVisible();
    await report.getByLabel('Place').fill('Calapan pier, gangway 2');
    await report.getByLabel('Circumstances').fill('The bag with the booklet fell between the ship and the pier while boarding.');
    const chooser = driver.waitForEvent('filechooser');
    await report.getByRole('button', { name: 'Affidavit of loss' }).tap();
    await (await chooser).setFiles(affidavit);
    await report.getByLabel('Notarisation date').fill('2026-11-25');
    await expect(report.getByRole('button', { name: 'Affidavit of loss' })).toContainText(path.basename(affidavit));
    const findings = await axe(driver, 'report a loss @390');
    await driver.screenshot({ path: `${SHOTS}/report-loss-390.png`, fullPage: true });
    await report.getByRole('button', { name: 'Report loss' }).tap();
    const reported = driver.getByText(/^Loss incident LOSS-\d{4}-\d{4} reported$/);
    await expect(reported).toBeVisible();
    const incidentNumber = ((await reported.textContent()) ?? '').split(' ')[2];
    expect(errors, errors.join('\n')).toEqual([]);
    await phone.close();

    const desk = await (await browser.newContext({ baseURL: BASE })).newPage();
    await uiLogin(desk, accounting.email, accounting.password);
    await expect(desk.getByRole('region', { name: /^Losses to confirm/ }).getByRole('link')).toHaveCount(1);
    await desk.goto('/accountability');
    await desk.getByRole('link', { name: 'Loss incidents' }).click();
    await expect(desk).toHaveURL(/\/incidents$/);
    await desk.getByPlaceholder('Search by incident or receipt number').fill(String(from + 7));
    const row = desk.getByRole('row').filter({ hasText: incidentNumber });
    await expect(row).toContainText('Reported');
    await expect(row).toContainText('Calapan pier, gangway 2');
    await expect(row).toContainText(courier.full_name);
    await expect(desk.getByRole('row')).toHaveCount(2);
    findings.push(...(await axe(desk, 'incidents @1280', 'main')));
    await desk.screenshot({ path: `${SHOTS}/incidents-1280.png` });
    await row.getByRole('button', { name: `VIEW incident ${incidentNumber}` }).click();
    const details = desk.getByRole('dialog', { name: `Loss incident ${incidentNumber}` });
    await expect(details.getByRole('list', { name: 'Pads and numbers' })).toContainText(
      `Pad ${pads[0].number}: ${from}${DASH}${from + 49} (50)`,
    );
    await expect(details.getByRole('link', { name: /Affidavit of loss: .*\.pdf/ })).toBeVisible();
    await details.getByRole('button', { name: 'Confirm loss…' }).click();
    const confirming = desk.getByRole('dialog', { name: `Confirm loss ${incidentNumber}` });
    await expect(confirming).toContainText('The affidavit of loss is attached.');
    await confirming.getByRole('button', { name: 'Confirm loss' }).click();
    await expect(desk.getByText(`Loss incident ${incidentNumber} confirmed`)).toBeVisible();
    const notice = details.getByRole('link', { name: 'Notice of Loss (PDF)' });
    await expect(notice).toBeVisible();
    findings.push(...(await axe(desk, 'incident details @1280')));
    await desk.screenshot({ path: `${SHOTS}/incident-details-1280.png` });

    const pdf = await desk.request.get(`${BASE}${await notice.getAttribute('href')}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const text = pdfText(await pdf.body());
    expect(text).toMatch(/NOTICE OF LOSS/i);
    expect(text).toContain(incidentNumber);
    expect(text).toContain(String(from));
    expect(text).toContain(String(from + 49));
    expect(text).toContain('Calapan pier, gangway 2');
    expect(text).toContain('50');
    expect(text).not.toContain(String(from + 50));
    expect(text.replace(/\s+/g, ' ')).toContain(
      'That invoice no longer carries it: the rest of the invoice can be accepted, this pad cannot.',
    );

    // Found: the custodian records two numbers, accounting (a second user) confirms them.
    const keeper = await (await browser.newContext({ baseURL: BASE })).newPage();
    await uiLogin(keeper, custodian.email, custodian.password);
    await keeper.goto('/incidents');
    await keeper.getByPlaceholder('Search by incident or receipt number').fill(incidentNumber);
    await keeper.getByRole('button', { name: `VIEW incident ${incidentNumber}` }).click();
    const kept = keeper.getByRole('dialog', { name: `Loss incident ${incidentNumber}` });
    await kept.getByRole('button', { name: 'Record found…' }).click();
    const found = keeper.getByRole('dialog', { name: `Record found numbers of ${incidentNumber}` });
    await found.getByLabel('From').fill(String(from + 48));
    await found.getByLabel('To').fill(String(from + 49));
    await found.getByLabel('Reason').fill('Two stubs washed up on the ramp, readable');
    await found.getByRole('button', { name: 'Record found' }).click();
    await expect(kept.getByTestId('found-record')).toContainText('Waiting for a second user');
    await expect(kept.getByRole('button', { name: 'Confirm found' })).toHaveCount(0);
    await keeper.context().close();

    await desk.goto('/incidents');
    await desk.getByPlaceholder('Search by incident or receipt number').fill(incidentNumber);
    await desk.getByRole('button', { name: `VIEW incident ${incidentNumber}` }).click();
    await details.getByRole('button', { name: 'Confirm found' }).click();
    await expect(details.getByTestId('found-record')).toContainText(`confirmed by ${accounting.full_name}`);
    await desk.setViewportSize(PHONE);
    findings.push(...(await axe(desk, 'incident details @390')));
    await desk.screenshot({ path: `${SHOTS}/incident-details-390.png`, fullPage: true });
    await desk.keyboard.press('Escape');
    findings.push(...(await axe(desk, 'incidents @390', 'main')));
    await desk.screenshot({ path: `${SHOTS}/incidents-390.png` });
    await desk.setViewportSize({ width: 1280, height: 800 });
    await desk.goto(`/pads?search=${from}`);
    await desk.getByRole('button', { name: `VIEW pad ${pads[0].number} ${from}-${from + 49}` }).click();
    const pad = desk.getByRole('dialog', { name: 'Pad Details' });
    await expect(circle(pad, from + 7, 'Lost')).toBeVisible();
    await expect(circle(pad, from + 48, 'Not Used')).toBeVisible();
    await circle(pad, from + 7).click();
    await expect(pad.getByTestId('selection-bar')).toContainText('Lost numbers come back only through Found');
    await pad.getByLabel('Legend').scrollIntoViewIfNeeded();
    await desk.screenshot({ path: `${SHOTS}/series-states-1280.png` });
    await desk.setViewportSize(PHONE);
    await pad.getByTestId('selection-bar').scrollIntoViewIfNeeded();
    findings.push(...(await axe(desk, 'pad details with lost numbers @390')));
    await desk.screenshot({ path: `${SHOTS}/series-states-390.png` });
    await desk.setViewportSize({ width: 1280, height: 800 });
    await pad.getByRole('button', { name: 'Report a loss' }).click();
    findings.push(...(await axe(desk, 'report a loss @1280')));
    await desk.screenshot({ path: `${SHOTS}/report-loss-1280.png` });
    expect(findings, findings.join('\n')).toEqual([]);
    await desk.getByRole('dialog', { name: 'Report a loss' }).getByRole('button', { name: 'Cancel', exact: true }).click();
    await pad.getByRole('button', { name: 'Close', exact: true }).last().click();

    // Find receipt names the incident of a lost number.
    const box = desk.getByRole('textbox', { name: 'Find receipt no.' });
    await box.fill(String(from + 7));
    await box.press('Enter');
    const finding = desk.getByRole('dialog', { name: `Receipt no. ${from + 7}` }).getByTestId('receipt-finding');
    await expect(finding.getByTestId('receipt-status')).toHaveText('Lost');
    await expect(finding.getByTestId('receipt-outcome')).toContainText(incidentNumber);
    await desk.keyboard.press('Escape');

    await desk.context().close();
  });

  test('when a loss without an affidavit is confirmed, then the approver must give the reason and the Notice of Loss prints it', async ({
    browser,
    request,
  }) => {
    test.slow();
    const from = 4_100_000_001;
    const { admin, holder, asHolder, pads } = await padsOf(request, { role: 5, from, count: 1 });
    const accounting = await createUser(admin, { role_id: 8, first_name: 'Alma', last_name: 'Accounting' });
    const reported = await asHolder.post<{ data: { id: number; number: string } }>('loss-incidents', {
      pads: [{ pad_id: pads[0].id, from: from + 10, to: from + 19 }],
      place: 'Batangas port, ticket booth',
      occurred_at: new Date(Date.now() - 3_600_000).toISOString(),
      circumstances: 'The booklet was taken with a bag from the booth.',
    });
    const incidentNumber = reported.data.number;

    const desk = await (await browser.newContext({ baseURL: BASE })).newPage();
    const errors = watchConsole(desk);
    await uiLogin(desk, accounting.email, accounting.password);
    await desk.goto('/incidents');
    await desk.getByPlaceholder('Search by incident or receipt number').fill(incidentNumber);
    await desk.getByRole('button', { name: `VIEW incident ${incidentNumber}` }).click();
    const details = desk.getByRole('dialog', { name: `Loss incident ${incidentNumber}` });
    await expect(details).toContainText('No papers attached.');
    await details.getByRole('button', { name: 'Confirm loss…' }).click();
    const confirming = desk.getByRole('dialog', { name: `Confirm loss ${incidentNumber}` });
    await expect(confirming.getByText('No affidavit of loss is attached')).toBeVisible();
    await confirming.getByRole('button', { name: 'Confirm loss' }).click();
    await expect(confirming.getByText('No affidavit of loss is attached: give the reason')).toBeVisible();
    const findings = await axe(desk, 'confirm loss without affidavit @1280');
    await desk.screenshot({ path: `${SHOTS}/confirm-loss-no-affidavit-1280.png` });
    await confirming.getByRole('button', { name: 'Affidavit to follow' }).click();
    await expect(confirming.getByLabel('Reason there is no affidavit')).toHaveValue('Affidavit to follow');
    await desk.setViewportSize(PHONE);
    findings.push(...(await axe(desk, 'confirm loss without affidavit @390')));
    await desk.screenshot({ path: `${SHOTS}/confirm-loss-no-affidavit-390.png`, fullPage: true });
    await desk.setViewportSize({ width: 1280, height: 800 });
    await confirming.getByRole('button', { name: 'Confirm loss' }).click();
    await expect(desk.getByText(`Loss incident ${incidentNumber} confirmed`)).toBeVisible();
    await expect(details).toContainText('Confirmed without an affidavit');
    await expect(details).toContainText('Affidavit to follow');
    expect(findings, findings.join('\n')).toEqual([]);

    const pdf = await desk.request.get(`${BASE}${await details.getByRole('link', { name: 'Notice of Loss (PDF)' }).getAttribute('href')}`);
    const text = pdfText(await pdf.body()).replace(/\s+/g, ' ');
    expect(text).toContain('Papers attached No papers attached.');
    expect(text).toContain('No affidavit of loss attached. Reason given on confirmation: Affidavit to follow');
    expect(text).toContain(holder.full_name);
    expect(text).toContain('Alma Accounting');
    expect(errors, errors.join('\n')).toEqual([]);
    await desk.context().close();
  });
});
