import type { APIRequestContext } from '@playwright/test';
import { adminApi, apiAs, createBranch, createRoute, createUser, headOffice } from './support.ts';

export interface PadRow {
  id: number;
  number: number;
  series: Array<{ number: number; status: number }>;
  next_number: number | null;
}

/** One pad of a fresh route, requested by a ticketing officer of a new branch, issued and accepted: in their hands. */
export async function heldPad(request: APIRequestContext, from: number) {
  const admin = await adminApi(request);
  const office = await headOffice(admin);
  const route = await createRoute(admin);
  const branch = await createBranch(admin);
  const holder = await createUser(admin, { role_id: 7, branch_id: branch.id, first_name: 'Rosa', last_name: 'Counter' });
  const head = await createUser(admin, { role_id: 5, branch_id: branch.id, first_name: 'Berto', last_name: 'Head' });
  const courier = await createUser(admin, { role_id: 10, branch_id: office.id });
  await admin.post('add-pad', { route_id: route.id, series_from: from, series_to: from + 49 });
  const [pad] = (await admin.get<{ data: PadRow[] }>('available-pads', { route_id: route.id, per_page: 1 })).data;
  const asHolder = await apiAs(request, holder.email, holder.password);
  const asked = await asHolder.post<{ data: { id: number } }>('create-request-invoice', {
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
  await asHolder.post(`accept-invoice/${issued.data.id}`);
  return { holder, head, asHolder, pad };
}
