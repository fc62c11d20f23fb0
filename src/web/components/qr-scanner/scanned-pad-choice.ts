import { PAD_STATUS } from '../../../shared/lookups.ts';
import { LABEL_MSG } from '../../../shared/schemas/counts.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';

/** What a scanned pad's label resolved to, as far as choosing it goes. */
export type ScannedPad = Pick<Pad, 'id' | 'number' | 'pad_status_id' | 'locked_by_invoice_id' | 'route_id'> & { route: { name: string } };

/** A pad a picker offers: its id and, where known, its route. */
export interface OfferedPad {
  id: number;
  route_id?: number;
}

/**
 * docs/design.md §9 scan to select, for a picker that offers a fixed set of the user's pads: why a scanned pad cannot be
 * chosen there — lost, in transit on another invoice, on another route, or simply not one of the user's — or null when it
 * is one of the offered pads.
 */
export function whyNotOffered(pad: ScannedPad, offered: readonly OfferedPad[], lockedHere: number | null = null): string | null {
  if (pad.pad_status_id === PAD_STATUS.LOST) return LABEL_MSG.lost(pad.number);
  if (offered.some((o) => o.id === pad.id)) return null;
  if (pad.locked_by_invoice_id !== null && pad.locked_by_invoice_id !== lockedHere) return LABEL_MSG.inTransit(pad.number);
  const routes = new Set(offered.map((o) => o.route_id).filter((id) => id !== undefined));
  if (routes.size > 0 && !routes.has(pad.route_id)) return LABEL_MSG.wrongRoute(pad.number, pad.route.name);
  return LABEL_MSG.notYours(pad.number);
}
