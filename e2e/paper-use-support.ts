import type { APIRequestContext } from '@playwright/test';
import { dateInZone } from '../src/shared/format.ts';
import { apiAs, createBranch, createRoute, createUser, headOffice, uniq, uniqLetters, type Api } from './support.ts';

export interface CoveredPlace {
  branch: { id: number; name: string };
  route: { id: number; name: string };
  atp: string;
  seriesId: number;
  supervisor: { id: number; full_name: string; email: string; password: string };
  pad: { id: number; number: number; series_from: number };
  since: string;
}

/** APP_TIMEZONE's today, as the server keeps business dates. */
export async function today(request: APIRequestContext): Promise<string> {
  const { time_zone } = (await (await request.get('/api/health')).json()) as { time_zone: string };
  return dateInZone(new Date(), time_zone);
}

/**
 * A branch that issues e-invoices since a week ago, with a contingency series registered there and one of its pads in
 * the hands of the branch's Supervisor (requested, issued to a courier, accepted), all through the API.
 */
export async function coveredPlace(request: APIRequestContext, admin: Api, name: string): Promise<CoveredPlace> {
  const branch = await createBranch(admin, `${name} ${uniq()}`);
  const day = await today(request);
  const since = new Date(Date.parse(`${day}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
  await admin.put(`branches/${branch.id}/e-invoicing`, {
    bir_branch_code: String(10_000 + Math.floor(Math.random() * 89_999)),
    covered: true,
    e_invoicing_since: since,
    permit_reference: `PTU-EIS-${uniq()}`,
    invoicing_system: 'OceanJet e-Receipts 2.1',
  });
  const route = await createRoute(admin, `Calapan Batangas ${uniq()}`);
  const from = 100_000 + Math.floor(Math.random() * 800_000) * 100;
  const atp = `OCN-${uniq()}`;
  const series = await admin.post<{ data: { id: number } }>('registered-series', {
    route_id: route.id,
    branch_id: branch.id,
    form_type: 'invoice',
    atp_number: atp,
    atp_date: '2024-05-02',
    printer: 'Batangas Printing Press',
    series_from: from,
    series_to: from + 499,
  });
  await admin.put(`registered-series/${series.data.id}/role`, {
    role: 'contingency',
    reason: 'Kept at the counter for outages after go-live',
  });
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 49 });
  const available = await admin.get<{ data: Array<{ id: number; number: number }> }>('available-pads', { route_id: route.id });
  const pad = available.data[0];
  const supervisor = await createUser(admin, {
    role_id: 6,
    branch_id: branch.id,
    first_name: 'Sonia',
    last_name: `Counter ${uniqLetters()}`,
  });
  const courier = await createUser(admin, { role_id: 10, branch_id: branch.id, first_name: 'Nestor' });
  const asSupervisor = await apiAs(request, supervisor.email, supervisor.password);
  const office = await headOffice(admin);
  const asked = await asSupervisor.post<{ data: { id: number } }>('create-request-invoice', {
    branch_id: office.id,
    route_id: route.id,
    pads: 1,
  });
  const issued = await admin.post<{ data: { id: number } }>('issue-invoice', {
    invoice_id: asked.data.id,
    pads: [pad.id],
    assigned_user_id: courier.id,
    expected_return: 5,
  });
  await asSupervisor.post(`accept-invoice/${issued.data.id}`);
  return { branch, route, atp, seriesId: series.data.id, supervisor, pad: { ...pad, series_from: from }, since };
}
