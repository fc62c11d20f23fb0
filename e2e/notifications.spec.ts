import { expect, test, type Page } from '@playwright/test';
import { ALERT_KIND_LABELS, type AlertSettings, type NotificationList } from '../src/shared/schemas/notifications.ts';
import { pick } from './admin-support.ts';
import { transactionScene } from './invoices-support.ts';
import { ADMIN, PHONE, adminApi, animationsSettled, apiAs, seriousAxe, uiLogin, waitForToastsToClose, type Api } from './support.ts';

const HIDE_TOASTS = '.mantine-Notifications-root { display: none !important; }';
const WAITING = ALERT_KIND_LABELS.waiting_acceptance;
/** The job that evaluates every alert kind now (Jobs screen, POST /api/jobs/{name}/run). */
const EVALUATE_JOB = 'alerts';

let saved: AlertSettings | null = null;

/** Screenshots of a screen at 1280 (1800 high when `tall`) and at 390 px, into docs/screenshots, without the toasts; no serious axe finding at either. */
async function shots(page: Page, name: string, ready: () => Promise<void>, phoneReady = ready, tall = false) {
  /* A tall window rather than a full-page shot, whose fixed header and footer would land in the middle of it. */
  await page.setViewportSize({ width: 1280, height: tall ? 1800 : 800 });
  await ready();
  await animationsSettled(page);
  await page.screenshot({ path: `docs/screenshots/notifications-${name}-1280.png`, style: HIDE_TOASTS });
  expect(await seriousAxe(page, 'body'), `${name} at 1280`).toEqual([]);
  await page.setViewportSize(PHONE);
  await phoneReady();
  await animationsSettled(page);
  await page.screenshot({ path: `docs/screenshots/notifications-${name}-390.png`, style: HIDE_TOASTS });
  expect(await seriousAxe(page, 'body'), `${name} at 390`).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Every threshold 0, so whatever is in transit is late at once. */
async function zeroThresholds(admin: Api) {
  saved = (await admin.get<{ data: AlertSettings }>('alert-settings')).data;
  const thresholds = Object.fromEntries(Object.keys(saved.thresholds).map((key) => [key, 0]));
  await admin.put('alert-settings', { thresholds });
}

/** Runs a job now through the API; a scheduled run of it in progress (409) is waited out. */
async function runJobNow(admin: Api, name: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await admin.post<{ data: { status: string; error: string | null } }>(`jobs/${name}/run`);
    } catch (error) {
      if (attempt >= 20 || !String(error).includes('failed: 409 ')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

test.afterAll(async ({ request }) => {
  if (!saved) return;
  const admin = await adminApi(request);
  await admin.put('alert-settings', { thresholds: saved.thresholds });
});

test('when an invoice waits in transit past its threshold, then its receiver sees the bell count, the list, marks it read and follows its link', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const scene = await transactionScene(admin, 2);
  await zeroThresholds(admin);
  const requester = await apiAs(request, scene.requester.email, scene.requester.password);
  const asked = await requester.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: scene.office.id,
    route_id: scene.route.id,
    pads: 1,
  });
  const available = (await admin.get<{ data: Array<{ id: number }> }>('available-pads', { route_id: scene.route.id })).data;
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: [available[0].id],
    assigned_user_id: scene.courier.id,
    expected_return: 5,
  });
  const invoiceId = issued.data.id;
  expect((await runJobNow(admin, EVALUATE_JOB)).data).toMatchObject({ status: 'ok', error: null });

  const mine = await requester.get<NotificationList>('notifications', { state: 'open', kind: 'waiting_acceptance' });
  const item = mine.data.find((row) => row.link.includes(String(invoiceId)));
  if (!item) throw new Error(`the receiver has no open "waiting to be accepted" alert for invoice ${invoiceId}`);
  const unread = mine.unread;
  expect(unread).toBeGreaterThan(0);

  await uiLogin(page, scene.requester.email, scene.requester.password);
  const bell = page.getByRole('banner').getByRole('link', { name: `Notifications, ${unread} unread` });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: /Open/ })).toHaveAttribute('aria-selected', 'true');

  await pick(page, 'Kind', WAITING);
  await expect(page).toHaveURL(/kind=waiting_acceptance/);
  const card = page.getByRole('listitem', { name: `${item.title}, unread` });
  await expect(card).toBeVisible();
  await expect(card.getByText(WAITING, { exact: true })).toBeVisible();
  await shots(page, 'list', () => expect(card).toBeVisible());

  await card.getByRole('button', { name: `Mark read: ${item.title}` }).click();
  await expect(page.getByRole('listitem', { name: item.title, exact: true })).toBeVisible();
  const left = unread - 1;
  await expect(
    page.getByRole('banner').getByRole('link', { name: left > 0 ? `Notifications, ${left} unread` : 'Notifications', exact: true }),
  ).toBeVisible();
  const stored = await requester.get<NotificationList>('notifications', { state: 'open', kind: 'waiting_acceptance' });
  expect(stored.data.find((row) => row.id === item.id)?.read_at).not.toBeNull();

  await page.getByRole('listitem', { name: item.title, exact: true }).getByRole('link', { name: item.title }).click();
  await expect(page).toHaveURL(new RegExp(`${item.link.replace(/[?]/g, '\\?')}$`));
  await expect(page.getByRole('dialog')).toBeVisible();

  await page.goto('/notifications?state=resolved');
  await expect(page.getByRole('tab', { name: 'Resolved' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText(/No resolved alerts yet|Resolved \d/).first()).toBeVisible();
});

test('when a user chooses on their profile which alerts to e-mail, then the choice is saved and the mandatory ones stay on', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const scene = await transactionScene(admin, 1);
  await uiLogin(page, scene.requester.email, scene.requester.password);
  await page.goto('/notifications');
  await page.getByRole('link', { name: 'E-mail settings' }).click();
  await expect(page).toHaveURL(/\/user-profile#email-alerts$/);
  await expect(page.getByRole('heading', { name: 'E-mail alerts', level: 2 })).toBeInViewport();
  const overdue = page.getByRole('checkbox', { name: ALERT_KIND_LABELS.overdue_return });
  await expect(overdue).toBeChecked();
  await expect(overdue).toBeDisabled();
  await expect(page.getByRole('checkbox', { name: ALERT_KIND_LABELS.raaf_due })).toBeDisabled();
  await expect(page.getByRole('checkbox', { name: ALERT_KIND_LABELS.loss_reported })).toBeDisabled();
  const waiting = page.getByRole('checkbox', { name: WAITING });
  const was = await waiting.isChecked();
  await waiting.setChecked(!was);
  await page.getByRole('button', { name: 'Save e-mail alerts' }).click();
  await expect(page.locator('.mantine-Notifications-notification')).toBeVisible();

  const requester = await apiAs(request, scene.requester.email, scene.requester.password);
  const stored = await requester.get<{ data: { kinds: Array<{ kind: string; email: boolean }> } }>('notification-settings');
  expect(stored.data.kinds.find((row) => row.kind === 'waiting_acceptance')?.email).toBe(!was);

  await page.reload();
  await expect(page.getByRole('checkbox', { name: WAITING })).toBeChecked({ checked: !was });
  await waitForToastsToClose(page);
  await shots(page, 'settings', () => page.getByRole('heading', { name: 'E-mail alerts' }).scrollIntoViewIfNeeded());
});

test('when Admin sets the thresholds and a reorder point, then they are saved and shown again after a reload', async ({
  page,
  request,
}) => {
  const admin = await adminApi(request);
  const scene = await transactionScene(admin, 1);
  const before = (await admin.get<{ data: AlertSettings }>('alert-settings')).data;
  saved ??= before;

  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
  await page.goto('/alert-settings');
  await expect(page.getByRole('heading', { name: 'Alert settings', level: 1 })).toBeVisible();
  if (!before.mail_configured) await expect(page.getByText('Mail not configured: alerts are in-app only.')).toBeVisible();

  await page.getByRole('button', { name: 'Restore defaults' }).click();
  await expect(page.getByLabel('Count due after (days)')).toHaveValue(String(before.defaults.count_due_days));
  const waitingHours = page.getByLabel('Waiting to be accepted after (hours)');
  const waitingEscalate = page.getByLabel('Waiting: tell Custodian and Accounting after (hours)');
  await waitingHours.fill('30');
  await waitingEscalate.fill('20');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(waitingEscalate).toHaveAccessibleDescription(/may not be less than/);
  await waitingEscalate.fill('80');
  await page.getByRole('button', { name: 'New reorder point' }).click();
  const point = page.getByRole('group', { name: `Reorder point ${before.reorder_points.length + 1}` });
  await point.getByRole('combobox', { name: 'Branch', exact: true }).fill(scene.agency.name);
  await page.getByRole('option', { name: scene.agency.name, exact: true }).click();
  await point.getByRole('combobox', { name: 'Route', exact: true }).fill(scene.route.name);
  await page.getByRole('option', { name: scene.route.name, exact: true }).click();
  await point.getByLabel('Minimum').fill('500');
  await point.getByLabel('Lead days').fill('10');
  await point.getByLabel('Snooze until').fill('2030-01-31');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.mantine-Notifications-notification')).toBeVisible();

  const stored = (await admin.get<{ data: AlertSettings }>('alert-settings')).data;
  expect(stored.thresholds).toEqual({ ...before.defaults, waiting_hours: 30, waiting_escalate_hours: 80 });
  expect(stored.reorder_points).toContainEqual(
    expect.objectContaining({
      branch_id: scene.agency.id,
      route_id: scene.route.id,
      minimum: 500,
      lead_days: 10,
      snoozed_until: '2030-01-31',
    }),
  );

  await page.reload();
  await expect(page.getByLabel('Waiting to be accepted after (hours)')).toHaveValue('30');
  const reloaded = page.getByRole('group', { name: `Reorder point ${before.reorder_points.length + 1}` });
  await expect(reloaded.getByLabel('Minimum')).toHaveValue('500');
  await expect(reloaded.getByLabel('Snooze until')).toHaveValue('2030-01-31');
  await waitForToastsToClose(page);
  await shots(
    page,
    'alert-settings',
    () => expect(page.getByRole('heading', { name: 'Reorder points' })).toBeVisible(),
    () => reloaded.scrollIntoViewIfNeeded(),
    true,
  );
});

test('when the Admin runs a job now on Jobs, then its result and last run show', async ({ page }) => {
  await uiLogin(page, ADMIN.email, ADMIN.password);
  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
  const job = page.getByRole('listitem', { name: EVALUATE_JOB, exact: true });
  await job.getByRole('button', { name: `Run ${EVALUATE_JOB} now` }).click();
  await expect(job.getByRole('status')).toContainText('Run now: Succeeded');
  await expect(job.getByText('Succeeded', { exact: true })).toBeVisible();
  await waitForToastsToClose(page);
  /* The job at the top, below the fixed header, with its result under it. */
  const toTop = async () => {
    await animationsSettled(page);
    await job.evaluate((card) => window.scrollBy(0, card.getBoundingClientRect().top - 76));
  };
  await shots(page, 'jobs', toTop);
});
