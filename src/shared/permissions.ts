import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from './lookups.ts';

/** The part of a user that access rules look at. */
export interface Actor {
  id: number;
  role_id: number | null;
  branch_id: number | null;
}

const ALL_STAFF = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const PAD_AND_INVOICE_ROLES = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Spec §2 route table, keyed by the first path segment. `null` means any signed-in user. */
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
  custodies: null,
  'user-profile': null,
};

export type Screen = keyof typeof SCREEN_ROLES;

const hasRole = (actor: Actor | null | undefined, roles: readonly number[]) =>
  actor?.role_id != null && roles.includes(actor.role_id);

export function canOpenScreen(actor: Actor | null | undefined, screen: string): boolean {
  if (!actor) return false;
  if (!(screen in SCREEN_ROLES)) return false;
  const roles = SCREEN_ROLES[screen];
  return roles === null || hasRole(actor, roles);
}

/** Spec §2 "Home screen by role". */
export function homePath(roleId: number | null | undefined): string {
  if (roleId === 4 || roleId === 10 || roleId === 11) return '/custodies';
  if (roleId === 3) return '/pads';
  if (roleId != null && [1, 2, 5, 6, 7, 8, 9].includes(roleId)) return '/invoices';
  return '/user-profile';
}

/** Spec §2: where the reset-password flow sends the user afterwards. */
export function afterPasswordResetPath(roleId: number | null | undefined): string {
  if (roleId === 1) return '/users';
  if (roleId === 2) return '/user-profile';
  return '/login';
}

export interface MenuItem {
  label: string;
  path: string;
}

/** Spec §2 "Menu" with DESIGN §5's Roles entry. Profile and Logout are added by the shell. */
export function menuFor(actor: Actor | null | undefined): MenuItem[] {
  const items: Array<MenuItem & { screen: string; roles: readonly number[] }> = [
    { label: 'Custodies', path: '/custodies', screen: 'custodies', roles: ALL_STAFF },
    { label: 'Transactions', path: '/invoices', screen: 'invoices', roles: PAD_AND_INVOICE_ROLES },
    { label: 'Inventories', path: '/pads', screen: 'pads', roles: PAD_AND_INVOICE_ROLES },
    { label: 'Reports', path: '/reports', screen: 'reports', roles: [1, 2, 8, 9] },
    { label: 'Companies', path: '/companies', screen: 'companies', roles: [1, 2] },
    { label: 'Routes', path: '/routes', screen: 'routes', roles: [1, 2] },
    { label: 'Branches/Agencies', path: '/branches', screen: 'branches', roles: [1, 2] },
    { label: 'Locations', path: '/locations', screen: 'locations', roles: [1, 2] },
    { label: 'Users', path: '/users', screen: 'users', roles: [1, 2] },
    { label: 'Roles', path: '/roles', screen: 'roles', roles: [1, 2] },
  ];
  return items
    .filter((item) => (item.screen === 'custodies' ? Boolean(actor) : hasRole(actor, item.roles)))
    .map(({ label, path }) => ({ label, path }));
}

export interface InvoiceForRules {
  user_id: number;
  branch_id: number | null;
  assigned_user_id: number | null;
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

export type Action =
  | 'administer'
  | 'pad.create'
  | 'pad.edit'
  | 'pad.delete'
  | 'pad.editNumber'
  | 'pad.editIssuanceStatus'
  | 'pad.editUsage'
  | 'invoice.request'
  | 'invoice.selectPads'
  | 'invoice.issue'
  | 'invoice.accept'
  | 'invoice.seeAll'
  | 'invoice.returnPadEdit'
  | 'custody.handOver'
  | 'report.use';

/** Every role rule of spec §4 and §6 in one place; the menu, the buttons and the API all ask here. */
export function can(actor: Actor | null | undefined, action: Action, invoice?: InvoiceForRules): boolean {
  if (!actor) return false;
  switch (action) {
    case 'administer':
      return hasRole(actor, [ROLE.ADMIN, ROLE.IT_ADMIN]);
    case 'pad.create':
    case 'pad.delete':
      return hasRole(actor, [1, 2, 3]);
    case 'pad.edit':
      return hasRole(actor, [3, 5, 6, 7, 8]);
    case 'pad.editNumber':
      return hasRole(actor, [1, 2, 3, 8]);
    case 'pad.editIssuanceStatus':
      return hasRole(actor, [3, 8]);
    case 'pad.editUsage':
      return hasRole(actor, [3, 5, 6, 7, 8]);
    case 'invoice.request':
      return hasRole(actor, PAD_AND_INVOICE_ROLES);
    case 'invoice.selectPads':
      return hasRole(actor, [ROLE.ADMIN, ROLE.CUSTODIAN]);
    case 'invoice.issue':
      return (
        hasRole(actor, [ROLE.ADMIN, ROLE.CUSTODIAN]) &&
        (!invoice ||
          (invoice.invoice_type_id === INVOICE_TYPE.REQUEST && invoice.invoice_status_id === INVOICE_STATUS.PENDING))
      );
    case 'invoice.accept':
      return invoice ? canAccept(actor, invoice) : false;
    case 'invoice.seeAll':
      return hasRole(actor, [1, 2, 3, 8, 9]);
    case 'invoice.returnPadEdit':
      return hasRole(actor, [5, 6, 7, 8]);
    case 'custody.handOver':
      return (
        hasRole(actor, [1, 2, 3]) || (invoice != null && invoice.assigned_user_id != null && invoice.assigned_user_id === actor.id)
      );
    case 'report.use':
      return hasRole(actor, [1, 2, 8, 9]);
  }
}

function canAccept(actor: Actor, invoice: InvoiceForRules): boolean {
  if (invoice.invoice_status_id !== INVOICE_STATUS.IN_TRANSIT) return false;
  switch (invoice.invoice_type_id) {
    case INVOICE_TYPE.ISSUED:
      return invoice.user_id === actor.id;
    case INVOICE_TYPE.RETURN:
      return actor.role_id === ROLE.ACCOUNTING;
    case INVOICE_TYPE.TURNOVER:
      return actor.branch_id != null && actor.branch_id === invoice.branch_id && hasRole(actor, [4, 5, 6, 7]);
    default:
      return false;
  }
}

/** Spec §6 Edit Pad modal: which fields a role may change. */
export function editablePadFields(actor: Actor | null | undefined): Required<PadFieldChanges> {
  return {
    number: can(actor, 'pad.editNumber'),
    issuance_status_id: can(actor, 'pad.editIssuanceStatus'),
    pad_status_id: can(actor, 'pad.editUsage'),
    remarks: can(actor, 'pad.editUsage'),
    series: can(actor, 'pad.editUsage'),
  };
}
