import { expect, test } from '@playwright/test';
import { adminApi, apiAs, BASE_ARGS, createBranch, createUser, headOffice, PHONE, SHOTS, uiLogin, uniq, watchConsole } from './support.ts';
import { openPhoneMenu, padsHeldBy } from './custodies-support.ts';
import { badgePng, badgeVideo, type Person, fakeCamera, fakeCameraFile } from './badges.ts';

const BADGE_Y4M = fakeCameraFile('custody-badge');

/** Chromium's fake camera shows the next courier's badge; launch options apply to the whole file. */
test.use({ viewport: PHONE, ...fakeCamera(BADGE_Y4M) });

test.describe('a courier on a phone hands over by scanning the next courier’s badge', () => {
  let courier: Person;
  let nextCourier: Person;
  let officeName: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const baseURL = String(testInfo.project.use.baseURL);
    const request = await playwright.request.newContext({ baseURL });
    const admin = await adminApi(request);
    officeName = (await headOffice(admin)).name;
    const branch = await createBranch(admin, `Lucena Agency ${uniq()}`);
    const requester = await createUser(admin, { role_id: 5, branch_id: branch.id, first_name: 'Rosa' });
    courier = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Dario', last_name: 'Driver' });
    nextCourier = await createUser(admin, { role_id: 11, branch_id: branch.id, first_name: 'Mila', last_name: 'Messenger' });
    const pads = await padsHeldBy(request, admin, requester, courier, 2);
    const asRequester = await apiAs(request, requester.email, requester.password);
    await asRequester.post('create-return-invoice', { pads: pads.map((p) => p.id), assigned_user_id: courier.id });

    const renderer = await playwright.chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: BASE_ARGS,
    });
    badgeVideo(await badgePng(request, renderer, nextCourier), BADGE_Y4M);
    await renderer.close();
    await request.dispose();
  });

  test('when the courier opens Custodies at 390 px, then he sees only his custody and hands it over with the camera', async ({ page }) => {
    const errors = watchConsole(page);
    await uiLogin(page, courier.email, courier.password);
    await expect(page).toHaveURL(/\/custodies$/);
    const nav = await openPhoneMenu(page);
    const entries = nav.locator('a, button');
    await expect(entries).toHaveCount(4);
    for (const [i, name] of ['Custodies', 'Notifications', 'Profile', 'Logout'].entries())
      await expect(entries.nth(i)).toHaveAccessibleName(name);
    await nav.getByRole('link', { name: 'Custodies' }).click();
    await expect(nav.getByRole('link').first()).not.toBeInViewport();

    await expect(page.getByRole('heading', { name: 'Custodies' })).toBeVisible();
    await expect(page.getByPlaceholder('Search by branch name or pad number')).toBeVisible();
    const cards = page.getByRole('listitem');
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('Return');
    await expect(cards.first()).toContainText('2 pads');
    await expect(cards.first()).toContainText(courier.full_name);
    await page.screenshot({ path: `${SHOTS}/custodies-list-phone.png`, fullPage: true });

    await cards.first().getByRole('button', { name: /View/ }).click();
    const details = page.getByRole('dialog', { name: 'Return Custody Details' });
    await expect(details).toBeVisible();
    await expect(details.getByText('Custody Activity')).toBeVisible();
    await expect(details.getByRole('table', { name: 'Custody details' })).toContainText(officeName);
    await expect(details.getByRole('button', { name: 'Hand Over' })).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/custodies-details-phone.png` });
    await details.getByRole('button', { name: 'Hand Over' }).click();

    const modal = page.getByRole('dialog', { name: 'Hand Over Custody' });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('combobox', { name: 'Hand over to' })).toBeVisible();
    await modal.getByRole('button', { name: 'Open Scanner' }).click();
    await expect(modal.getByText('Position the QR code within the frame')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/custodies-hand-over-scanner-phone.png` });
    await expect(modal.getByRole('combobox', { name: 'Hand over to' })).toHaveValue(nextCourier.full_name, { timeout: 30_000 });
    await page.screenshot({ path: `${SHOTS}/custodies-hand-over-phone.png` });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Custody handed over successfully')).toBeVisible();
    await expect(page.getByText('No custodies')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('when the next courier signs in, then the custody is his and its timeline shows both couriers', async ({ page }) => {
    await uiLogin(page, nextCourier.email, nextCourier.password);
    const card = page.getByRole('listitem').first();
    await expect(card).toContainText(nextCourier.full_name);
    await card.getByRole('button', { name: /View/ }).click();
    const details = page.getByRole('dialog', { name: 'Return Custody Details' });
    await expect(details.getByText(`Custody handed over to ${nextCourier.full_name}`)).toBeVisible();
    await expect(details.getByText(courier.full_name).first()).toBeVisible();
    await expect(details.getByRole('button', { name: 'Hand Over' })).toBeVisible();
  });
});
