import type { FastifyInstance } from 'fastify';
import { PAD_STATUS, ROLE } from '../../shared/lookups.ts';
import type { Pad } from '../../shared/schemas/pads.ts';
import { businessDate } from '../features/ledger/lifecycle.ts';
import { DEMO_ACCOUNTS } from './accounts.ts';
import { type Created, DemoApi } from './api.ts';
import type { DemoWorld } from './scenes.ts';

/**
 * Issue 38: the Batangas Terminal issues e-invoices since the first of this month. Accounting registers the branch head's
 * Batangas - Calapan booklet as a contingency series; this morning the power fails, the branch head declares the outage,
 * issues three paper receipts inside it and closes it; one more receipt written after it is an exception Accounting has
 * yet to decide. Runs last: from go-live on, usage at the terminal is ruled by the series' role.
 */
export async function paperBesideEInvoicing(app: FastifyInstance, w: DemoWorld): Promise<void> {
  const zone = w.ctx.config.timeZone;
  const today = businessDate(new Date(), zone);
  const branchId = w.branches['Batangas Terminal'];
  await w.accounting.call('PUT', `branches/${branchId}/e-invoicing`, {
    bir_branch_code: '00002',
    covered: true,
    e_invoicing_since: `${today.slice(0, 8)}01`,
    permit_reference: 'PTU-EIS-2026-00417',
    invoicing_system: 'OceanJet e-Receipts 2.1',
  });

  const branchHead = await DemoApi.as(app, DEMO_ACCOUNTS[ROLE.BRANCH_HEAD - 1].email);
  const held = await branchHead.call<{ data: Pad[] }>('GET', 'get-user-pads', undefined, { per_page: '100' });
  const pad = held.data.find(
    (p) =>
      p.route_id === w.routes.batangasCalapan &&
      p.holder_user_id === w.ids[ROLE.BRANCH_HEAD] &&
      p.locked_by_invoice_id === null &&
      p.pad_status_id === PAD_STATUS.UNUSED &&
      p.number_counts.not_used === p.series_to - p.series_from + 1,
  );
  if (!pad?.next_number) throw new Error('demo: the Batangas branch head holds no usable Batangas - Calapan pad');

  const series = await w.accounting.call<Created>('POST', 'registered-series', {
    route_id: w.routes.batangasCalapan,
    branch_id: branchId,
    form_type: 'invoice',
    atp_number: '0412AU20260000207',
    atp_date: `${today.slice(0, 4)}-02-11`,
    printer: 'Pier Printers Inc.',
    series_from: pad.series_from,
    series_to: pad.series_to,
  });
  await w.accounting.call('PUT', `registered-series/${series.data.id}/role`, {
    role: 'contingency',
    reason: 'Kept at the Batangas counter for outages after go-live',
  });

  const outage = await branchHead.call<Created>('POST', 'outages', {
    branch_id: branchId,
    starts_at: new Date(Date.now() - 90 * 60_000).toISOString(),
    cause: 'power',
    details: 'Brownout at the terminal; the generator does not feed the ticketing counter.',
    notice_reference: 'MERALCO advisory 26-1129',
  });
  const first = pad.next_number;
  await branchHead.call('POST', `pads/${pad.id}/usage`, { from: first, to: first + 2, reason: 'Issued by hand during the brownout' });
  await branchHead.call('POST', `outages/${outage.data.id}/close`, { ends_at: new Date().toISOString() });
  await branchHead.call('POST', `pads/${pad.id}/usage`, { from: first + 3, to: first + 3, reason: 'Written after power came back' });
}
