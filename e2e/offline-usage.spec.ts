import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import { MSG } from '../src/shared/messages.ts';
import { INCIDENT_MSG } from '../src/shared/schemas/incidents.ts';
import { adminApi, apiAs, createBranch, createUser, PHONE, uiLogin, uniq, type Api } from './support.ts';
import { padsHeldBy, type PadRow, savedQueryKeys } from './custodies-support.ts';
import type { Person } from './badges.ts';

/** Like e2e/offline.spec.ts, this file lets the built app's service worker run: the screens must open with no network. */
test.use({ viewport: PHONE, serviceWorkers: 'allow' });

const SHOTS = 'docs/screenshots';
const SAVED_AT = /No connection — showing what was saved at \d\d:\d\d/;

interface PadDetail {
  data: { id: number; number: number; series_from: number; next_number: number | null; series: Array<{ number: number; status: number }> };
}
interface IncidentPage {
  data: Array<{ number: string; summary: string }>;
}

/** The endpoints whose answers are saved on the phone, one entry per saved call. */
const savedOnPhone = async (page: Page) =>
  (await savedQueryKeys(page)).map(([name, id]) => String(name) + (typeof id === 'number' ? ` ${id}` : ''));

const circle = (scope: Locator, number: number) => scope.getByRole('button', { name: new RegExp(`^${number}: `) });

async function openPad(page: Page, pad: PadRow) {
  await page.getByRole('button', { name: new RegExp(`^VIEW pad ${pad.number} `) }).click();
  const details = page.getByRole('dialog', { name: 'Pad Details' });
  await expect(details.getByText('Pad Number')).toBeVisible();
  return details;
}

async function reportLoss(page: Page, pad: PadRow) {
  const details = await openPad(page, pad);
  await details.getByRole('button', { name: 'Report a loss' }).click();
  const report = page.getByRole('dialog', { name: 'Report a loss' });
  await report.getByLabel('Place').fill('Batangas pier, ramp 3');
  await report.getByLabel('Circumstances').fill('The booklet was left on the bench and was gone when the ferry boarded.');
  await report.getByRole('button', { name: 'Report loss' }).click();
  await expect(page.getByText(MSG.queuedOffline).last()).toBeVisible();
  await expect(report).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
}

const incidentsOf = async (admin: Api, pad: PadDetail['data']) =>
  (await admin.get<IncidentPage>('loss-incidents', { search: String(pad.series_from), per_page: 100 })).data.filter((row) =>
    row.summary.includes(`Pad ${pad.number} (`),
  );

test.describe.serial('a ticketing officer at the pier without network', () => {
  let admin: Api;
  let cashier: Person;
  let pads: PadRow[];

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    admin = await adminApi(request);
    const branch = await createBranch(admin, `Calapan Pier ${uniq()}`);
    cashier = await createUser(admin, { role_id: 7, branch_id: branch.id, first_name: 'Lorna', last_name: 'Teller' });
    const courier = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Nestor' });
    pads = await padsHeldBy(request, admin, cashier, courier, 3);
  });

  test('when she opened her pads and My QR Code once, then offline they open with the saved time; usage and loss reports wait, are sent on reconnect once, and one made invalid meanwhile is refused with the reason', async ({
    page,
    context,
    playwright,
    baseURL,
  }) => {
    const [a, b, c] = await Promise.all(pads.map(async (pad) => (await admin.get<PadDetail>(`get-pad/${pad.id}`)).data));
    await uiLogin(page, cashier.email, cashier.password);
    await page.goto('/pads');
    for (const pad of pads) {
      await openPad(page, pad);
      await expect(page.getByRole('dialog', { name: 'Pad Details' }).getByLabel('Loading history')).toHaveCount(0);
      await page.keyboard.press('Escape');
    }
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'My QR Code' }).click();
    await expect(page.getByRole('dialog', { name: 'My QR Code' }).getByRole('img', { name: 'My QR code' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await expect
      .poll(() => savedOnPhone(page))
      .toEqual(expect.arrayContaining(['get-pads', 'get-user-qrcode', ...pads.map((pad) => `pad-history ${pad.id}`)]));

    await context.setOffline(true);
    await page.goto(`/pads?pad=${a.id}`);
    await expect(page.getByText(MSG.offlineBanner)).toBeVisible();
    const details = page.getByRole('dialog', { name: 'Pad Details' });
    await expect(details.getByText(SAVED_AT)).toBeVisible();
    await expect(circle(details, a.series_from)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/offline-pad-details-390.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(details.getByText(SAVED_AT)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/offline-pad-details-1280.png` });
    await page.setViewportSize(PHONE);

    const sent: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/(pads\/\d+\/usage|loss-incidents)$/.test(r.url())) sent.push(r);
    });
    await circle(details, a.series_from).click();
    await details.getByRole('button', { name: `Mark used ${a.series_from}` }).click();
    await expect(page.getByText(MSG.queuedOffline).last()).toBeVisible();
    const usageLabel = `Usage ${a.series_from} of pad ${a.number}`;
    await expect(details.getByText(`${usageLabel} — ${MSG.waitingToSend}`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/offline-usage-waiting-390.png` });
    await page.keyboard.press('Escape');

    await reportLoss(page, b);
    await reportLoss(page, c);
    await expect(page.getByText('3 actions waiting to send')).toBeVisible();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'My QR Code' }).click();
    const qr = page.getByRole('dialog', { name: 'My QR Code' });
    await expect(qr.getByRole('img', { name: 'My QR code' })).toBeVisible();
    await expect(qr.getByText(SAVED_AT)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/offline-my-qr-code-390.png` });
    await page.keyboard.press('Escape');
    expect(sent).toHaveLength(0);

    /* Meanwhile the office reports pad C lost: the report queued for it is no longer valid. */
    const byOffice = await admin.post<{ data: { number: string } }>('loss-incidents', {
      pads: [{ pad_id: c.id }],
      place: 'Head office vault',
      occurred_at: new Date().toISOString(),
      circumstances: 'Reported by the office from the courier call.',
    });
    await context.setOffline(false);
    await expect(page.getByText(MSG.sentFromQueue(usageLabel))).toBeVisible();
    await expect(page.getByText(`Sent: loss report of pad ${b.number}`)).toBeVisible();
    const reason = INCIDENT_MSG.alreadyReported(c.series_from, byOffice.data.number);
    await expect(page.getByText(`Loss report of pad ${c.number} — refused: ${reason}`)).toBeVisible();
    await expect(page.getByText(MSG.offlineBanner)).toHaveCount(0);

    const padC = await openPad(page, c);
    const refused = padC.getByRole('alert').filter({ hasText: `Loss report of pad ${c.number} — refused` });
    await expect(refused).toContainText(reason);
    await refused.scrollIntoViewIfNeeded();
    await expect(padC).toHaveCSS('opacity', '1');
    await page.screenshot({ path: `${SHOTS}/offline-loss-refused-390.png` });
    await refused.getByRole('button', { name: 'Dismiss' }).click();
    await expect(refused).toHaveCount(0);
    await page.keyboard.press('Escape');

    const usageSend = sent.find((r) => r.url().endsWith(`/api/pads/${a.id}/usage`));
    const lossSend = sent.find((r) => r.url().endsWith('/api/loss-incidents') && r.postDataBuffer()?.includes(`"pad_id":${b.id}`));
    expect(usageSend?.headers()['idempotency-key']).toMatch(/^[\w-]{8,100}$/);
    expect(lossSend?.headers()['idempotency-key']).toMatch(/^[\w-]{8,100}$/);
    const usedA = (await admin.get<PadDetail>(`get-pad/${a.id}`)).data;
    expect(usedA.series.find((entry) => entry.number === a.series_from)?.status).toBe(2);
    expect(usedA.next_number).toBe(a.series_from + 1);
    const lostB = await incidentsOf(admin, b);
    expect(lostB).toHaveLength(1);
    expect(await incidentsOf(admin, c)).toEqual([expect.objectContaining({ number: byOffice.data.number })]);

    /* The phone's answer was lost, say: the same sends again with their keys change nothing. */
    const request = await playwright.request.newContext({ baseURL });
    const asCashier = await apiAs(request, cashier.email, cashier.password);
    const auth = { authorization: `Bearer ${asCashier.token}` };
    const usageAgain = await request.post(`/api/pads/${a.id}/usage`, {
      headers: { ...auth, 'idempotency-key': String(usageSend?.headers()['idempotency-key']) },
      data: usageSend?.postDataJSON(),
    });
    expect(usageAgain.status()).toBe(200);
    const lossAgain = await request.post('/api/loss-incidents', {
      headers: {
        ...auth,
        'idempotency-key': String(lossSend?.headers()['idempotency-key']),
        'content-type': String(lossSend?.headers()['content-type']),
      },
      data: lossSend?.postDataBuffer() ?? Buffer.alloc(0),
    });
    expect(lossAgain.status()).toBe(201);
    expect((await lossAgain.json()).data.number).toBe(lostB[0].number);
    expect((await admin.get<PadDetail>(`get-pad/${a.id}`)).data.next_number).toBe(a.series_from + 1);
    expect(await incidentsOf(admin, b)).toHaveLength(1);
    await request.dispose();
  });
});
