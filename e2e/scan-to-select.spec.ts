import { expect, test, type APIRequestContext } from '@playwright/test';
import { badgeVideo, fakeCamera, fakeCameraFile, labelQrPng, type Person } from './badges.ts';
import { padsHeldBy, type PadRow } from './custodies-support.ts';
import { pdfText } from './pdf-text.ts';
import {
  adminApi,
  apiAs,
  createBranch,
  createUser,
  headOffice,
  PHONE,
  seriousAxe,
  SHOTS,
  type Api,
  uiLogin,
  uniqLetters,
  watchConsole,
} from './support.ts';

const LABEL_Y4M = fakeCameraFile('held-pad-label');

/** Chromium's fake camera films the label of the holder's first pad; launch options apply to the whole file. */
test.use(fakeCamera(LABEL_Y4M));

/** The label sheet of one pad as the Inventories Print labels gives it, and the code printed on it. */
async function labelOf(request: APIRequestContext, api: Api, padId: number) {
  const res = await request.get(`/api/pad-labels?ids=${padId}&size=4x6`, { headers: { authorization: `Bearer ${api.token}` } });
  expect(res.ok()).toBe(true);
  const pdf = await res.body();
  const code = /PT1P\d+-[A-Z0-9]{12}/.exec(pdfText(pdf))?.[0] ?? '';
  expect(code).not.toBe('');
  return { pdf, code };
}

test.describe('scan to select in the Return picker and the count screen, and when a holder was last counted', () => {
  test.describe.configure({ mode: 'serial' });
  let holder: Person;
  let neverCounted: Person;
  let custodian: Person;
  let courier: Person;
  let pads: PadRow[];
  let othersPad: PadRow;
  const codes: string[] = [];
  let othersCode: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const request = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
    const admin = await adminApi(request);
    const office = await headOffice(admin);
    const branch = await createBranch(admin, `Roxas Agency ${Date.now()}`);
    holder = await createUser(admin, { role_id: 7, branch_id: branch.id, first_name: 'Tess', last_name: 'Tolentino' });
    neverCounted = await createUser(admin, { role_id: 6, branch_id: branch.id, first_name: 'Aaron', last_name: 'Abad' });
    custodian = await createUser(admin, { role_id: 3, branch_id: office.id, first_name: 'Carla', last_name: 'Cuenca' });
    courier = await createUser(admin, {
      role_id: 10,
      branch_id: office.id,
      first_name: 'Dom',
      last_name: `Dela Cruz ${uniqLetters()}`,
    });
    pads = await padsHeldBy(request, admin, holder, courier, 3);
    [othersPad] = await padsHeldBy(request, admin, neverCounted, courier, 1);
    const asHolder = await apiAs(request, holder.email, holder.password);
    await asHolder.post('create-return-invoice', { pads: [pads[2].id], assigned_user_id: courier.id });
    const asCustodian = await apiAs(request, custodian.email, custodian.password);
    for (const pad of pads) codes.push((await labelOf(request, asCustodian, pad.id)).code);
    othersCode = (await labelOf(request, asCustodian, othersPad.id)).code;
    badgeVideo(labelQrPng((await labelOf(request, asCustodian, pads[0].id)).pdf), LABEL_Y4M);
    await request.dispose();
  });

  test('when a handheld scanner types a label and Enter on the count screen, then that pad is recorded found and the box empties', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    const api = await apiAs(page.request, custodian.email, custodian.password);
    const count = await api.post<{ data: { id: number; items: Array<{ pad: { id: number }; book_next_number: number | null }> } }>(
      'counts',
      { user_id: holder.id },
    );
    await page.setViewportSize(PHONE);
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto(`/counts?count=${count.data.id}`);
    const box = page.getByRole('textbox', { name: 'Find a pad or scan its label' });
    await box.pressSequentially(`${codes[1]}\n`);
    await expect(page.getByText(`Pad ${pads[1].number} recorded`)).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(page.getByTestId(`count-item-${pads[1].number}`).getByText('Found', { exact: true }).first()).toHaveClass(/Badge/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/counts-handheld-390.png`, fullPage: true });
    const stored = (await api.get<{ data: { items: Array<{ pad: { id: number }; state: string }> } }>(`counts/${count.data.id}`)).data;
    expect(stored.items.find((i) => i.pad.id === pads[1].id)?.state).toBe('found');
    expect(stored.items.find((i) => i.pad.id === pads[0].id)?.state).toBe('pending');

    for (const item of count.data.items) {
      await api.post(`counts/${count.data.id}/items`, {
        pad_id: item.pad.id,
        ...(item.book_next_number === null ? {} : { first_unused: item.book_next_number }),
      });
    }
    const asHolder = await apiAs(page.request, holder.email, holder.password);
    await asHolder.post(`counts/${count.data.id}/sign-off`, {});
    await api.post(`counts/${count.data.id}/close`);
    expect(errors).toEqual([]);
  });

  test('when the holder and a never-counted user are opened in Accountability, then each says when they were last counted', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    const api = await apiAs(page.request, custodian.email, custodian.password);
    const last = (await api.get<{ data: { count_id: number; last_counted_at: string } }>('counts/last', { user_id: holder.id })).data;
    expect(last.count_id).toBeGreaterThan(0);
    const { time_zone } = await (await page.request.get('/api/health')).json();
    /** This month, the one month the fresh ledger has, so the RAAF beside the line loads too. */
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: time_zone, year: 'numeric', month: '2-digit' }).format(new Date());
    await uiLogin(page, custodian.email, custodian.password);
    await page.goto(`/accountability?holder=u:${holder.id}&month=${month}`);
    const line = page.getByTestId('last-counted');
    await expect(line).toHaveText(new RegExp(`^Last counted \\d{2} [A-Z][a-z]{2} \\d{4} \\(count #${last.count_id}\\)$`));
    await page.screenshot({ path: `${SHOTS}/accountability-last-counted-1280.png` });
    expect(await seriousAxe(page, '[data-testid="last-counted"]')).toEqual([]);
    await line.getByRole('link', { name: `count #${last.count_id}` }).click();
    await expect(page.getByRole('heading', { name: `Count #${last.count_id}: ${holder.full_name}` })).toBeVisible();

    await page.setViewportSize(PHONE);
    await page.goto(`/accountability?holder=u:${neverCounted.id}&month=${month}`);
    await expect(page.getByTestId('last-counted')).toHaveText('Never physically counted');
    await page.screenshot({ path: `${SHOTS}/accountability-last-counted-390.png` });
    expect(errors).toEqual([]);
  });

  test('when an administrator opens the Dashboard, then Counts due names the never-counted holder and its link starts the count', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    const admin = await adminApi(page.request);
    await uiLogin(page, 'admin@padtrack.test', 'Admin@12345');
    await page.goto('/dashboard');
    const panel = page.getByRole('region', { name: 'Counts due' });
    const due = panel.locator(`a[href="/counts?user=${neverCounted.id}"]`);
    await expect(due).toHaveText(`${neverCounted.full_name} · never counted`);
    await expect(panel.getByRole('link', { name: new RegExp(`^${holder.full_name}`) })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/dashboard-counts-due-1280.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/dashboard-counts-due-390.png` });
    expect(await seriousAxe(page, 'main')).toEqual([]);

    await due.click();
    await expect(page).toHaveURL(new RegExp(`/counts\\?user=${neverCounted.id}$`));
    await expect(page.getByTestId('last-counted')).toHaveText('Never physically counted');
    await page.getByRole('button', { name: `Start count of ${neverCounted.full_name}` }).click();
    await expect(page.getByRole('heading', { name: new RegExp(`^Count #\\d+: ${neverCounted.full_name}$`) })).toBeVisible();
    const started = (await admin.get<{ data: Array<{ holder: { id: number }; status: string }> }>('counts', { search: 'Aaron' })).data;
    expect(started.filter((c) => c.holder.id === neverCounted.id).map((c) => c.status)).toEqual(['open']);
    expect(errors).toEqual([]);
  });

  test('when the holder scans a label in Return and a handheld scanner types others, then his pads are selected and the rest say why not', async ({
    page,
  }) => {
    const errors = watchConsole(page);
    await page.setViewportSize(PHONE);
    await uiLogin(page, holder.email, holder.password);
    await page.goto('/invoices');
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Create Return Invoice' });
    await modal.getByRole('button', { name: 'Scan Pad Labels' }).click();
    await expect(modal.getByText(`Selected pad ${pads[0].number}`)).toBeVisible({ timeout: 30_000 });
    await expect(modal.getByText('1 selected')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/return-scan-label-390.png` });
    expect(await seriousAxe(page, '[role="dialog"]')).toEqual([]);
    await modal.getByRole('button', { name: 'Close Pad Scanner' }).click();

    const box = modal.getByRole('textbox', { name: 'Search by pad name' });
    await box.pressSequentially(`${codes[1]}\n`);
    await expect(page.getByText(`Selected pad ${pads[1].number}`)).toBeVisible();
    await expect(modal.getByText('2 selected')).toBeVisible();
    await expect(box).toHaveValue('');
    await box.pressSequentially(`${othersCode}\n`);
    await expect(page.getByText(`Pad ${othersPad.number} is not yours to choose here`)).toBeVisible();
    await box.pressSequentially(`${codes[2]}\n`);
    await expect(page.getByText(`Pad ${pads[2].number} is in transit on an invoice`)).toBeVisible();
    await expect(modal.getByText('2 selected')).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 800 });
    await modal.getByRole('combobox', { name: 'Assign to' }).click();
    await page.getByRole('option', { name: courier.full_name }).click();
    await page.screenshot({ path: `${SHOTS}/return-scan-label-1280.png` });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Return invoice created successfully')).toBeVisible();

    const api = await apiAs(page.request, holder.email, holder.password);
    expect((await api.get<{ total: number }>('get-user-pads')).total).toBe(0);
    for (const pad of pads.slice(0, 2)) {
      const stored = (await api.get<{ data: { locked_by_invoice_id: number | null } }>(`get-pad/${pad.id}`)).data;
      expect(stored.locked_by_invoice_id).not.toBeNull();
    }
    expect(errors).toEqual([]);
  });
});
