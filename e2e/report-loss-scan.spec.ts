import { expect, test } from '@playwright/test';
import { fakeCamera, fakeCameraFile, type Person } from './badges.ts';
import { filmPadLabel } from './pad-label-camera.ts';
import { adminApi, apiAs, createBranch, createRoute, createUser, headOffice, PHONE, uiLogin, uniq } from './support.ts';

const LABEL_Y4M = fakeCameraFile('loss-pad-label');
const SHOTS = 'docs/screenshots';

/** Chromium's fake camera films the label of a pad the courier carries; launch options apply to the whole file. */
test.use({ viewport: PHONE, ...fakeCamera(LABEL_Y4M) });

test.describe('Report a loss: scan to select', () => {
  let courier: Person;
  let pads: Array<{ id: number; number: number; series_number: string }>;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    const admin = await adminApi(request);
    const branch = await createBranch(admin, `Lucena Pier ${uniq()}`);
    const requester = await createUser(admin, { role_id: 5, branch_id: branch.id });
    courier = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Dado', last_name: 'Carrier' });
    const route = await createRoute(admin);
    const from = 300_000 + Math.floor(Math.random() * 600_000) * 100;
    await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 99 });
    pads = (await admin.get<{ data: typeof pads }>('available-pads', { route_id: route.id, per_page: 100 })).data.slice(0, 2);
    const asRequester = await apiAs(request, requester.email, requester.password);
    const asked = await asRequester.post<{ data: { id: number } }>('create-request-invoice', {
      branch_id: (await headOffice(admin)).id,
      route_id: route.id,
      pads: 2,
    });
    await admin.post('issue-invoice', {
      invoice_id: asked.data.id,
      pads: pads.map((p) => p.id),
      assigned_user_id: courier.id,
      expected_return: 5,
    });
    expect(await filmPadLabel(request, admin.token, pads[1].id, LABEL_Y4M)).toMatch(/^PT1P/);
    await request.dispose();
  });

  test('when the courier scans the label of a pad he carries in Report a loss, then that pad is ticked', async ({ page }) => {
    await uiLogin(page, courier.email, courier.password);
    await page
      .getByRole('button', { name: /^View Issued custody/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Report a loss' }).click();
    const report = page.getByRole('dialog', { name: 'Report a loss' });
    const second = report.getByRole('checkbox', { name: `Pad ${pads[1].number} (${pads[1].series_number})` });
    await second.uncheck();
    await expect(second).not.toBeChecked();
    await report.getByRole('button', { name: 'Scan Pad Labels' }).click();
    await expect(report.getByText(`Selected pad ${pads[1].number}`)).toBeVisible({ timeout: 30_000 });
    await expect(second).toBeChecked();
    await expect(report.getByRole('checkbox', { name: `Pad ${pads[0].number} (${pads[0].series_number})` })).toBeChecked();
    await page.screenshot({ path: `${SHOTS}/report-loss-scan-390.png` });
    await report.getByRole('button', { name: 'Close Pad Scanner' }).click();
  });
});
