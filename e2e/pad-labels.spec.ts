import { expect, test, type Page } from '@playwright/test';
import { badgeVideo, fakeCamera, fakeCameraFile, labelQrPng, type Person } from './badges.ts';
import { requestThroughApi, transactionScene } from './invoices-support.ts';
import { pdfText } from './pdf-text.ts';
import { adminApi, apiAs, PHONE, SHOTS, uiLogin, watchConsole, seriousAxe } from './support.ts';

const LABEL_Y4M = fakeCameraFile('pad-label');

/** Chromium's fake camera films a pad label as printed; launch options apply to the whole file. */
test.use(fakeCamera(LABEL_Y4M));

/** Answers the PDF the page fetches at `url` (the Print buttons open it in a new tab). */
async function capturePdf(page: Page, url: RegExp, click: () => Promise<void>): Promise<Buffer> {
  let pdf: Buffer = Buffer.alloc(0);
  await page.route(url, async (route) => {
    const response = await route.fetch();
    expect(response.headers()['content-type']).toBe('application/pdf');
    pdf = await response.body();
    await route.fulfill({ response });
  });
  const popup = page.waitForEvent('popup');
  await click();
  await (await popup).close();
  await page.unroute(url);
  return pdf;
}

test.describe('pad labels and scan to select', () => {
  let custodian: Person;
  let courier: Person;
  let routeName: string;
  let routeId: number;
  let pads: Array<{ id: number; number: number; series_number: string }>;
  let labelCode: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    const admin = await adminApi(request);
    const s = await transactionScene(admin, 2);
    custodian = s.custodian;
    courier = s.courier;
    routeName = s.route.name;
    routeId = s.route.id;
    await requestThroughApi(request, s.requester, s.office.id, s.route.id, 2);
    const api = await apiAs(request, custodian.email, custodian.password);
    pads = (
      await api.get<{ data: Array<{ id: number; number: number; series_number: string }> }>('get-pads', {
        route: s.route.id,
        sort: 'number',
        order: 'asc',
      })
    ).data;
    const label = await request.get(`/api/pad-labels?ids=${pads[0].id}&size=4x6`, { headers: { authorization: `Bearer ${api.token}` } });
    expect(label.ok()).toBe(true);
    const pdf = await label.body();
    labelCode = /PT1P\d+-[A-Z0-9]{12}/.exec(pdfText(pdf))?.[0] ?? '';
    expect(labelCode).not.toBe('');
    badgeVideo(labelQrPng(pdf), LABEL_Y4M);
    await request.dispose();
  });

  test('when the custodian prints labels from Inventories, then the PDF names each pad with its route, number, series and code', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto(`/pads?route=${routeId}`);
    await page.getByRole('checkbox', { name: `Select pad 1 ${pads[0].series_number}` }).check();
    await page.getByRole('checkbox', { name: `Select pad 2 ${pads[1].series_number}` }).check();
    await page.getByRole('button', { name: 'Print labels (2)' }).click();
    await page.screenshot({ path: `${SHOTS}/pad-labels-inventories-desktop.png` });
    expect(await seriousAxe(page, 'main')).toEqual([]);
    const pdf = await capturePdf(page, /\/api\/pad-labels\?/, () => page.getByRole('menuitem', { name: 'A4 sheet' }).click());
    const text = pdfText(pdf);
    for (const pad of pads) {
      expect(text).toContain(`Pad ${pad.number}`);
      expect(text).toContain(`Series ${pad.series_number}`);
    }
    for (const word of routeName.split(' ')) expect(text).toContain(word);
    expect(text).toContain(labelCode);
    expect(errors).toEqual([]);
  });

  test('when the camera sees a pad label and a handheld scanner types another, then the issue form selects both pads and the slip prints', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    await page.setViewportSize(PHONE);
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto('/invoices');
    await page
      .getByRole('button', { name: /^View Request invoice/ })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Request Invoice Details' }).getByRole('button', { name: 'Issue', exact: true }).click();
    const issueModal = page.getByRole('dialog', { name: 'Create Issue Invoice' });
    await issueModal.getByRole('button', { name: 'Scan Pad Labels' }).click();
    await expect(issueModal.getByText('Selected pad 1')).toBeVisible({ timeout: 30_000 });
    await expect(issueModal.getByText('1 of 2 selected')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/pad-labels-issue-scan-phone.png` });
    expect(await seriousAxe(page, '[role="dialog"]')).toEqual([]);
    await issueModal.getByRole('button', { name: 'Close Pad Scanner' }).click();

    const api = await apiAs(page.request, custodian.email, custodian.password);
    const second = await page.request.get(`/api/pad-labels?ids=${pads[1].id}&size=a4`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    const secondCode = /PT1P\d+-[A-Z0-9]{12}/.exec(pdfText(await second.body()))?.[0] ?? '';
    await issueModal.getByRole('textbox', { name: 'Search by pad name' }).pressSequentially(`${secondCode}\n`);
    await expect(page.getByText('Selected pad 2')).toBeVisible();
    await expect(issueModal.getByText('2 of 2 selected')).toBeVisible();
    await issueModal.getByRole('textbox', { name: 'Search by pad name' }).fill('PT1P1-FORGEDFORGED');
    await expect(page.getByText('This label is not a PadTrack pad label, or it was altered.')).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 800 });
    await issueModal.getByRole('textbox', { name: 'Expected Return (Days)' }).fill('3');
    await issueModal.getByRole('combobox', { name: 'Assign to' }).click();
    await page.getByRole('option', { name: courier.full_name }).click();
    await page.screenshot({ path: `${SHOTS}/pad-labels-issue-scan-desktop.png` });
    await issueModal.getByRole('button', { name: 'Submit' }).click();
    await expect(issueModal).toBeHidden();
    const requestDetails = page.getByRole('dialog', { name: 'Request Invoice Details' });
    await requestDetails.press('Escape');
    await expect(requestDetails).toBeHidden();

    await page
      .getByRole('button', { name: /^View Issued invoice/ })
      .first()
      .click();
    const details = page.getByRole('dialog', { name: 'Issued Invoice Details' });
    await expect(details.getByRole('button', { name: 'Print slip' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/transmittal-slip-button-desktop.png` });
    const slip = pdfText(
      await capturePdf(page, /\/api\/invoice-slip\/\d+/, () => details.getByRole('button', { name: 'Print slip' }).click()),
    );
    expect(slip).toContain('Transmittal Slip');
    expect(slip).toMatch(/Issued invoice #\d+/);
    expect(slip).toContain(courier.full_name);
    expect(slip).toContain(pads[0].series_number);
    expect(slip).toContain(pads[1].series_number);
    expect(slip).toMatch(/Released by\s+Carried by\s+Received by/);
    /** The forged label's lookup, answered 404 as it should be, is the only failed request. */
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
  });
});
