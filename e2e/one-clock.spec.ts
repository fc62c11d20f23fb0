import { expect, test } from '@playwright/test';
import { dayTimeText } from '../src/shared/format.ts';
import { dialog, shot } from './admin-support.ts';
import { ADMIN, adminApi, apiAs, createRoute, createUser, headOffice, PHONE, uiLogin, uniq } from './support.ts';

/** The browser keeps New York's clock; the installation's APP_TIMEZONE is the default, Asia/Manila. */
test.use({ timezoneId: 'America/New_York' });

const manila = (iso: string) => `${dayTimeText(iso, 'Asia/Manila')} (Manila time)`;
const newYork = (iso: string) => dayTimeText(iso, 'America/New_York');

test('when the browser keeps another time zone, then one event shows the same APP_TIMEZONE time, zone named, on every screen', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const admin = await adminApi(page.request);
  const office = await headOffice(admin);
  const route = await createRoute(admin, `Clock Route ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 49 });
  const requester = await createUser(admin, { role_id: 5 });
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id, first_name: 'Tomas', last_name: 'Orasan' });
  const available = await admin.get<{ data: Array<{ id: number }> }>('available-pads', { route_id: route.id });
  const asRequester = await apiAs(page.request, requester.email, requester.password);
  const asked = await asRequester.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: office.id,
    route_id: route.id,
    pads: 1,
  });
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: [available.data[0].id],
    assigned_user_id: courier.id,
    expected_return: 5,
  });
  const invoice = (
    await admin.get<{ data: { created_at: string; activities: Array<{ created_at: string; invoice_status: { name: string } }> } }>(
      `get-invoice/${issued.data.id}`,
    )
  ).data;
  const handedOver = invoice.activities[invoice.activities.length - 1].created_at;
  const history = (await admin.get<{ data: { events: Array<{ recorded_at: string }> } }>(`pad-history/${available.data[0].id}`)).data;
  const padIssued = history.events[history.events.length - 1].recorded_at;
  expect(newYork(handedOver)).not.toBe(dayTimeText(handedOver, 'Asia/Manila'));

  await uiLogin(page, ADMIN.email, ADMIN.password);
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');

  // The invoice's hand-over: its details on Transactions and on Custodies.
  await page.goto(`/invoices?invoice=${issued.data.id}`);
  const onTransactions = dialog(page, 'Issued Invoice Details');
  await expect(onTransactions.getByRole('region', { name: 'Invoice Activity' })).toContainText(manila(handedOver));
  await expect(onTransactions.getByRole('row', { name: /^Date/ })).toHaveText(`Date${manila(invoice.created_at)}`);
  await expect(onTransactions).not.toContainText(newYork(handedOver));
  await shot(page, 'one-clock-transactions-1280');

  await page.goto(`/custodies?custody=${issued.data.id}`);
  const onCustodies = dialog(page, 'Issued Custody Details');
  await expect(onCustodies.getByRole('region', { name: 'Custody Activity' })).toContainText(manila(handedOver));
  await expect(onCustodies.getByRole('row', { name: /^Date/ })).toHaveText(`Date${manila(invoice.created_at)}`);

  // The same hand-over in the pad's ledger history: Pad Details on Inventories and the header's Find receipt.
  await page.goto(`/pads?pad=${available.data[0].id}`);
  await expect(page.getByRole('dialog')).toContainText(manila(padIssued));
  await page.goto('/invoices');
  await page.getByRole('textbox', { name: 'Find receipt no.' }).fill(String(from));
  await page.getByRole('textbox', { name: 'Find receipt no.' }).press('Enter');
  const found = page.getByRole('list', { name: `History of receipt no. ${from}` });
  await expect(found).toContainText(manila(padIssued));
  await expect(found).not.toContainText(newYork(padIssued));

  await page.setViewportSize(PHONE);
  await page.goto(`/custodies?custody=${issued.data.id}`);
  await expect(dialog(page, 'Issued Custody Details').getByRole('region', { name: 'Custody Activity' })).toContainText(manila(handedOver));
  await shot(page, 'one-clock-custody-390');
});
