import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiAs, createBranch, createRoute, createUser, uniq, type Api } from './support.ts';

export const SHOTS = 'docs/screenshots';
export const PHONE = { width: 390, height: 844 };
export const BASE_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'];
export const CAMERA_Y4M = path.join(os.tmpdir(), `padtrack-invoice-badge-${process.env.E2E_PORT ?? 3100}.y4m`);

export type Person = Awaited<ReturnType<typeof createUser>>;

/** The head office (HEAD_OFFICE_BRANCH_ID): made on an empty database, found otherwise. */
export async function headOffice(admin: Api) {
  try {
    return (await admin.get<{ data: { id: number; name: string } }>('head-office-branch')).data;
  } catch {
    return createBranch(admin, 'Head Office');
  }
}

/** A requester (role 5) at an agency, a custodian (role 3) at the head office, a courier (role 10), and a route with pads. */
export async function transactionScene(admin: Api, padCount = 3) {
  const office = await headOffice(admin);
  const agency = await createBranch(admin, `Batangas Agency ${uniq()}`);
  const requester = await createUser(admin, { role_id: 5, branch_id: agency.id, first_name: 'Rosa', last_name: 'Reyes' });
  const custodian = await createUser(admin, { role_id: 3, branch_id: office.id, first_name: 'Carlo', last_name: 'Cruz' });
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id, first_name: 'Dan', last_name: 'Diaz' });
  const route = await createRoute(admin, `Batangas Calapan ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + padCount * 50 - 1 });
  return { office, agency, requester, custodian, courier, route };
}

/** The person's real badge (GET get-user-qrcode) as a PNG with a white margin, rendered by Chromium. */
export async function badgePng(request: APIRequestContext, browser: Browser, person: Person): Promise<string> {
  const api = await apiAs(request, person.email, person.password);
  const { qr_code } = await api.get<{ qr_code: string }>('get-user-qrcode');
  const page = await browser.newPage();
  await page.setContent(
    `<body style="margin:0;background:#fff"><img id="b" src="data:image/svg+xml;base64,${qr_code}" style="width:300px;height:300px;padding:30px;background:#fff"></body>`,
  );
  const file = path.join(os.tmpdir(), `padtrack-invoice-badge-${person.id}.png`);
  fs.writeFileSync(file, await page.locator('#b').screenshot());
  await page.close();
  return file;
}

/** DESIGN §7 fake-camera recipe: the badge inside the 250 px box on a white 640×480 frame. */
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
    CAMERA_Y4M,
  ]);
}

/** Chooses an image file for the scanner's "Scan Image File" button. */
export async function scanImageFile(page: Page, file: string) {
  const scanner = page.getByTestId('qr-scanner');
  await expect(scanner).toHaveAttribute('data-state', 'not-started');
  const chooser = page.waitForEvent('filechooser');
  await scanner.getByRole('button', { name: 'Scan Image File' }).click();
  await (await chooser).setFiles(file);
}

/** A Pending request made through the API, as the requester would. */
export async function requestThroughApi(request: APIRequestContext, requester: Person, officeId: number, routeId: number, pads: number) {
  const api = await apiAs(request, requester.email, requester.password);
  return (await api.post<{ data: { id: number } }>('create-request-invoice', { branch_id: officeId, route_id: routeId, pads })).data;
}
