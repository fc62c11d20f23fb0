import { expect, test, type Page, type Request } from '@playwright/test';
import { MSG } from '../src/shared/messages.ts';
import { acceptQuestion, CUSTODY_MSG, type PendingHandOver } from '../src/shared/schemas/custodies.ts';
import { adminApi, apiAs, BASE_ARGS, createBranch, createUser, PHONE, uiLogin, uniq } from './support.ts';
import { padsHeldBy, savedQueryKeys } from './custodies-support.ts';
import { badgePng, badgeVideo, fakeCamera, fakeCameraFile, type Person } from './badges.ts';

const BADGE_Y4M = fakeCameraFile('offline-badge');
const SHOTS = 'docs/screenshots';

/** The built app's service worker runs here, so the phone reopens offline; the fake camera films Carlo's badge. */
test.use({ viewport: PHONE, serviceWorkers: 'allow', ...fakeCamera(BADGE_Y4M) });

interface InvoiceDetail {
  data: { assigned_user_id: number | null; activities: Array<{ description: string; device_at?: string | null }> };
}

/** The endpoints whose answers are saved on the phone: the couriers to hand to and the invoice's details. */
const savedOnPhone = async (page: Page) => (await savedQueryKeys(page)).map((key) => key.join(' '));

test.describe.serial('a courier at the pier scans the receiver’s badge without network', () => {
  let courier: Person;
  let carlo: Person;
  let rosa: Person;
  let rosaBadge: string;
  let scanned: number;
  let twoParty: number;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    const admin = await adminApi(request);
    const branch = await createBranch(admin, `Calapan Pier ${uniq()}`);
    rosa = await createUser(admin, { role_id: 5, branch_id: branch.id, first_name: 'Rosa', last_name: 'Lim' });
    courier = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Dario', last_name: 'Driver' });
    carlo = await createUser(admin, { role_id: 11, branch_id: branch.id, first_name: 'Carlo', last_name: 'Reyes' });
    const pads = await padsHeldBy(request, admin, rosa, courier, 3);
    const asRosa = await apiAs(request, rosa.email, rosa.password);
    const returnOf = async (ids: number[]) =>
      (await asRosa.post<{ data: { id: number } }>('create-return-invoice', { pads: ids, assigned_user_id: courier.id })).data.id;
    scanned = await returnOf([pads[0].id]);
    twoParty = await returnOf([pads[1].id, pads[2].id]);

    const renderer = await playwright.chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: BASE_ARGS,
    });
    badgeVideo(await badgePng(request, renderer, carlo), BADGE_Y4M);
    rosaBadge = await badgePng(request, renderer, rosa);
    await renderer.close();
    await request.dispose();
  });

  test('when the camera reads the receiver’s badge offline, then the saved courier list names him and the hand-over waits with the code and its scan time; a badge of someone not in the list cannot be checked, never “invalid”; on reconnect it is sent and says so', async ({
    page,
    context,
    playwright,
    baseURL,
  }) => {
    await uiLogin(page, courier.email, courier.password);
    await page.getByRole('button', { name: `View Return custody ${scanned}` }).click();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Hand Over' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await expect.poll(() => savedOnPhone(page)).toEqual(expect.arrayContaining([`get-invoice ${scanned}`, 'get-users-by-roles']));

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(MSG.offlineBanner)).toBeVisible();
    const sent: Request[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/hand-over-invoice/')) sent.push(r);
    });

    await page.getByRole('button', { name: `View Return custody ${scanned}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Hand Over' }).click();
    const modal = page.getByRole('dialog', { name: 'Hand Over Custody' });
    await modal.getByRole('button', { name: 'Open Scanner' }).click();
    const before = Date.now();
    await expect(modal.getByRole('status').filter({ hasText: MSG.badgeScannedOffline(carlo.full_name) })).toBeVisible({ timeout: 30_000 });
    await expect(modal.getByRole('combobox', { name: 'Hand over to' })).toHaveValue(carlo.full_name);
    await expect(modal.getByText(MSG.qrInvalidBadge)).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/offline-badge-scanned-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/offline-badge-scanned-1280.png` });
    await page.setViewportSize(PHONE);

    await expect(modal.getByRole('button', { name: 'Start Camera' })).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await modal.getByRole('button', { name: 'Scan Image File' }).click();
    await (await chooser).setFiles(rosaBadge);
    await expect(modal.getByRole('alert').filter({ hasText: MSG.badgeUncheckable })).toBeVisible();
    await expect(modal.getByText(MSG.qrInvalidBadge)).toHaveCount(0);
    await expect(modal.getByRole('combobox', { name: 'Hand over to' })).toHaveValue(carlo.full_name);
    await page.screenshot({ path: `${SHOTS}/offline-badge-uncheckable-390.png` });

    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(MSG.queuedOffline).last()).toBeVisible();
    const label = `Hand-over of Return #${scanned} to ${carlo.full_name}`;
    await expect(page.getByText(`${label} — ${MSG.waitingToSend}`)).toBeVisible();
    expect(sent).toHaveLength(0);

    await context.setOffline(false);
    await expect(page.getByText(MSG.sentFromQueue(label))).toBeVisible();
    expect(MSG.sentFromQueue(label)).toBe(`Sent: hand-over of Return #${scanned} to Carlo Reyes`);
    await page.screenshot({ path: `${SHOTS}/offline-badge-sent-390.png` });

    const body = sent[0].postDataJSON() as { assigned_user_id: string; badge: string; scanned_at: string };
    expect(body.assigned_user_id).toBe(String(carlo.id));
    expect(body.badge).toMatch(new RegExp(`^${carlo.id}\\d{6}$`));
    expect(Date.parse(body.scanned_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.scanned_at)).toBeLessThanOrEqual(Date.now());
    const request = await playwright.request.newContext({ baseURL });
    const detail = await (await adminApi(request)).get<InvoiceDetail>(`get-invoice/${scanned}`);
    await request.dispose();
    expect(detail.data.assigned_user_id).toBe(carlo.id);
    expect(detail.data.activities.filter((a) => a.description === `Custody handed over to ${carlo.full_name}`)).toHaveLength(1);
  });

  test('when a two-party hand-over waits for the receiver, then his phone names the pads by route and number, not only “2 pads”', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const request = await playwright.request.newContext({ baseURL });
    const asCourier = await apiAs(request, courier.email, courier.password);
    await asCourier.post(`hand-over-invoice/${twoParty}`, { assigned_user_id: carlo.id });
    const [waiting] = (
      await (await apiAs(request, carlo.email, carlo.password)).get<{ incoming: PendingHandOver[] }>('get-pending-hand-overs')
    ).incoming;
    await request.dispose();
    expect(waiting.pad_list).toHaveLength(2);
    const [a, b] = waiting.pad_list;
    const question = acceptQuestion(waiting);
    expect(question).toBe(
      `${courier.full_name} hands you Return #${twoParty}, 2 pads (${a.route} pads ${a.number}, ${b.number}) — Accept custody?`,
    );

    await uiLogin(page, carlo.email, carlo.password);
    const asked = page.getByRole('region', { name: 'Hand-overs to accept: 1' });
    await expect(asked.getByRole('link', { name: question })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/hand-over-accept-pads-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/hand-over-accept-pads-1280.png` });
    await asked.getByRole('button', { name: 'Accept custody' }).click();
    await expect(page.getByText(CUSTODY_MSG.acceptedHandOver)).toBeVisible();
  });
});
