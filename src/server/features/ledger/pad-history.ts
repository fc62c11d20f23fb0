import { seriesRange } from '../../../shared/format.ts';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { seriesSummary } from '../../../shared/pad-status.ts';
import type { PadEvent, PadHistory, ReceiptFinding } from '../../../shared/schemas/ledger.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { invoiceTypeAndCourier } from '../invoices/read-model.ts';
import * as pads from '../pads/read-model.ts';
import { routeInfos } from '../routes/read-model.ts';
import { Names } from '../users/read-model.ts';
import { incidentRefs, padEventsOf, voidedContaining } from './read-model.ts';
import * as repo from './repo.ts';

type IncidentRef = NonNullable<PadEvent['incident']>;

function eventDto(event: repo.PadEventRow, names: Names, incidents: Map<number, IncidentRef> = new Map()): PadEvent {
  return {
    id: event.id,
    // -- pad_events_kind_ck holds the text column to PadEvent['kind'].
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
    approver: names.person(event.approver_user_id),
    incident: event.incident_id === null ? null : (incidents.get(event.incident_id) ?? null),
    copies_retained: event.copies_retained,
    recorded_at: event.recorded_at.toISOString(),
    business_date: event.business_date,
  };
}

async function eventsWithNames(
  ctx: AppContext,
  events: repo.PadEventRow[],
  extraUsers: Array<number | null> = [],
  extraBranches: Array<number | null> = [],
) {
  const names = await Names.load(
    ctx.db,
    [...events.flatMap((e) => [e.holder_user_id, e.counterparty_user_id, e.actor_user_id, e.approver_user_id]), ...extraUsers],
    [...events.flatMap((e) => [e.holder_branch_id, e.counterparty_branch_id]), ...extraBranches],
  );
  const incidentIds = events.map((e) => e.incident_id).filter((id): id is number => id !== null);
  const incidents = new Map((await incidentRefs(ctx.db, incidentIds)).map((ref) => [ref.id, ref]));
  return { names, events: events.map((event) => eventDto(event, names, incidents)) };
}

async function inTransitOf(ctx: AppContext, pad: pads.PadView, names: Names) {
  if (pad.locked_by_invoice_id === null) return null;
  const invoice = await invoiceTypeAndCourier(ctx.db, pad.locked_by_invoice_id);
  if (!invoice) return null;
  const courierNames = invoice.assigned_user_id === null ? names : await Names.load(ctx.db, [invoice.assigned_user_id], []);
  return {
    id: invoice.id,
    invoice_type: { id: invoice.type_id, name: invoice.type_name },
    assigned_user: courierNames.person(invoice.assigned_user_id),
  };
}

/** Pad Details' "Held by" and History: the pad's whole chain of events, oldest first, with names. */
export async function padHistory(ctx: AppContext, padId: number): Promise<PadHistory> {
  const pad = await pads.padView(ctx.db, padId);
  if (!pad) throw notFound('Pad not found.');
  const [route] = await routeInfos(ctx.db, [pad.route_id]);
  const { names, events } = await eventsWithNames(ctx, await padEventsOf(ctx.db, padId), [pad.holder_user_id], [pad.holder_branch_id]);
  return {
    pad: { id: pad.id, number: pad.number, series_number: seriesRange(pad.series_from, pad.series_to), route },
    ...seriesSummary(pad.series_from, pad.series_status),
    voided: null,
    holder: { user: names.person(pad.holder_user_id), branch: names.branch(pad.holder_branch_id) },
    in_transit_invoice: await inTransitOf(ctx, pad, names),
    events,
  };
}

const STATUS_OF_CHAR: Record<string, ReceiptFinding['status']> = { '2': 'used', '3': 'cancelled', '4': 'lost' };

function receiptStatus(pad: pads.PadView, receipt: number): ReceiptFinding['status'] {
  const own = STATUS_OF_CHAR[pad.series_status[receipt - pad.series_from]];
  if (own) return own;
  if (pad.pad_status_id === PAD_STATUS.CANCELLED) return 'cancelled';
  if (pad.pad_status_id === PAD_STATUS.LOST) return 'lost';
  return 'not_used';
}

const OUTCOME_KINDS: Record<ReceiptFinding['status'], readonly string[]> = {
  not_used: [],
  used: ['used'],
  cancelled: ['cancelled', 'voided'],
  lost: ['lost'],
};

/** The event that gave the number its state: its reason, actor, time and incident (docs/design.md §9). */
function outcomeOf(status: ReceiptFinding['status'], events: PadEvent[]): NonNullable<ReceiptFinding['outcome']> {
  const event = [...events].reverse().find((e) => OUTCOME_KINDS[status].includes(e.kind));
  return {
    state: status,
    reason: event?.reason ?? null,
    actor: event?.actor ?? null,
    recorded_at: event?.recorded_at ?? null,
    copies_retained: event?.copies_retained ?? null,
    incident: event?.incident ?? null,
  };
}

/** "Where is receipt N": one answer per route whose pads contain N, with that number's own events; a deleted pad answers "voided". */
export async function findReceipt(ctx: AppContext, query: { number: number; route_id?: number }): Promise<ReceiptFinding[]> {
  const [found, voided] = await Promise.all([
    pads.padsContaining(ctx.db, query.number, query.route_id),
    voidedContaining(ctx.db, query.number, query.route_id),
  ]);
  const routes = new Map(
    (await routeInfos(ctx.db, [...new Set([...found, ...voided].map((pad) => pad.route_id))])).map((route) => [route.id, route]),
  );
  const answers: ReceiptFinding[] = [];
  for (const pad of found) {
    const route = routes.get(pad.route_id);
    if (!route) continue;
    const { names, events } = await eventsWithNames(
      ctx,
      await padEventsOf(ctx.db, pad.id, query.number),
      [pad.holder_user_id],
      [pad.holder_branch_id],
    );
    const status = receiptStatus(pad, query.number);
    answers.push({
      route,
      pad: { id: pad.id, number: pad.number, series_number: seriesRange(pad.series_from, pad.series_to) },
      status,
      outcome: outcomeOf(status, events),
      next_number: seriesSummary(pad.series_from, pad.series_status).next_number,
      voided: null,
      holder: { user: names.person(pad.holder_user_id), branch: names.branch(pad.holder_branch_id) },
      in_transit_invoice: await inTransitOf(ctx, pad, names),
      registered_series: await pads.registeredSeriesRefOf(ctx.db, pad.registered_series_id),
      events,
    });
  }
  for (const gone of voided) {
    const route = routes.get(gone.route_id);
    if (!route) continue;
    const { names, events } = await eventsWithNames(ctx, await padEventsOf(ctx.db, gone.pad_id, query.number));
    answers.push({
      route,
      pad: { id: gone.pad_id, number: voidedPadNumber(gone.reason), series_number: seriesRange(gone.from_number, gone.to_number) },
      status: 'cancelled',
      outcome: outcomeOf('cancelled', events),
      next_number: null,
      voided: { at: gone.recorded_at.toISOString(), by: names.person(gone.actor_user_id) },
      holder: { user: null, branch: null },
      in_transit_invoice: null,
      registered_series: null,
      events,
    });
  }
  return answers;
}

/** The writer names the pad in its voided event ("Pad 12 deleted"): the row that held the number is gone. */
const voidedPadNumber = (reason: string | null) => Number(/^Pad (\d+) deleted/.exec(reason ?? '')?.[1] ?? 0);
