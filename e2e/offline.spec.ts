import { expect, test, type Page, type Request } from '@playwright/test';
import { MSG } from '../src/shared/messages.ts';
import { acceptQuestion, CUSTODY_MSG, handOverPending, type PendingHandOver } from '../src/shared/schemas/custodies.ts';
import { INVOICE_MSG } from '../src/shared/schemas/invoices.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN,
  adminApi,
  apiAs,
  BASE_ARGS,
  createBranch,
  createUser,
  headOffice,
  PHONE,
  SHOTS,
  uiLogin,
  uniq,
  type Api,
} from './support.ts';
import { padsHeldBy, savedQueryKeys } from './custodies-support.ts';
import type { Person } from './badges.ts';

/** This file alone lets the built app's service worker run (playwright.config.ts blocks it elsewhere). */
test.use({ viewport: PHONE, serviceWorkers: 'allow' });

interface Pending {
  incoming: PendingHandOver[];
  outgoing: Array<{ invoice_id: number }>;
}
interface InvoiceDetail {
  data: { assigned_user_id: number | null; activities: Array<{ description: string }> };
}

/** The endpoints whose answers are saved on the phone, one entry per saved call: the reload offline needs them. */
const savedOnPhone = async (page: Page) => (await savedQueryKeys(page)).map((key) => key.join(' '));

test('when a signed-in phone has loaded the app once, then Chromium finds it installable: manifest, icons and a service worker that answers offline', async ({
  playwright,
  baseURL,
}) => {
  /* Playwright's usual contexts are incognito, where Chromium never offers to install; this one has a profile. */
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-install-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: BASE_ARGS,
    baseURL,
    viewport: PHONE,
    serviceWorkers: 'allow',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await uiLogin(page, ADMIN.email, ADMIN.password);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cdp = await context.newCDPSession(page);
    expect((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test.describe.serial('a courier at the pier without network', () => {
  let admin: Api;
  let accounting: Api;
  let nestor: Person;
  let rey: Person;
  let first: number;
  let second: number;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    admin = await adminApi(request);
    const branch = await createBranch(admin, `Batangas Pier ${uniq()}`);
    const requester = await createUser(admin, { role_id: 5, branch_id: branch.id, first_name: 'Tess' });
    nestor = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Nestor', last_name: 'Dizon' });
    rey = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Rey', last_name: 'Cruz' });
    const pads = await padsHeldBy(request, admin, requester, nestor, 2);
    const asRequester = await apiAs(request, requester.email, requester.password);
    const made = [];
    for (const pad of pads)
      made.push(
        (await asRequester.post<{ data: { id: number } }>('create-return-invoice', { pads: [pad.id], assigned_user_id: nestor.id })).data
          .id,
      );
    [first, second] = made;
    const clerk = await createUser(admin, { role_id: 8, branch_id: (await headOffice(admin)).id, first_name: 'Ana' });
    accounting = await apiAs(request, clerk.email, clerk.password);
  });

  test('when the courier opened Custodies once, then offline it reopens with the banner and the saved time; a hand-over made offline waits, is sent on reconnect once, and one made invalid meanwhile is refused with the reason', async ({
    page,
    context,
    playwright,
    baseURL,
  }) => {
    await uiLogin(page, nestor.email, nestor.password);
    await expect(page).toHaveURL(/\/custodies$/);
    for (const id of [first, second]) {
      await page.getByRole('button', { name: `View Return custody ${id}` }).click();
      const details = page.getByRole('dialog');
      await expect(details.getByRole('button', { name: 'Hand Over' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(details).toHaveCount(0);
    }
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await expect
      .poll(() => savedOnPhone(page))
      .toEqual(expect.arrayContaining([`get-invoice ${first}`, `get-invoice ${second}`, 'get-users-by-roles']));

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(MSG.offlineBanner)).toBeVisible();
    await expect(page.getByText(/No connection — showing what was saved at \d\d:\d\d/)).toBeVisible();
    await expect(page.getByRole('button', { name: `View Return custody ${first}` })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/offline-custodies-phone.png` });

    const sent: Request[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/hand-over-invoice/')) sent.push(r);
    });
    for (const id of [first, second]) {
      await page.getByRole('button', { name: `View Return custody ${id}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Hand Over' }).click();
      const modal = page.getByRole('dialog', { name: 'Hand Over Custody' });
      await modal.getByRole('combobox', { name: 'Hand over to' }).click();
      await page.getByRole('option', { name: rey.full_name }).click();
      if (id === first) await page.screenshot({ path: `${SHOTS}/offline-hand-over-picker-phone.png` });
      await modal.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByText(MSG.queuedOffline).last()).toBeVisible();
      await expect(modal).toHaveCount(0);
      if ((await page.getByRole('dialog').count()) > 0) await page.keyboard.press('Escape');
    }
    await expect(page.getByText(`Hand-over of Return #${first} to ${rey.full_name} — ${MSG.waitingToSend}`)).toBeVisible();
    await expect(page.getByText(`Hand-over of Return #${second} to ${rey.full_name} — ${MSG.waitingToSend}`)).toBeVisible();
    await expect(page.getByText('2 actions waiting to send')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/offline-hand-over-waiting-phone.png` });
    expect(sent).toHaveLength(0);

    await accounting.post(`accept-invoice/${second}`);
    await context.setOffline(false);
    await expect(page.getByText(`Return #${first}: ${handOverPending(rey.full_name)}`)).toBeVisible();
    await expect(
      page.getByText(`Hand-over of Return #${second} to ${rey.full_name} — refused: ${INVOICE_MSG.handOverNotInTransit}`),
    ).toBeVisible();
    const refused = page.getByRole('alert', { name: `Hand-over of Return #${second} to ${rey.full_name} — refused` });
    await expect(refused).toContainText(INVOICE_MSG.handOverNotInTransit);
    await expect(page.getByText(MSG.offlineBanner)).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/offline-hand-over-sent-and-refused-phone.png` });

    const firstSend = sent.find((r) => r.url().endsWith(`/hand-over-invoice/${first}`));
    const key = firstSend?.headers()['idempotency-key'];
    expect(key).toMatch(/^[\w-]{8,100}$/);
    const request = await playwright.request.newContext({ baseURL });
    const asNestor = await apiAs(request, nestor.email, nestor.password);
    const again = await request.post(`/api/hand-over-invoice/${first}`, {
      headers: { authorization: `Bearer ${asNestor.token}`, 'idempotency-key': String(key) },
      data: firstSend?.postDataJSON(),
    });
    expect(again.status()).toBe(200);
    expect((await again.json()).message).toBe(handOverPending(rey.full_name));

    const asRey = await apiAs(request, rey.email, rey.password);
    const waiting = await asRey.get<Pending>('get-pending-hand-overs');
    expect(waiting.incoming.map((p) => p.invoice_id)).toEqual([first]);
    const firstInvoice = await admin.get<InvoiceDetail>(`get-invoice/${first}`);
    expect(firstInvoice.data.assigned_user_id).toBe(nestor.id);
    const secondInvoice = await admin.get<InvoiceDetail>(`get-invoice/${second}`);
    expect(secondInvoice.data.activities.filter((a) => a.description.startsWith('Custody handed over'))).toEqual([]);

    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await expect(refused).toHaveCount(0);
    await request.dispose();
  });

  test('when the receiving courier signs in on his own phone, then Needs my action asks him to accept the hand-over and he accepts from there; it moves to him, applied once', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const request = await playwright.request.newContext({ baseURL });
    const [waiting] = (await (await apiAs(request, rey.email, rey.password)).get<Pending>('get-pending-hand-overs')).incoming;
    expect(waiting).toMatchObject({ from_name: nestor.full_name, invoice_type: 'Return', invoice_id: first, pads: 1 });
    const question = acceptQuestion(waiting);
    expect(question).toContain(` pad ${waiting.pad_list[0].number}) — Accept custody?`);
    await uiLogin(page, rey.email, rey.password);
    const needs = page.getByRole('region', { name: 'Needs my action' });
    const asked = needs.getByRole('region', { name: 'Hand-overs to accept: 1' });
    await expect(asked.getByRole('link', { name: question })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/hand-over-accept-phone.png` });
    await page.screenshot({ path: 'docs/screenshots/needs-my-action-hand-over-390.png' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: 'docs/screenshots/needs-my-action-hand-over-1280.png' });
    await asked.getByRole('button', { name: 'Accept custody' }).click();
    await expect(page.getByText(CUSTODY_MSG.acceptedHandOver)).toBeVisible();
    await expect(page.getByText(question)).toHaveCount(0);
    await expect(page.getByRole('region', { name: /^Hand-overs to accept/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: `View Return custody ${first}` })).toBeVisible();

    const detail = await admin.get<InvoiceDetail>(`get-invoice/${first}`);
    expect(detail.data.assigned_user_id).toBe(rey.id);
    expect(detail.data.activities.filter((a) => a.description === `Custody handed over to ${rey.full_name}`)).toHaveLength(1);
    const asNestor = await apiAs(request, nestor.email, nestor.password);
    expect((await asNestor.get<Pending>('get-pending-hand-overs')).outgoing).toEqual([]);
    await request.dispose();
  });
});
