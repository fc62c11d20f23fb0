import { expect, test } from '@playwright/test';
import { badgePng, type Person } from './badges.ts';
import { padsHeldBy } from './custodies-support.ts';
import { scanImageFile, transactionScene } from './invoices-support.ts';
import { pdfText } from './pdf-text.ts';
import { adminApi, apiAs, BASE_ARGS, PHONE, SHOTS, uiLogin, watchConsole, seriousAxe, waitForToastsToClose } from './support.ts';

test.describe('counting a branch on a phone', () => {
  let custodian: Person;
  let branchName: string;
  let headBadge: string;
  let pads: Array<{ id: number; number: number }>;
  let firstFrom: number;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    const admin = await adminApi(request);
    const s = await transactionScene(admin, 1);
    custodian = s.custodian;
    branchName = s.agency.name;
    pads = await padsHeldBy(request, admin, s.requester, s.courier, 2);
    const api = await apiAs(request, custodian.email, custodian.password);
    firstFrom = (await api.get<{ data: { series_from: number } }>(`get-pad/${pads[0].id}`)).data.series_from;
    const renderer = await playwright.chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: BASE_ARGS,
    });
    headBadge = await badgePng(request, renderer, s.requester);
    await renderer.close();
    await request.dispose();
  });

  test('when the custodian counts the branch, resolves the unrecorded numbers through range usage and the head signs off, then the certificate says so', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    await page.setViewportSize(PHONE);
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto('/counts');
    await page.getByRole('combobox', { name: 'Branch' }).click();
    await page.getByRole('option', { name: branchName }).click();
    await page.getByRole('button', { name: 'Start count' }).click();
    await expect(page.getByRole('heading', { name: new RegExp(`^Count #\\d+: ${branchName}$`) })).toBeVisible();

    await page
      .getByRole('textbox', { name: `First unused number of pad 1`, exact: false })
      .first()
      .fill(String(firstFrom + 5));
    await page.getByRole('button', { name: /^Found pad 1 / }).click();
    await expect(page.getByText(`Numbers ${firstFrom}-${firstFrom + 4} used but not recorded`, { exact: false })).toBeVisible();
    await page.getByRole('button', { name: /^Found pad 2 / }).click();
    await expect(page.getByTestId('count-item-2').getByText('Found', { exact: true }).first()).toHaveClass(/Badge/);
    await page.screenshot({ path: `${SHOTS}/counts-branch-phone.png`, fullPage: true });
    expect(await seriousAxe(page)).toEqual([]);

    const variance = page.getByTestId('variance-1');
    await expect(variance.getByRole('combobox', { name: 'Resolution' })).toHaveValue('Record the usage');
    await variance.getByRole('textbox', { name: 'Reason' }).fill('receipts issued, stubs in the booklet');
    await variance.getByRole('button', { name: 'Resolve pad 1' }).click();
    await expect(variance.getByText(/^Resolved: Record the usage/)).toBeVisible();

    await waitForToastsToClose(page);
    await page.getByRole('button', { name: 'Holder sign-off' }).click();
    await scanImageFile(page, headBadge);
    await expect(page.getByText(/signed off by Rosa Reyes/)).toBeVisible();
    await waitForToastsToClose(page);
    await page.getByRole('button', { name: 'Close count' }).click();
    await expect(page.getByText(/Closed · 0 open variances/)).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/counts-branch-desktop.png`, fullPage: true });

    let pdf: Buffer = Buffer.alloc(0);
    await page.route(/\/api\/counts\/\d+\/certificate/, async (route) => {
      const response = await route.fetch();
      pdf = await response.body();
      await route.fulfill({ response });
    });
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Certificate' }).click();
    await (await popup).close();
    const text = pdfText(pdf);
    expect(text).toContain('Physical Count Certificate');
    expect(text).toContain(branchName);
    expect(text).toContain('Rosa Reyes');
    expect(text).toContain(`Numbers ${firstFrom}-${firstFrom + 4}`);
    expect(text).toMatch(/Numbers used but not\s/);
    expect(text).toContain('Record the usage: receipts issued');

    const api = await apiAs(page.request, custodian.email, custodian.password);
    const pad = (await api.get<{ data: { next_number: number } }>(`get-pad/${pads[0].id}`)).data;
    expect(pad.next_number).toBe(firstFrom + 5);
    expect(errors).toEqual([]);
  });
});
