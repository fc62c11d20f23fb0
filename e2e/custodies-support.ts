import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs, createRoute, headOffice, type Api } from './support.ts';
import { type Person } from './badges.ts';

export interface PadRow {
  id: number;
  number: number;
}

/**
 * Puts `count` fresh pads into a requester's hands the way the product does it: request, issue by the
 * admin to a courier, accept by the requester. Returns the pads.
 */
export async function padsHeldBy(
  request: APIRequestContext,
  admin: Api,
  requester: Person,
  courier: Person,
  count: number,
): Promise<PadRow[]> {
  const route = await createRoute(admin);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + count * 50 - 1 });
  const available = await admin.get<{ data: PadRow[] }>('available-pads', { route_id: route.id, per_page: 100 });
  const pads = available.data.slice(0, count);
  const asRequester = await apiAs(request, requester.email, requester.password);
  const office = await headOffice(admin);
  const asked = await asRequester.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: office.id,
    route_id: route.id,
    pads: count,
  });
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: pads.map((p) => p.id),
    assigned_user_id: courier.id,
    expected_return: 5,
  });
  await asRequester.post(`accept-invoice/${issued.data.id}`);
  return pads;
}

/** Accepts an invoice in the Transactions screen: VIEW, Accept, scan the courier's badge file in Confirm Invoice, Submit. */
export async function acceptInTransactions(page: Page, branchName: string, type: RegExp, courierBadge: string) {
  await page.goto('/invoices');
  await page.getByPlaceholder('Search by branch name or pad number').fill(branchName);
  const row = page.getByRole('row', { name: type }).filter({ hasText: branchName }).filter({ hasText: 'In-Transit' }).first();
  await row.getByRole('button', { name: /View/ }).click();
  await page.getByRole('button', { name: 'Accept' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Invoice' });
  await expect(confirm).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await confirm.getByRole('button', { name: 'Scan Image File' }).click();
  await (await chooser).setFiles(courierBadge);
  await expect(confirm.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await confirm.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Invoice accepted successfully')).toBeVisible();
}

/** Opens the phone menu (closed after sign-in) and returns it once its entries are on screen. */
export async function openPhoneMenu(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(nav.getByRole('link').first()).toBeInViewport();
  return nav;
}

/** The query keys (their first two parts) whose answers the app saved on the phone (IndexedDB), one entry per saved call. */
export const savedQueryKeys = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<unknown[][]>((resolve) => {
        const open = indexedDB.open('padtrack');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) return resolve([]);
          const all = db.transaction('queries').objectStore('queries').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as Array<{ state: { queries: Array<{ queryKey: unknown[] }> } }>).flatMap((saved) =>
                saved.state.queries.map((q) => q.queryKey.slice(0, 2)),
              ),
            );
        };
        open.onerror = () => resolve([]);
      }),
  );
