import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs, createBranch, createRoute, createUser, headOffice, type Api, uniq, uniqLetters } from './support.ts';
import { type Person } from './badges.ts';

/** A requester (role 5) at an agency, a custodian (role 3) at the head office, a courier (role 10), and a route with pads. */
export async function transactionScene(admin: Api, padCount = 3) {
  const office = await headOffice(admin);
  const agency = await createBranch(admin, `Batangas Agency ${uniq()}`);
  const requester = await createUser(admin, { role_id: 5, branch_id: agency.id, first_name: 'Rosa', last_name: 'Reyes' });
  const custodian = await createUser(admin, { role_id: 3, branch_id: office.id, first_name: 'Carlo', last_name: 'Cruz' });
  /** A name of its own, so "Assign to" offers this courier once however many scenes the suite has made. */
  const courier = await createUser(admin, {
    role_id: 10,
    branch_id: office.id,
    first_name: 'Dan',
    last_name: `Diaz ${uniqLetters()}`,
  });
  const route = await createRoute(admin, `Batangas Calapan ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + padCount * 50 - 1 });
  return { office, agency, requester, custodian, courier, route };
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
