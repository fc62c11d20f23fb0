import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiAs, createBranch, createRoute, type Api, type createUser } from './support.ts';

export const PHONE = { width: 390, height: 844 };
export const SHOTS = 'docs/screenshots';
export const BADGE_Y4M = path.join(os.tmpdir(), `padtrack-custody-badge-${process.env.E2E_PORT ?? 3100}.y4m`);
export const BASE_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'];

export type Person = Awaited<ReturnType<typeof createUser>>;
export interface PadRow {
  id: number;
  number: number;
}

/** The head office (the configured branch 1): made on an empty database, found otherwise. */
export async function headOffice(admin: Api) {
  try {
    return (await admin.get<{ data: { id: number; name: string } }>('head-office-branch')).data;
  } catch {
    return createBranch(admin, 'Head Office');
  }
}

/**
 * Puts `count` fresh pads into a requester's hands the way the product does it: request, issue by the
 * admin to a courier, accept by the requester. Returns the pads.
 */
export async function padsHeldBy(request: APIRequestContext, admin: Api, requester: Person, courier: Person, count: number): Promise<PadRow[]> {
  const route = await createRoute(admin);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + count * 50 - 1 });
  const available = await admin.get<{ data: PadRow[] }>('available-pads', { route_id: route.id, per_page: 100 });
  const pads = available.data.slice(0, count);
  const asRequester = await apiAs(request, requester.email, requester.password);
  const office = await headOffice(admin);
  const asked = await asRequester.post<{ data: { id: number } }>('create-request-invoice', { branch_id: office.id, route_id: route.id, pads: count });
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: pads.map((p) => p.id),
    assigned_user_id: courier.id,
    expected_return: 5,
  });
  await asRequester.post(`accept-invoice/${issued.data.id}`);
  return pads;
}

/** A person's real badge (get-user-qrcode) rendered to a PNG with a white margin by a Chromium page. */
export async function badgePng(request: APIRequestContext, browser: Browser, person: Person): Promise<string> {
  const api = await apiAs(request, person.email, person.password);
  const { qr_code } = await api.get<{ qr_code: string }>('get-user-qrcode');
  const page = await browser.newPage();
  await page.setContent(
    `<body style="margin:0;background:#fff"><img id="b" src="data:image/svg+xml;base64,${qr_code}" style="width:300px;height:300px;padding:30px;background:#fff"></body>`,
  );
  const png = path.join(os.tmpdir(), `padtrack-custody-badge-${person.id}.png`);
  fs.writeFileSync(png, await page.locator('#b').screenshot());
  await page.close();
  return png;
}

/** DESIGN §7 fake-camera recipe: the badge inside the 250 px scan box on a white 640×480 frame. */
export function badgeVideo(png: string) {
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-loop',
    '1',
    '-i',
    png,
    '-vf',
    'scale=180:180,pad=640:480:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p',
    '-t',
    '1',
    '-r',
    '10',
    BADGE_Y4M,
  ]);
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
