import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS, ROLE, USER_STATUS } from './lookups.ts';
import type { Pad } from './schemas/pads.ts';

/** docs/design.md §9 labels: a pad label's code, "PT1P" + pad id + "-" + a 12-character keyed check; only the server can make one. */
export const PAD_LABEL_PATTERN = /^PT1P(\d{1,10})-([A-Z0-9]{12})$/;
export const isPadLabel = (text: string) => PAD_LABEL_PATTERN.test(text.trim().toUpperCase());

/** What a badge or label scan is told once the scanner has sent too many wrong codes. */
export const CODE_MSG = {
  tooManyWrong: (minutes: number) =>
    `Too many wrong badge or label codes. Scanning is locked for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}; ask an administrator if a badge or label does not work.`,
} as const;

/** What a pad picker says when a scanned label cannot select its pad. */
export const LABEL_MSG = {
  unknown: 'This label is not a PadTrack pad label, or it was altered.',
  selected: (padNumber: number) => `Selected pad ${padNumber}`,
  alreadySelected: (padNumber: number) => `Pad ${padNumber} is already selected`,
  wrongRoute: (padNumber: number, route: string) => `Pad ${padNumber} is on route ${route}, not this one`,
  notYours: (padNumber: number) => `Pad ${padNumber} is not yours to choose here`,
  inTransit: (padNumber: number) => `Pad ${padNumber} is in transit on an invoice`,
  lost: (padNumber: number) => `Pad ${padNumber} is lost`,
  notAvailable: (padNumber: number) => `Pad ${padNumber} is not available for issuing`,
  full: 'All the pads asked for are already selected',
} as const;

/** The transfer invoices: those that carry pads from one holder to another (docs/design.md §5). */
export const TRANSFER_TYPES: readonly number[] = [INVOICE_TYPE.ISSUED, INVOICE_TYPE.RETURN, INVOICE_TYPE.TURNOVER];

/** "In transit": a transfer invoice written and not yet accepted; its pads are locked and its courier carries them. */
export const IN_TRANSIT = { invoice_status_id: INVOICE_STATUS.IN_TRANSIT, invoice_type_ids: TRANSFER_TYPES } as const;

/**
 * docs/spec.md §4 "Pads available for issuing": not issued, unused or partly used, and on no in-transit invoice;
 * and (docs/design.md §9) with no lost number, since a lost number is never issued.
 * The issue form's list, issuing itself and the dashboard's stock all apply this one condition.
 */
export const AVAILABLE_FOR_ISSUING = {
  issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
  // -- widens the ids to number, as the pad columns they are compared with are.
  pad_status_ids: [PAD_STATUS.UNUSED, PAD_STATUS.PARTIALLY_USED] as readonly number[],
  locked: false,
  lostNumbers: false,
} as const;

/** A pad as the issue form weighs a scanned label. */
export type IssuingPad = Pick<
  Pad,
  'number' | 'route_id' | 'pad_status_id' | 'issuance_status_id' | 'locked_by_invoice_id' | 'number_counts'
> & {
  route: { name: string };
};

/**
 * AVAILABLE_FOR_ISSUING for one pad on the issue form of a request for `routeId` (docs/design.md §9 scan to select): why
 * it cannot be issued there — another route, in transit, lost, or otherwise not available — or null when it can.
 */
export function whyNotIssuable(pad: IssuingPad, routeId: number): string | null {
  if (pad.route_id !== routeId) return LABEL_MSG.wrongRoute(pad.number, pad.route.name);
  if (!AVAILABLE_FOR_ISSUING.locked && pad.locked_by_invoice_id !== null) return LABEL_MSG.inTransit(pad.number);
  if (pad.pad_status_id === PAD_STATUS.LOST) return LABEL_MSG.lost(pad.number);
  const available =
    pad.issuance_status_id === AVAILABLE_FOR_ISSUING.issuance_status_id &&
    AVAILABLE_FOR_ISSUING.pad_status_ids.includes(pad.pad_status_id) &&
    (AVAILABLE_FOR_ISSUING.lostNumbers || pad.number_counts.lost === 0);
  return available ? null : LABEL_MSG.notAvailable(pad.number);
}

/** A pad as the Return and Turnover pickers weigh a scanned label. */
export interface MovablePad {
  number: number;
  holder_user_id: number | null;
  locked_by_invoice_id: number | null;
  pad_status_id: number;
}

/**
 * Why a scanned pad cannot go on the caller's Return or Turnover, or null when it can: the pads get-user-pads offers
 * (held by the caller, on no in-transit invoice), and never a lost pad, which cannot be in hand.
 */
export function movablePadRefusal(pad: MovablePad, userId: number | undefined): string | null {
  if (pad.locked_by_invoice_id !== null) return LABEL_MSG.inTransit(pad.number);
  if (pad.pad_status_id === PAD_STATUS.LOST) return LABEL_MSG.lost(pad.number);
  if (pad.holder_user_id === null || pad.holder_user_id !== userId) return LABEL_MSG.notYours(pad.number);
  return null;
}

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

/**
 * docs/spec.md §4 "who may accept": per transfer type, the requester named on it, or the roles that accept it
 * (at the destination branch for a Turnover). `can('invoice.accept')`, Needs my action's SQL and the buttons read it.
 */
export const ACCEPT_RULES: Record<number, { by: 'requester' } | { by: 'roles'; roles: readonly number[]; atDestinationBranch: boolean }> = {
  [INVOICE_TYPE.ISSUED]: { by: 'requester' },
  [INVOICE_TYPE.RETURN]: { by: 'roles', roles: [ROLE.ACCOUNTING], atDestinationBranch: false },
  [INVOICE_TYPE.TURNOVER]: {
    by: 'roles',
    roles: [ROLE.BRANCH_CUSTODIAN, ROLE.BRANCH_HEAD, ROLE.SUPERVISOR, ROLE.TICKETING_OFFICER],
    atDestinationBranch: true,
  },
};

/** The changes to a user that custody guards (docs/design.md §10). */
export type GuardedUserChange = 'deactivate' | 'delete' | 'role' | 'branch';

/** The parts of a user the custody guards compare. */
export interface GuardedUserFields {
  role_id: number | null;
  branch_id: number | null;
  user_status_id: number;
}

/**
 * docs/design.md §10 custody guards: a user who holds pads or carries an in-transit invoice keeps their status,
 * role and branch, and stays, until the pads are returned or turned over and the invoice handed over; otherwise
 * pads would sit with someone who no longer answers for them. `after` null means the user is deleted.
 */
export function guardedUserChanges(before: GuardedUserFields, after: GuardedUserFields | null): GuardedUserChange[] {
  if (after === null) return ['delete'];
  const changes: GuardedUserChange[] = [];
  if (before.user_status_id === USER_STATUS.ACTIVE && after.user_status_id !== USER_STATUS.ACTIVE) changes.push('deactivate');
  if (before.role_id !== after.role_id) changes.push('role');
  if (before.branch_id !== after.branch_id) changes.push('branch');
  return changes;
}
