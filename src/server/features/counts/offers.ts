import { fullName } from '../../../shared/format.ts';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import { COUNT_MSG, RESOLUTION_ASKS, VARIANCE_ACTIONS, type ResolutionAction, type VarianceKind } from '../../../shared/schemas/counts.ts';
import type { Conn } from '../../db/client.ts';
import { confirmedLossOfPad } from '../incidents/read-model.ts';
import { invoiceTypeAndCourier } from '../invoices/read-model.ts';
import * as pads from '../pads/read-model.ts';
import * as users from '../users/read-model.ts';

/** What the books say of a scanned pad beyond its holder: a confirmed loss of its numbers, a whole-pad write-off, a trip. */
export interface BookFacts {
  book_incident_id: number | null;
  book_note: string | null;
}

/** The courier carrying a pad on an in-transit invoice, and the invoice's name ("Turnover #12"). */
async function tripOf(conn: Conn, invoiceId: number | null) {
  const invoice = invoiceId === null ? undefined : await invoiceTypeAndCourier(conn, invoiceId);
  if (!invoice) return null;
  const [carrier] = invoice.assigned_user_id === null ? [] : await users.people(conn, [invoice.assigned_user_id]);
  return { name: `${invoice.type_name} #${invoice.id}`, carrier_id: invoice.assigned_user_id, carrier: carrier ? fullName(carrier) : null };
}

/**
 * Issue 36: a scanned booklet that is lost, cancelled or in transit is no ordinary find; the count keeps what the books
 * said of it at the scan ("Declared lost on LOSS-2026-0001") and its loss incident, whose found settles the variance.
 */
export async function bookFacts(conn: Conn, pad: pads.PadView): Promise<BookFacts> {
  const notes: string[] = [];
  let incidentId: number | null = null;
  if (pad.pad_status_id === PAD_STATUS.CANCELLED) notes.push(COUNT_MSG.wholePad('Cancelled'));
  if (pad.pad_status_id === PAD_STATUS.LOST) notes.push(COUNT_MSG.wholePad('Lost'));
  if (pad.series_status.includes('4')) {
    const loss = await confirmedLossOfPad(conn, pad.id);
    if (loss) {
      notes.push(COUNT_MSG.declaredLost(loss.number));
      if (pad.pad_status_id !== PAD_STATUS.LOST) incidentId = loss.id;
    }
  }
  const trip = await tripOf(conn, pad.locked_by_invoice_id);
  if (trip) notes.push(COUNT_MSG.inTransit(trip.name, trip.carrier));
  return { book_incident_id: incidentId, book_note: notes.length > 0 ? notes.join('; ') : null };
}

/** Who may take a resolution the counter may not: asked by name (and in their Needs my action), or by role. */
export interface Ask {
  action: ResolutionAction;
  text: string;
  user_id: number | null;
}

export interface Offer {
  actions: ResolutionAction[];
  asks: Ask[];
}

/** Whether someone may take one resolution on the pad as it is now, by the permission rules of src/shared. */
function mayTake(actor: Actor, action: ResolutionAction, pad: pads.PadView, carrierId: number | null): boolean {
  const rules = {
    holder_user_id: pad.holder_user_id,
    holder_branch_id: pad.holder_branch_id,
    locked_by_invoice_id: pad.locked_by_invoice_id,
  };
  if (action === 'usage') return can(actor, 'number.use', rules);
  if (action === 'incident') return can(actor, 'incident.report', { ...rules, carrier_user_id: carrierId });
  if (action === 'found') return can(actor, 'incident.found');
  return true;
}

const ROLES_WHO: Record<ResolutionAction, string> = {
  usage: 'a Custodian or Accounting',
  incident: 'a Custodian or Accounting',
  accept: 'the counter',
  found: 'a Custodian or Accounting',
};

/** The one person to ask: the holder, else the courier carrying the pad, when the rules let them take the action. */
async function askFor(conn: Conn, action: ResolutionAction, pad: pads.PadView, carrierId: number | null): Promise<Ask> {
  const candidates: Array<{ id: number | null; role: string }> = [
    { id: pad.holder_user_id, role: 'the holder' },
    { id: carrierId, role: 'the courier' },
  ];
  for (const candidate of candidates) {
    const person = candidate.id === null ? undefined : await users.activeActor(conn, candidate.id);
    if (!person || !mayTake(person, action, pad, carrierId) || action === 'found') continue;
    const [row] = await users.people(conn, [person.id]);
    return { action, text: COUNT_MSG.askHolder(fullName(row), candidate.role, RESOLUTION_ASKS[action]), user_id: person.id };
  }
  return { action, text: COUNT_MSG.askRoles(ROLES_WHO[action], RESOLUTION_ASKS[action]), user_id: null };
}

/**
 * Issue 36: of the resolutions of a variance kind, those the counter may take (read from the `can()` rules), and for the
 * rest who must act. The pad is read as it is now: its holder and trip decide who may report a loss or record usage.
 */
export async function offerFor(conn: Conn, counter: Actor, padId: number, kind: VarianceKind): Promise<Offer> {
  const pad = await pads.padView(conn, padId);
  if (!pad) return { actions: ['accept'], asks: [] };
  const trip = await tripOf(conn, pad.locked_by_invoice_id);
  const carrierId = trip?.carrier_id ?? null;
  const offer: Offer = { actions: [], asks: [] };
  for (const action of VARIANCE_ACTIONS[kind]) {
    if (mayTake(counter, action, pad, carrierId)) offer.actions.push(action);
    else offer.asks.push(await askFor(conn, action, pad, carrierId));
  }
  return offer;
}
