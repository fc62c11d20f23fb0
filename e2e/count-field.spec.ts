import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { fakeCamera, fakeCameraFile, labelQrPng, type Person } from './badges.ts';
import { labelsVideo } from './count-field-camera.ts';
import { padsHeldBy, type PadRow } from './custodies-support.ts';
import { adminApi, apiAs, createBranch, createUser, headOffice, PHONE, seriousAxe, uiLogin, uniqLetters, watchConsole } from './support.ts';

const SHOTS = 'docs/screenshots';
const LABELS_Y4M = fakeCameraFile('count-field-labels');

/** Chromium's fake camera films the three labels of the holder's pads one after another; it applies to the whole file. */
test.use(fakeCamera(LABELS_Y4M));

async function labelPng(request: APIRequestContext, token: string, padId: number) {
  const res = await request.get(`/api/pad-labels?ids=${padId}&size=4x6`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return labelQrPng(await res.body());
}

test.describe('the count on a phone (issue 36, points 7–10)', () => {
  test.describe.configure({ mode: 'serial' });
  let grace: Person;
  let custodian: Person;
  let accounting: Person;
  let auditor: Person;
  let pads: PadRow[];
  let routeName: string;
  let lossNumber: string;
  let countId: number;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    const admin = await adminApi(request);
    const office = await headOffice(admin);
    const branch = await createBranch(admin, `Odiongan Agency ${Date.now()}`);
    grace = await createUser(admin, { role_id: 7, branch_id: branch.id, first_name: 'Grace', last_name: `Mendoza ${uniqLetters()}` });
    custodian = await createUser(admin, { role_id: 3, branch_id: office.id, first_name: 'Carla', last_name: 'Cuenca' });
    accounting = await createUser(admin, { role_id: 8, branch_id: office.id, first_name: 'Alma', last_name: 'Abad' });
    auditor = await createUser(admin, { role_id: 9, branch_id: office.id, first_name: 'Ada', last_name: 'Santos' });
    const courier = await createUser(admin, {
      role_id: 10,
      branch_id: office.id,
      first_name: 'Joy',
      last_name: `Castillo ${uniqLetters()}`,
    });
    pads = await padsHeldBy(request, admin, grace, courier, 3);
    const asGrace = await apiAs(request, grace.email, grace.password);
    const pad = (await asGrace.get<{ data: { route: { name: string } } }>(`get-pad/${pads[0].id}`)).data;
    routeName = pad.route.name;
    const reported = await asGrace.post<{ data: { id: number; number: string } }>('loss-incidents', {
      pads: [{ pad_id: pads[0].id }],
      place: 'Odiongan pier',
      occurred_at: new Date().toISOString(),
      circumstances: 'Left on the ferry bench',
    });
    lossNumber = reported.data.number;
    const asAccounting = await apiAs(request, accounting.email, accounting.password);
    await asAccounting.post(`loss-incidents/${reported.data.id}/confirm`, { no_affidavit_reason: 'The affidavit follows by mail' });
    const asCustodian = await apiAs(request, custodian.email, custodian.password);
    const pngs = [];
    for (const p of [pads[1], pads[2], pads[0]]) pngs.push(await labelPng(request, asCustodian.token, p.id));
    labelsVideo(pngs, LABELS_Y4M);
    await request.dispose();
  });

  test('9: when the counter scans label after label, then the camera keeps going, counts "3 of 3 scanned", and nothing is missing before the scan ends', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    const api = await apiAs(page.request, custodian.email, custodian.password);
    countId = (await api.post<{ data: { id: number } }>('counts', { user_id: grace.id })).data.id;
    await page.setViewportSize(PHONE);
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto(`/counts?count=${countId}`);
    await expect(page.getByRole('status').filter({ hasText: '0 of 3 scanned' })).toBeVisible();
    await expect(page.getByText('No variances')).toBeVisible();
    await expect(page.getByText('Not yet scanned')).toHaveCount(3);
    await expect(page.getByText(`${routeName} · Pad ${pads[1].number}`, { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/count-not-yet-scanned-390.png`, fullPage: true });

    await page.getByRole('button', { name: 'Scan Pad Labels' }).click();
    await expect(page.getByRole('status').filter({ hasText: '3 of 3 scanned' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('qr-scanner')).toHaveAttribute('data-state', 'scanning');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/count-continuous-scan-390.png`, fullPage: true });
    expect(await seriousAxe(page)).toEqual([]);
    const stored = (await api.get<{ data: { items: Array<{ state: string }>; not_scanned: number } }>(`counts/${countId}`)).data;
    expect(stored.items.map((i) => i.state)).toEqual(['found', 'found', 'found']);
    expect(stored.not_scanned).toBe(0);
    await page.getByRole('button', { name: 'Close Pad Scanner' }).click();
    expect(errors).toEqual([]);
  });

  test('7: when the lost booklet was among them, then it reads "Declared lost" and the counter records it found for a second person', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    await page.setViewportSize(PHONE);
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto(`/counts?count=${countId}`);
    const item = page.getByTestId(`count-item-${pads[0].number}`);
    await expect(item.getByText(`Declared lost on ${lossNumber}`)).toBeVisible();
    const variance = page.getByTestId(`variance-${pads[0].number}`);
    await expect(variance.getByText(`${routeName} · Pad ${pads[0].number}: Lost pad found`)).toBeVisible();
    await expect(
      variance.getByText(`Found here: Declared lost on ${lossNumber}; the books place it with ${grace.full_name}`),
    ).toBeVisible();
    await expect(variance.getByRole('combobox', { name: 'Resolution' })).toHaveValue('Record found');
    await variance.getByRole('textbox', { name: 'Reason' }).fill('in the cash drawer');
    await variance.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/count-lost-pad-found-390.png` });
    await variance.getByRole('button', { name: `Resolve pad ${pads[0].number}` }).click();
    await expect(variance.getByText(/^Resolved: Record found \(in the cash drawer\)/)).toBeVisible();

    const asAccounting = await apiAs(page.request, accounting.email, accounting.password);
    type Groups = { data: { groups: Array<{ kind: string; items: Array<{ label: string }> }> } };
    const groups = (await asAccounting.get<Groups>('my-actions')).data.groups;
    expect(groups.find((g) => g.kind === 'confirm_found')?.items.some((i) => i.label.startsWith(lossNumber))).toBe(true);
    expect(errors).toEqual([]);
  });

  test('8: when an Auditor counts, then a missing pad offers only what the Auditor may do and asks the holder, who sees it in Needs my action', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    const api = await apiAs(page.request, auditor.email, auditor.password);
    const id = (await api.post<{ data: { id: number } }>('counts', { user_id: grace.id })).data.id;
    await page.setViewportSize(PHONE);
    await uiLogin(page, auditor.email, auditor.password);
    await page.goto(`/counts?count=${id}`);
    await page.getByRole('button', { name: 'End scan' }).click();
    await expect(page.getByText('Scan ended: 3 pads not found marked missing')).toBeVisible();
    const variance = page.getByTestId(`variance-${pads[1].number}`);
    await expect(variance.getByText(`Open a loss incident: Ask ${grace.full_name}, the holder, to report the loss`)).toBeVisible();
    await variance.getByRole('combobox', { name: 'Resolution' }).click();
    await expect(page.getByRole('option')).toHaveText(['Accept with a reason']);
    await page.keyboard.press('Escape');
    await variance.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/count-ask-holder-390.png` });
    expect(await seriousAxe(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/count-ask-holder-1280.png`, fullPage: true });
    await page.setViewportSize(PHONE);

    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await uiLogin(page, grace.email, grace.password);
    const asked = page.getByRole('region', { name: 'Asked by a count: 3' });
    await expect(
      asked.getByText(`Count #${id}: report the loss · ${routeName} · Pad ${pads[0].number} · asked by Ada Santos`),
    ).toBeVisible();
    await asked.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/needs-my-action-count-ask-390.png` });
    expect(errors).toEqual([]);
  });

  test('10: when another file is chosen after a clean dry run, then the result clears and Apply waits for its own dry run', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    const api = await apiAs(page.request, custodian.email, custodian.password);
    const template = await page.request.get('/api/imports/templates/pads', { headers: { authorization: `Bearer ${api.token}` } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-'));
    const good = path.join(dir, 'padtrack-pads-template.csv');
    fs.writeFileSync(good, await template.body());
    const bad = path.join(dir, 'pads-with-errors.csv');
    fs.writeFileSync(bad, 'route,series_from,series_to,pad_number,holder,used,cancelled,remarks\r\nNo Such Route,1,50,1,Nobody,,,\r\n');
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto('/imports');
    const input = page.locator('input[type="file"]');
    await input.setInputFiles(good);
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect(page.getByText('Dry run: all 1 row is valid; nothing was changed')).toBeVisible();
    const apply = page.getByRole('button', { name: 'Apply' });
    await expect(apply).toBeEnabled();
    await input.setInputFiles(bad);
    await expect(apply).toBeDisabled();
    await expect(page.getByText('Dry run: all 1 row is valid; nothing was changed')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/import-new-file-1280.png`, fullPage: true });
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect(page.getByText(/^\d+ errors?: nothing was imported$/)).toBeVisible();
    await expect(apply).toBeDisabled();
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SHOTS}/import-new-file-390.png`, fullPage: true });
    /** A dry run that finds errors answers 422, which the browser logs as a failed resource. */
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  });
});
