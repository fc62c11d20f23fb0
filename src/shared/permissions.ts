import { ACCEPT_RULES, IN_TRANSIT } from './custody-rules.ts';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE, USER_STATUS } from './lookups.ts';

/** The part of a user that access rules look at. */
export interface Actor {
  id: number;
  role_id: number | null;
  branch_id: number | null;
}

const ALL_STAFF = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const PAD_AND_INVOICE_ROLES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** docs/design.md §9: who counts pads: Administrator, Custodian, Accounting, Auditor, and a Branch Head for their branch. */
export const COUNT_ROLES: readonly number[] = [1, 3, 5, 8, 9];
/** For a branch's own stock, the accountable people (as for its RAAF): its Branch Custodian and Branch Head. */
const BRANCH_ACCOUNTABLE_ROLES: readonly number[] = [4, 5];
/** docs/design.md §8 verifier: who sees the ledger check's last result and is told when one fails (Admin, Accounting, Auditor). */
export const LEDGER_CHECK_ROLES: readonly number[] = [1, 8, 9];

/** docs/spec.md §2 route table, keyed by the first path segment. `null` means any signed-in user. */
export const SCREEN_ROLES: Record<string, readonly number[] | null> = {
  users: [1, 2],
  roles: [1, 2],
  companies: [1, 2],
  routes: [1, 2],
  locations: [1, 2],
  branches: [1, 2],
  pads: PAD_AND_INVOICE_ROLES,
  invoices: PAD_AND_INVOICE_ROLES,
  reports: [1, 2, 8, 9],
  /** docs/design.md §9 physical counts: the counters (roles 1, 3, 8, 9 and a Branch Head for their branch). */
  counts: COUNT_ROLES,
  /** The Dashboard (docs/user-guide.md "Screens") of the head office and the auditors; their home stays /invoices. */
  dashboard: [1, 2, 8, 9],
  accountability: PAD_AND_INVOICE_ROLES,
  /** docs/design.md §9: the loss incidents and their Notices of Loss, for roles 1–9. */
  incidents: PAD_AND_INVOICE_ROLES,
  /** Issue 38: outages, paper-use exceptions and the summary list, for roles 1–9 (branch staff see their own branch's). */
  outages: PAD_AND_INVOICE_ROLES,
  /** docs/design.md §10: go-live imports, the form registry and the inventory of unused forms. */
  imports: [1, 2, 3],
  'registered-series': [1, 2, 8],
  'unused-forms': [1, 2, 8, 9],
  /** The operator's identity every document prints: the Admin alone. */
  settings: [1],
  /** Issue 37: when each alert opens and escalates, and the reorder points of low stock: Admin and Accounting. */
  'alert-settings': [1, 8],
  /** Issue 37: the background jobs, their last run and Run now: the Admin. */
  jobs: [1],
  /** Issue 37: the signed-in user's own alerts, for everyone. */
  notifications: null,
  custodies: null,
  'user-profile': null,
};

export type Screen = keyof typeof SCREEN_ROLES;

const hasRole = (actor: Actor | null | undefined, roles: readonly number[]) => actor?.role_id != null && roles.includes(actor.role_id);

export function canOpenScreen(actor: Actor | null | undefined, screen: string): boolean {
  if (!actor) return false;
  if (!(screen in SCREEN_ROLES)) return false;
  const roles = SCREEN_ROLES[screen];
  return roles === null || hasRole(actor, roles);
}

/** docs/spec.md §2 "Home screen by role". */
export function homePath(roleId: number | null | undefined): string {
  if (roleId === 4 || roleId === 10 || roleId === 11) return '/custodies';
  if (roleId === 3) return '/pads';
  if (roleId != null && [1, 2, 5, 6, 7, 8, 9].includes(roleId)) return '/invoices';
  return '/user-profile';
}

/** docs/spec.md §2: where the reset-password flow sends the user afterwards. */
export function afterPasswordResetPath(roleId: number | null | undefined): string {
  if (roleId === 1) return '/users';
  if (roleId === 2) return '/user-profile';
  return '/login';
}

export interface MenuItem {
  label: string;
  path: string;
}

/** docs/spec.md §2 "Menu" with the Roles entry of docs/design.md §5. Profile and Logout are added by the shell. */
export function menuFor(actor: Actor | null | undefined): MenuItem[] {
  const items: Array<MenuItem & { screen: string; roles?: readonly number[]; action?: Action }> = [
    { label: 'Custodies', path: '/custodies', screen: 'custodies', roles: ALL_STAFF },
    { label: 'Transactions', path: '/invoices', screen: 'invoices', roles: PAD_AND_INVOICE_ROLES },
    { label: 'Dashboard', path: '/dashboard', screen: 'dashboard', roles: [1, 2, 8, 9] },
    { label: 'Inventories', path: '/pads', screen: 'pads', roles: PAD_AND_INVOICE_ROLES },
    { label: 'Counts', path: '/counts', screen: 'counts', action: 'count.use' },
    { label: 'Reports', path: '/reports', screen: 'reports', roles: [1, 2, 8, 9] },
    { label: 'Accountability', path: '/accountability', screen: 'accountability', roles: PAD_AND_INVOICE_ROLES },
    { label: 'Incidents', path: '/incidents', screen: 'incidents', action: 'incident.read' },
    { label: 'Outages', path: '/outages', screen: 'outages', action: 'outage.read' },
    { label: 'Companies', path: '/companies', screen: 'companies', roles: [1, 2] },
    { label: 'Routes', path: '/routes', screen: 'routes', roles: [1, 2] },
    { label: 'Branches/Agencies', path: '/branches', screen: 'branches', roles: [1, 2] },
    { label: 'Locations', path: '/locations', screen: 'locations', roles: [1, 2] },
    { label: 'Users', path: '/users', screen: 'users', roles: [1, 2] },
    { label: 'Roles', path: '/roles', screen: 'roles', roles: [1, 2] },
    { label: 'Import', path: '/imports', screen: 'imports', roles: [1, 2, 3] },
    { label: 'Registered series', path: '/registered-series', screen: 'registered-series', roles: [1, 2, 8] },
    { label: 'Unused forms', path: '/unused-forms', screen: 'unused-forms', roles: [1, 2, 8, 9] },
    { label: 'Settings', path: '/settings', screen: 'settings', action: 'settings.manage' },
    { label: 'Alert settings', path: '/alert-settings', screen: 'alert-settings', action: 'alertSettings.manage' },
    { label: 'Jobs', path: '/jobs', screen: 'jobs', action: 'jobs.manage' },
    { label: 'Notifications', path: '/notifications', screen: 'notifications' },
  ];
  return items
    .filter((item) => {
      if (item.screen === 'custodies' || item.screen === 'notifications') return Boolean(actor);
      return item.action ? can(actor, item.action) : hasRole(actor, item.roles ?? []);
    })
    .map(({ label, path }) => ({ label, path }));
}

export interface InvoiceForRules {
  user_id: number;
  created_by: number;
  from_branch_id: number | null;
  branch_id: number | null;
  assigned_user_id: number | null;
  accepted_by: number | null;
  invoice_type_id: number;
  invoice_status_id: number;
}

export interface PadFieldChanges {
  number?: boolean;
  issuance_status_id?: boolean;
  pad_status_id?: boolean;
  remarks?: boolean;
  series?: boolean;
}

/** The thing each object rule looks at; actions not listed here are decided by the role alone. */
interface Subjects {
  'pad.editThis': PadForRules;
  'invoice.issue': InvoiceForRules;
  'invoice.accept': InvoiceForRules;
  'invoice.see': InvoiceForRules;
  'invoice.delete': InvoiceForRules;
  'custody.handOver': InvoiceForRules;
  'user.resetPassword': { id: number };
  'raaf.read': RaafHolderForRules;
  'raaf.certify': RaafHolderForRules;
  'raaf.rollup': { branch_id: number };
  'number.use': PadForRules;
  'number.requestOutcome': PadForRules;
  'number.approveOutcome': OutcomeForRules;
  'number.revertOutcome': OutcomeForRules;
  'incident.report': IncidentPadForRules;
  'incident.decide': IncidentForRules;
  'incident.found': FoundForRules;
  'incident.confirmFound': FoundForRules;
  'count.start': CountHolderForRules;
  'count.read': CountForRules;
  'count.work': CountForRules;
  'count.signOff': CountForRules;
  'outage.read': EstablishmentForRules;
  'outage.manage': EstablishmentForRules;
  'replacement.read': EstablishmentForRules;
  'replacement.enter': EstablishmentForRules;
  'paperUse.summary': EstablishmentForRules;
}

/** Whose pads a count covers: a user (with their branch) or a branch's stock and its users'. */
export interface CountHolderForRules {
  holder_user_id: number | null;
  holder_branch_id: number | null;
  /** The branch of the holding user; null for a branch count. */
  holder_user_branch_id: number | null;
}

/** A count session as its rules see it: who counts whom. */
export interface CountForRules extends CountHolderForRules {
  counter_id: number;
}

/** Whose numbers an outcome writes off: the pad's holder, and the branch of a holding user (for roles 5, 6). */
export interface OutcomeForRules extends PadForRules {
  holder_user_branch_id: number | null;
}

/** A pad named in a loss report: its holder, and the courier carrying it when an in-transit invoice locks it. */
export interface IncidentPadForRules extends PadForRules {
  carrier_user_id: number | null;
}

/** An incident as confirm and reject see it: who reported it, and the branches whose stock it touches. */
export interface IncidentForRules {
  reported_by: number;
  branch_ids: readonly number[];
}

/** A found record: the second user must differ from the first. Absent before the first is written. */
export interface FoundForRules {
  recorded_by: number | null;
}

/** What the pad edit rule looks at: who holds the pad and whether an in-transit invoice carries it. */
export interface PadForRules {
  holder_user_id: number | null;
  holder_branch_id: number | null;
  locked_by_invoice_id: number | null;
}

/** Issue 38: the establishment (branch) an outage belongs to. */
export interface EstablishmentForRules {
  branch_id: number;
}

/** Whose RAAF: a user (with their branch) or a branch's own stock. */
export interface RaafHolderForRules {
  type: 'user' | 'branch';
  id: number;
  branch_id: number | null;
}

export type Action =
  | 'administer'
  | 'settings.manage'
  | 'directory.read'
  | 'pad.create'
  | 'pad.edit'
  | 'pad.editThis'
  | 'pad.delete'
  | 'pad.editNumber'
  | 'pad.editIssuanceStatus'
  | 'pad.editUsage'
  | 'pad.filterAnyHolder'
  | 'invoice.request'
  | 'invoice.transfer'
  | 'invoice.selectPads'
  | 'invoice.issue'
  | 'invoice.accept'
  | 'invoice.seeAll'
  | 'invoice.see'
  | 'invoice.delete'
  | 'invoice.returnPadEdit'
  | 'custody.handOver'
  | 'report.use'
  | 'user.resetPassword'
  | 'ledger.read'
  | 'ledgerCheck.read'
  | 'alertSettings.manage'
  | 'raaf.read'
  | 'raaf.certify'
  | 'raaf.review'
  | 'raaf.rollup'
  | 'raaf.consolidated'
  | 'number.use'
  | 'number.writeOff'
  | 'number.requestOutcome'
  | 'number.approveOutcome'
  | 'number.revertOutcome'
  | 'incident.read'
  | 'incident.reportLoss'
  | 'incident.report'
  | 'incident.decide'
  | 'incident.found'
  | 'incident.confirmFound'
  | 'count.use'
  | 'count.start'
  | 'count.read'
  | 'count.work'
  | 'count.signOff'
  | 'import.use'
  | 'registry.use'
  | 'unusedForms.read'
  | 'jobs.manage'
  | 'paperUse.read'
  | 'paperUse.decide'
  | 'establishment.read'
  | 'establishment.manage'
  | 'series.changeRole'
  | 'outage.read'
  | 'outage.manage'
  | 'replacement.read'
  | 'replacement.enter'
  | 'paperUse.summary';

export type SubjectOf<A extends Action> = A extends keyof Subjects ? Subjects[A] : never;

type Rule<A extends Action> = (actor: Actor, thing: SubjectOf<A> | undefined) => boolean;

/** Who counts as a courier: drivers and messengers, the people "Assign to" offers first (get-users-by-roles). */
export const COURIER_ROLES: readonly number[] = [ROLE.DRIVER, ROLE.MESSENGER];

/** Couriers carry pads for everyone, so their branch does not widen what they see. */
export const isCourier = (actor: Actor | null | undefined) => hasRole(actor, COURIER_ROLES);

/** Who may be named an invoice's courier (assignee), at issue, transfer or hand-over: an active user with a role. */
export const mayCarry = (user: { role_id: number | null; user_status_id: number }) =>
  user.role_id != null && user.user_status_id === USER_STATUS.ACTIVE;

/**
 * docs/design.md §5 "Who sees what", the one scope of every invoice list and details view (Transactions,
 * Custodies, Reports): roles 1, 2, 3, 8, 9 see all; anyone else the invoices they asked for, wrote,
 * carry now or accepted, and (unless they are a courier) those leaving from or going to their branch.
 */
export type InvoiceScope = { all: true } | { all: false; userId: number; branchId: number | null };

export function invoiceScope(actor: Actor): InvoiceScope {
  if (hasRole(actor, [1, 2, 3, 8, 9])) return { all: true };
  return { all: false, userId: actor.id, branchId: isCourier(actor) ? null : actor.branch_id };
}

function inScope(scope: InvoiceScope, invoice: InvoiceForRules): boolean {
  if (scope.all) return true;
  const { userId, branchId } = scope;
  if ([invoice.user_id, invoice.created_by, invoice.assigned_user_id, invoice.accepted_by].includes(userId)) return true;
  return branchId !== null && (invoice.branch_id === branchId || invoice.from_branch_id === branchId);
}

/** One condition on an in-transit invoice's columns; an invoice matching any of an actor's conditions is theirs to accept. */
export interface AcceptCondition {
  invoice_type_id: number;
  user_id?: number;
  branch_id?: number;
}

/** The accept rules applied to one actor, as plain column conditions a query or `can()` evaluates. */
export function acceptConditions(actor: Actor): AcceptCondition[] {
  const conditions: AcceptCondition[] = [];
  for (const [typeId, rule] of Object.entries(ACCEPT_RULES)) {
    const invoice_type_id = Number(typeId);
    if (rule.by === 'requester') conditions.push({ invoice_type_id, user_id: actor.id });
    else if (hasRole(actor, rule.roles) && !rule.atDestinationBranch) conditions.push({ invoice_type_id });
    else if (hasRole(actor, rule.roles) && actor.branch_id != null) conditions.push({ invoice_type_id, branch_id: actor.branch_id });
  }
  return conditions;
}

/** Whose RAAF and certificates an actor reads (docs/design.md §8): everyone's, or their own and, with a branch, the branch's and its users'. */
export type HolderScope = { all: true } | { all: false; userId: number; branchId: number | null };

/** Roles 1, 2, 3, 8, 9 read every holder's RAAF; roles 4–6 their branch's and its users'; everyone else their own. */
export function raafScope(actor: Actor): HolderScope {
  if (hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR])) return { all: true };
  const branchWide = hasRole(actor, [ROLE.BRANCH_CUSTODIAN, ROLE.BRANCH_HEAD, ROLE.SUPERVISOR]) && actor.branch_id !== null;
  return { all: false, userId: actor.id, branchId: branchWide ? actor.branch_id : null };
}

/** Whether a holder (user, branch) falls inside a limited scope: the scope's user, or its branch's stock and staff. */
export const holdsIn = (scope: { userId: number; branchId: number | null }, userId: number | null, branchId: number | null) =>
  userId === scope.userId || (scope.branchId !== null && branchId === scope.branchId);

/** Which pads an actor may edit (docs/spec.md §6 Edit Pad): roles 1, 2, 3, 8 any; roles 5–7 those they or their branch hold; nobody else. */
export function padEditScope(actor: Actor): HolderScope | null {
  if (hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING])) return { all: true };
  if (hasRole(actor, [ROLE.BRANCH_HEAD, ROLE.SUPERVISOR, ROLE.TICKETING_OFFICER]))
    return { all: false, userId: actor.id, branchId: actor.branch_id };
  return null;
}

const RULES: { [A in Action]: Rule<A> } = {
  administer: (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN]),
  /** The operator's identity and signatories printed on every document: the Admin alone, not IT Admin. */
  'settings.manage': (actor) => hasRole(actor, [ROLE.ADMIN]),
  /** docs/design.md §5 "Roles" and docs/SECURITY.md: staff directories and lookups (users, branches, routes with TIN, companies, locations, roles, statuses) are for roles 1–11; a user without a role reads only their own screens. */
  'directory.read': (actor) => hasRole(actor, ALL_STAFF),
  'pad.create': (actor) => hasRole(actor, [1, 2, 3]),
  'pad.delete': (actor) => hasRole(actor, [1, 2, 3]),
  'pad.edit': (actor) => hasRole(actor, [3, 5, 6, 7, 8]),
  /** docs/SECURITY.md "Who may do what": roles 1, 2, 3, 8 any pad, roles 5–7 only pads they or their branch hold; a pad on an in-transit invoice nobody. */
  'pad.editThis': (actor, pad) => {
    const scope = padEditScope(actor);
    if (!pad || pad.locked_by_invoice_id !== null || scope === null) return false;
    return scope.all || holdsIn(scope, pad.holder_user_id, pad.holder_branch_id);
  },
  'pad.editNumber': (actor) => hasRole(actor, [1, 2, 3, 8]),
  'pad.editIssuanceStatus': (actor) => hasRole(actor, [3, 8]),
  'pad.editUsage': (actor) => hasRole(actor, [3, 5, 6, 7, 8]),
  /** docs/design.md §10 Inventories: the head office and the auditors (who see every invoice) narrow the list to any branch or holder. */
  'pad.filterAnyHolder': (actor) => invoiceScope(actor).all,
  /** The Auditor (role 9) reads only, so asks for no pads and moves none. */
  'invoice.request': (actor) => hasRole(actor, PAD_AND_INVOICE_ROLES) && actor.role_id !== ROLE.AUDITOR,
  'invoice.transfer': (actor) => hasRole(actor, PAD_AND_INVOICE_ROLES) && actor.role_id !== ROLE.AUDITOR,
  'invoice.selectPads': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.CUSTODIAN]),
  'invoice.issue': (actor, invoice) =>
    hasRole(actor, [ROLE.ADMIN, ROLE.CUSTODIAN]) &&
    (!invoice || (invoice.invoice_type_id === INVOICE_TYPE.REQUEST && invoice.invoice_status_id === INVOICE_STATUS.PENDING)),
  'invoice.accept': (actor, invoice) => (invoice ? canAccept(actor, invoice) : false),
  'invoice.seeAll': (actor) => invoiceScope(actor).all,
  'invoice.see': (actor, invoice) => (invoice ? inScope(invoiceScope(actor), invoice) : false),
  /** docs/design.md §5: only a Pending invoice goes, by its creator or roles 1–2; history of anything else stays. */
  'invoice.delete': (actor, invoice) =>
    invoice != null &&
    invoice.invoice_status_id === INVOICE_STATUS.PENDING &&
    (invoice.created_by === actor.id || hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN])),
  'invoice.returnPadEdit': (actor) => hasRole(actor, [5, 6, 7, 8]),
  'custody.handOver': (actor, invoice) =>
    hasRole(actor, [1, 2, 3]) || (invoice != null && invoice.assigned_user_id != null && invoice.assigned_user_id === actor.id),
  'report.use': (actor) => hasRole(actor, [1, 2, 8, 9]),
  /** docs/spec.md §2: anyone may ask a reset link for themselves; only roles 1–2 for someone else. */
  'user.resetPassword': (actor, target) => target == null || target.id === actor.id || hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN]),
  'ledger.read': (actor) => hasRole(actor, PAD_AND_INVOICE_ROLES),
  'ledgerCheck.read': (actor) => hasRole(actor, LEDGER_CHECK_ROLES),
  /** Issue 37: the alert thresholds and reorder points are set by Admin and Accounting. */
  'alertSettings.manage': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING]),
  /** docs/design.md §8: your own RAAF; roles 1, 2, 3, 8, 9 anyone's; roles 4–6 their branch's and its users'. */
  'raaf.read': (actor, holder) => {
    if (!holder || !hasRole(actor, PAD_AND_INVOICE_ROLES)) return false;
    const scope = raafScope(actor);
    return (
      scope.all ||
      (holder.type === 'user' && holder.id === scope.userId) ||
      (scope.branchId !== null && holder.branch_id === scope.branchId)
    );
  },
  /** Only the accountable person certifies: the user, or for a branch its custodian or head (or roles 1–2); the Auditor reads only and certifies nothing. */
  'raaf.certify': (actor, holder) => {
    if (!holder) return false;
    if (holder.type === 'user') return holder.id === actor.id && hasRole(actor, PAD_AND_INVOICE_ROLES) && actor.role_id !== ROLE.AUDITOR;
    return (
      hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN]) ||
      (hasRole(actor, [ROLE.BRANCH_CUSTODIAN, ROLE.BRANCH_HEAD]) && actor.branch_id === holder.id)
    );
  },
  'raaf.review': (actor) => hasRole(actor, [ROLE.ACCOUNTING]),
  /** The branch roll-up holds every RAAF of a branch and its staff: for whoever reads them all (raafScope). */
  'raaf.rollup': (actor, branch) => {
    if (!branch || !hasRole(actor, PAD_AND_INVOICE_ROLES)) return false;
    const scope = raafScope(actor);
    return scope.all || scope.branchId === branch.branch_id;
  },
  'raaf.consolidated': (actor) => hasRole(actor, [1, 2, 8, 9]),
  /** docs/design.md §9 usage by range: whoever may toggle entries (roles 3, 5–8), on a pad they may edit. */
  'number.use': (actor, pad) => hasRole(actor, [3, 5, 6, 7, 8]) && can(actor, 'pad.editThis', pad),
  /**
   * Who cancels or writes off numbers at all: those who record usage (3, 5–8) and the Admin, an approver. The
   * record-free form of `number.requestOutcome`, which a route asks before the pad is read.
   */
  'number.writeOff': (actor) =>
    hasRole(actor, [ROLE.ADMIN, ROLE.CUSTODIAN, ROLE.BRANCH_HEAD, ROLE.SUPERVISOR, ROLE.TICKETING_OFFICER, ROLE.ACCOUNTING]),
  /** Asking to cancel or write off numbers: whoever writes off at all, on a pad in their scope. */
  'number.requestOutcome': (actor, pad) => can(actor, 'number.writeOff') && can(actor, 'pad.editThis', pad),
  /** Approving a cancellation: roles 1, 3, 8 on any pad; the holder's Branch Head or Supervisor (5, 6). */
  'number.approveOutcome': (actor, pad) => outcomeApprover(actor, pad),
  /** Undoing a cancellation is decided by the same people who approve one. */
  'number.revertOutcome': (actor, pad) => outcomeApprover(actor, pad),
  'incident.read': (actor) => hasRole(actor, PAD_AND_INVOICE_ROLES),
  /** docs/design.md §10 go-live imports: Admin, IT Admin, Custodian. */
  'import.use': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN, ROLE.CUSTODIAN]),
  /** docs/design.md §10 registered series: Admin, IT Admin, Accounting. */
  'registry.use': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN, ROLE.ACCOUNTING]),
  /** docs/design.md §10 inventory of unused forms: the head office and the auditors. */
  'unusedForms.read': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN, ROLE.ACCOUNTING, ROLE.AUDITOR]),
  /** Issue 37: the background jobs (GET /api/jobs) and running one now: the Admin alone. */
  'jobs.manage': (actor) => hasRole(actor, [ROLE.ADMIN]),
  /** Issue 38: paper-use exceptions are read by Admin, Accounting and the Auditor. */
  'paperUse.read': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING, ROLE.AUDITOR]),
  /** Issue 38: Accounting (or the Admin) justifies or rejects a paper-use exception. */
  'paperUse.decide': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING]),
  /** Issue 38: a branch's e-invoicing details are read by whoever reads the branch directory. */
  'establishment.read': (actor) => can(actor, 'directory.read'),
  /** Issue 38: Admin and Accounting set a branch's e-invoicing details. */
  'establishment.manage': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING]),
  /** Issue 38: Admin and Accounting change what a registered series is for after go-live. */
  'series.changeRole': (actor) => hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING]),
  /** Issue 38 outages: roles 1, 2, 3, 8, 9 read every establishment's; branch staff (roles 4–7) their own branch's. */
  'outage.read': (actor, place) => {
    if (hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR])) return true;
    if (!hasRole(actor, [ROLE.BRANCH_CUSTODIAN, ROLE.BRANCH_HEAD, ROLE.SUPERVISOR, ROLE.TICKETING_OFFICER])) return false;
    return !place || (actor.branch_id !== null && actor.branch_id === place.branch_id);
  },
  /** Issue 38: declaring, editing, closing an outage and adding evidence: Admin, Accounting, or the establishment's Branch Head or Supervisor. */
  'outage.manage': (actor, place) => {
    if (hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING])) return true;
    if (!hasRole(actor, [ROLE.BRANCH_HEAD, ROLE.SUPERVISOR])) return false;
    return !place || (actor.branch_id !== null && actor.branch_id === place.branch_id);
  },
  /** Issue 38: an outage's replacement e-invoices are read by Admin, Accounting, the Auditor and the establishment's Branch Head or Supervisor. */
  'replacement.read': (actor, place) => hasRole(actor, [ROLE.AUDITOR]) || can(actor, 'replacement.enter', place),
  /** Issue 38: entered or imported by Admin, Accounting, or the establishment's Branch Head or Supervisor. */
  'replacement.enter': (actor, place) => {
    if (hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING])) return true;
    if (!hasRole(actor, [ROLE.BRANCH_HEAD, ROLE.SUPERVISOR])) return false;
    return !place || (actor.branch_id !== null && actor.branch_id === place.branch_id);
  },
  /** Issue 38: the summary list of paper used beside e-invoicing: Admin, Accounting, the Auditor, and the establishment's Branch Head. */
  'paperUse.summary': (actor, place) => {
    if (hasRole(actor, [ROLE.ADMIN, ROLE.ACCOUNTING, ROLE.AUDITOR])) return true;
    if (!hasRole(actor, [ROLE.BRANCH_HEAD])) return false;
    return !place || (actor.branch_id !== null && actor.branch_id === place.branch_id);
  },
  /**
   * Who reports losses at all: anyone with a role but the IT Admin and the Auditor, who read only. The record-free
   * form of `incident.report`, which a route asks before the pads are read.
   */
  'incident.reportLoss': (actor) => actor.role_id != null && actor.role_id !== ROLE.AUDITOR && actor.role_id !== ROLE.IT_ADMIN,
  /**
   * Reporting a loss: roles 1, 3, 8 any pad; roles 4–7 pads they or their branch hold; anyone (couriers,
   * roles 10 and 11, included) the pads of an in-transit invoice they carry.
   */
  'incident.report': (actor, pad) => {
    if (!pad || !can(actor, 'incident.reportLoss')) return false;
    if (pad.locked_by_invoice_id !== null && pad.carrier_user_id === actor.id) return true;
    if (hasRole(actor, [1, 3, 8])) return true;
    const theirs = pad.holder_user_id === actor.id || (actor.branch_id !== null && pad.holder_branch_id === actor.branch_id);
    return hasRole(actor, [4, 5, 6, 7]) && theirs;
  },
  /** Confirming or rejecting a loss: roles 1, 3, 8, and a Branch Head (5) for their branch; never the reporter. */
  'incident.decide': (actor, incident) => {
    if (!hasRole(actor, [1, 3, 5, 8])) return false;
    if (!incident) return true;
    if (incident.reported_by === actor.id) return false;
    return actor.role_id !== ROLE.BRANCH_HEAD || (actor.branch_id !== null && incident.branch_ids.includes(actor.branch_id));
  },
  /** docs/design.md §9 found: two different users of roles 3 and 8 (the first records, the second confirms). */
  'incident.found': (actor) => hasRole(actor, [ROLE.CUSTODIAN, ROLE.ACCOUNTING]),
  'incident.confirmFound': (actor, found) =>
    hasRole(actor, [ROLE.CUSTODIAN, ROLE.ACCOUNTING]) && (!found || found.recorded_by !== actor.id),
  'count.use': (actor) => hasRole(actor, COUNT_ROLES),
  'count.start': (actor, holder) => (holder ? mayCount(actor, holder) : hasRole(actor, COUNT_ROLES)),
  /** Who reads a count: the counter, the holder, roles 1, 3, 8, 9, and a Branch Head the counts of their branch's users. */
  'count.read': (actor, count) => count != null && (count.counter_id === actor.id || isCountHolder(actor, count) || mayCount(actor, count)),
  /** Only the counter records pads, resolves variances and closes the count. */
  'count.work': (actor, count) => count != null && count.counter_id === actor.id,
  'count.signOff': (actor, count) => count != null && count.counter_id !== actor.id && isCountHolder(actor, count),
};

/** Whether the actor is the one accountable for the counted pads: the holding user, or for a branch its custodian or head. */
export function isCountHolder(actor: Actor, holder: CountHolderForRules): boolean {
  if (holder.holder_user_id !== null) return holder.holder_user_id === actor.id;
  return hasRole(actor, BRANCH_ACCOUNTABLE_ROLES) && actor.branch_id !== null && actor.branch_id === holder.holder_branch_id;
}

/** docs/design.md §9: roles 1, 3, 8, 9 count anyone; a Branch Head the users of their branch; never their own pads. */
function mayCount(actor: Actor, holder: CountHolderForRules): boolean {
  if (isCountHolder(actor, holder)) return false;
  if (hasRole(actor, [ROLE.ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR])) return true;
  return (
    hasRole(actor, [ROLE.BRANCH_HEAD]) &&
    actor.branch_id !== null &&
    holder.holder_user_id !== null &&
    holder.holder_user_branch_id === actor.branch_id
  );
}

function outcomeApprover(actor: Actor, pad: OutcomeForRules | undefined): boolean {
  if (hasRole(actor, [ROLE.ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING])) return true;
  if (!hasRole(actor, [ROLE.BRANCH_HEAD, ROLE.SUPERVISOR]) || actor.branch_id === null) return false;
  if (!pad) return true;
  return pad.holder_branch_id === actor.branch_id || pad.holder_user_branch_id === actor.branch_id;
}

/** Every role rule of docs/spec.md §4 and §6 in one place; the menu, the buttons and the API all ask here. */
export function can<A extends Action>(actor: Actor | null | undefined, action: A, thing?: SubjectOf<A>): boolean {
  if (!actor) return false;
  return RULES[action](actor, thing);
}

function canAccept(actor: Actor, invoice: InvoiceForRules): boolean {
  if (invoice.invoice_status_id !== IN_TRANSIT.invoice_status_id) return false;
  return acceptConditions(actor).some(
    (c) =>
      c.invoice_type_id === invoice.invoice_type_id &&
      (c.user_id === undefined || c.user_id === invoice.user_id) &&
      (c.branch_id === undefined || c.branch_id === invoice.branch_id),
  );
}

/** docs/spec.md §6 Edit Pad modal: which fields a role may change. */
export function editablePadFields(actor: Actor | null | undefined): Required<PadFieldChanges> {
  return {
    number: can(actor, 'pad.editNumber'),
    issuance_status_id: can(actor, 'pad.editIssuanceStatus'),
    pad_status_id: can(actor, 'pad.editUsage'),
    remarks: can(actor, 'pad.editUsage'),
    series: can(actor, 'pad.editUsage'),
  };
}
