import { seriesRange } from '../../../shared/format.ts';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import type { PadEvent, PadHistory, ReceiptFinding } from '../../../shared/schemas/ledger.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { invoiceTypeAndCourier } from '../invoices/read-model.ts';
import * as pads from '../pads/repo.ts';
import { routeInfos } from '../routes/repo.ts';
import { Names } from '../users/names.ts';
import * as repo from './repo.ts';

function eventDto(event: repo.PadEventRow, names: Names): PadEvent {
  return {
    id: event.id,
    kind: event.kind as PadEvent['kind'],
    from_number: event.from_number,
    to_number: event.to_number,
    qty: event.qty,
    holder_user: names.person(event.holder_user_id),
    holder_branch: names.branch(event.holder_branch_id),
    counterparty_user: names.person(event.counterparty_user_id),
    counterparty_branch: names.branch(event.counterparty_branch_id),
    invoice_id: event.invoice_id,
    actor: names.person(event.actor_user_id),
    reason: event.reason,
    recorded_at: event.recorded_at.toISOString(),
    business_date: event.business_date,
  };
}

async function eventsWithNames(ctx: AppContext, events: repo.PadEventRow[], extraUsers: Array<number | null> = [], extraBranches: Array<number | null> = []) {
  const names = await Names.load(
    ctx.db,
    [...events.flatMap((e) => [e.holder_user_id, e.counterparty_user_id, e.actor_user_id]), ...extraUsers],
    [...events.flatMap((e) => [e.holder_branch_id, e.counterparty_branch_id]), ...extraBranches],
  );
  return { names, events: events.map((event) => eventDto(event, names)) };
}

async function inTransitOf(ctx: AppContext, pad: pads.PadView, names: Names) {
  if (pad.locked_by_invoice_id === null) return null;
  const invoice = await invoiceTypeAndCourier(ctx.db, pad.locked_by_invoice_id);
  if (!invoice) return null;
  const courierNames = invoice.assigned_user_id === null ? names : await Names.load(ctx.db, [invoice.assigned_user_id], []);
  return { id: invoice.id, invoice_type: { id: invoice.type_id, name: invoice.type_name }, assigned_user: courierNames.person(invoice.assigned_user_id) };
}

/** Pad Details' "Held by" and History: the pad's whole chain of events, oldest first, with names. */
export async function padHistory(ctx: AppContext, padId: number): Promise<PadHistory> {
  const pad = await pads.padView(ctx.db, padId);
  if (!pad) throw notFound('Pad not found.');
  const [route] = await routeInfos(ctx.db, [pad.route_id]);
  const { names, events } = await eventsWithNames(ctx, await repo.padEventsOf(ctx.db, padId), [pad.holder_user_id], [pad.holder_branch_id]);
  return {
    pad: { id: pad.id, number: pad.number, series_number: seriesRange(pad.series_from, pad.series_to), route },
    holder: { user: names.person(pad.holder_user_id), branch: names.branch(pad.holder_branch_id) },
    in_transit_invoice: await inTransitOf(ctx, pad, names),
    events,
  };
}

function receiptStatus(pad: pads.PadView, receipt: number): ReceiptFinding['status'] {
  if (pad.series_status.charCodeAt(receipt - pad.series_from) === 50) return 'used';
  if (pad.pad_status_id === PAD_STATUS.CANCELLED) return 'cancelled';
  if (pad.pad_status_id === PAD_STATUS.LOST) return 'lost';
  return 'not_used';
}

/** "Where is receipt N": one answer per route whose pads contain N, with that number's own events. */
export async function findReceipt(ctx: AppContext, query: { number: number; route_id?: number }): Promise<ReceiptFinding[]> {
  const found = await pads.padsContaining(ctx.db, query.number, query.route_id);
  const routes = new Map((await routeInfos(ctx.db, [...new Set(found.map((pad) => pad.route_id))])).map((route) => [route.id, route]));
  const answers: ReceiptFinding[] = [];
  for (const pad of found) {
    const route = routes.get(pad.route_id);
    if (!route) continue;
    const { names, events } = await eventsWithNames(ctx, await repo.padEventsOf(ctx.db, pad.id, query.number), [pad.holder_user_id], [pad.holder_branch_id]);
    answers.push({
      route,
      pad: { id: pad.id, number: pad.number, series_number: seriesRange(pad.series_from, pad.series_to) },
      status: receiptStatus(pad, query.number),
      holder: { user: names.person(pad.holder_user_id), branch: names.branch(pad.holder_branch_id) },
      in_transit_invoice: await inTransitOf(ctx, pad, names),
      events,
    });
  }
  return answers;
}
