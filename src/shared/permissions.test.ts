import { describe, expect, it } from 'vitest';
import { INVOICE_STATUS, INVOICE_TYPE, USER_STATUS } from './lookups.ts';
import {
  afterPasswordResetPath,
  can,
  canOpenScreen,
  COURIER_ROLES,
  homePath,
  invoiceScope,
  isCourier,
  mayCarry,
  menuFor,
  type Action,
  type InvoiceForRules,
} from './permissions.ts';

const actor = (role_id: number | null, id = 7, branch_id: number | null = 3) => ({ id, role_id, branch_id });
const ROLES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, null] as const;
/** An invoice of user 1, written by user 2, from branch 4 to branch 3, carried by user 20. */
const invoiceOf = (values: Partial<InvoiceForRules> = {}): InvoiceForRules => ({
  user_id: 1,
  created_by: 2,
  from_branch_id: 4,
  branch_id: 3,
  assigned_user_id: 20,
  accepted_by: null,
  invoice_type_id: INVOICE_TYPE.ISSUED,
  invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
  ...values,
});
const rolesAllowed = (action: Action) => ROLES.filter((role) => can(actor(role), action));

describe('roles and permissions', () => {
  it('when a user signs in, then the home screen follows the role table of docs/spec.md §2', () => {
    const table: Array<[number | null, string]> = [
      [1, '/invoices'],
      [2, '/invoices'],
      [3, '/pads'],
      [4, '/custodies'],
      [5, '/invoices'],
      [6, '/invoices'],
      [7, '/invoices'],
      [8, '/invoices'],
      [9, '/invoices'],
      [10, '/custodies'],
      [11, '/custodies'],
      [12, '/user-profile'],
      [null, '/user-profile'],
    ];
    for (const [role, path] of table) expect(homePath(role), `role ${role}`).toBe(path);
  });

  it('when a password was reset, then role 1 goes to /users, role 2 to /user-profile and others to /login', () => {
    expect(afterPasswordResetPath(1)).toBe('/users');
    expect(afterPasswordResetPath(2)).toBe('/user-profile');
    expect(afterPasswordResetPath(5)).toBe('/login');
    expect(afterPasswordResetPath(null)).toBe('/login');
  });

  it('when the menu is built, then drivers see only Custodies and admins see everything', () => {
    expect(menuFor(actor(10)).map((m) => m.label)).toEqual(['Custodies', 'Notifications']);
    expect(menuFor(actor(null)).map((m) => m.label)).toEqual(['Custodies', 'Notifications']);
    expect(menuFor(actor(8)).map((m) => m.label)).toEqual([
      'Custodies',
      'Transactions',
      'Dashboard',
      'Inventories',
      'Counts',
      'Reports',
      'Accountability',
      'Incidents',
      'Outages',
      'Registered series',
      'Unused forms',
      'Alert settings',
      'Notifications',
    ]);
    expect(menuFor(actor(5)).map((m) => m.label)).not.toContain('Dashboard');
    expect(menuFor(actor(3)).map((m) => m.label)).toContain('Import');
    expect(menuFor(actor(9)).map((m) => m.label)).toEqual(expect.arrayContaining(['Unused forms']));
    expect(menuFor(actor(9)).map((m) => m.label)).not.toContain('Registered series');
    expect(menuFor(actor(1)).map((m) => m.label)).toEqual([
      'Custodies',
      'Transactions',
      'Dashboard',
      'Inventories',
      'Counts',
      'Reports',
      'Accountability',
      'Incidents',
      'Outages',
      'Companies',
      'Routes',
      'Branches/Agencies',
      'Locations',
      'Users',
      'Roles',
      'Import',
      'Registered series',
      'Unused forms',
      'Settings',
      'Alert settings',
      'Jobs',
      'Notifications',
    ]);
  });

  it('when a screen is opened, then the route table decides', () => {
    expect(canOpenScreen(actor(2), 'users')).toBe(true);
    expect(canOpenScreen(actor(3), 'users')).toBe(false);
    expect(canOpenScreen(actor(9), 'reports')).toBe(true);
    expect(canOpenScreen(actor(7), 'reports')).toBe(false);
    expect(canOpenScreen(actor(10), 'invoices')).toBe(false);
    expect(canOpenScreen(actor(10), 'custodies')).toBe(true);
    expect(canOpenScreen(null, 'user-profile')).toBe(false);
    expect(canOpenScreen(actor(1), 'settings')).toBe(true);
    expect(canOpenScreen(actor(2), 'settings')).toBe(false);
    expect(can(actor(1), 'settings.manage')).toBe(true);
    expect(can(actor(2), 'settings.manage')).toBe(false);
  });

  it('when an invoice is accepted, then the rules of docs/spec.md §4 apply per type', () => {
    const issued = invoiceOf({ user_id: 7 });
    expect(can(actor(5, 7), 'invoice.accept', issued)).toBe(true);
    expect(can(actor(5, 8), 'invoice.accept', issued)).toBe(false);
    expect(can(actor(5, 7), 'invoice.accept', { ...issued, invoice_status_id: 4 })).toBe(false);
    const ret = { ...issued, invoice_type_id: 3 };
    expect(can(actor(8, 99), 'invoice.accept', ret)).toBe(true);
    expect(can(actor(9, 99), 'invoice.accept', ret)).toBe(false);
    const turnover = { ...issued, invoice_type_id: 4 };
    expect(can(actor(6, 99, 3), 'invoice.accept', turnover)).toBe(true);
    expect(can(actor(6, 99, 4), 'invoice.accept', turnover)).toBe(false);
    expect(can(actor(8, 99, 3), 'invoice.accept', turnover)).toBe(false);
  });

  it('when custody is handed over, then roles 1-3 or the assigned courier may', () => {
    const invoice = invoiceOf();
    expect(can(actor(10, 20), 'custody.handOver', invoice)).toBe(true);
    expect(can(actor(10, 21), 'custody.handOver', invoice)).toBe(false);
    expect(can(actor(3, 21), 'custody.handOver', invoice)).toBe(true);
  });

  it('when a rule depends on the role alone, then each role gets exactly the actions docs/spec.md §4 and §6 give it', () => {
    const table: Array<[Action, Array<number | null>]> = [
      ['administer', [1, 2]],
      ['pad.create', [1, 2, 3]],
      ['pad.delete', [1, 2, 3]],
      ['pad.edit', [3, 5, 6, 7, 8]],
      ['pad.editNumber', [1, 2, 3, 8]],
      ['pad.editIssuanceStatus', [3, 8]],
      ['pad.editUsage', [3, 5, 6, 7, 8]],
      ['pad.filterAnyHolder', [1, 2, 3, 8, 9]],
      ['invoice.request', [1, 2, 3, 4, 5, 6, 7, 8]],
      ['invoice.transfer', [1, 2, 3, 4, 5, 6, 7, 8]],
      ['invoice.selectPads', [1, 3]],
      ['invoice.issue', [1, 3]],
      ['invoice.seeAll', [1, 2, 3, 8, 9]],
      ['invoice.returnPadEdit', [5, 6, 7, 8]],
      ['report.use', [1, 2, 8, 9]],
      ['number.writeOff', [1, 3, 5, 6, 7, 8]],
      ['incident.reportLoss', [1, 3, 4, 5, 6, 7, 8, 10, 11]],
    ];
    for (const [action, roles] of table) expect(rolesAllowed(action), action).toEqual(roles);
    expect(can(null, 'administer')).toBe(false);
  });

  it("when a route asks a record rule's record-free form before the pad is read, then it lets through everyone the rule with any pad lets through", () => {
    const holders = [
      { holder_user_id: 7, holder_branch_id: 3 },
      { holder_user_id: 8, holder_branch_id: 3 },
      { holder_user_id: 8, holder_branch_id: 4 },
      { holder_user_id: null, holder_branch_id: 3 },
    ];
    const padsOf = holders.flatMap((holder) =>
      [null, 9].flatMap((locked_by_invoice_id) =>
        [null, 7, 8].map((carrier_user_id) => ({
          ...holder,
          locked_by_invoice_id,
          carrier_user_id,
          holder_user_branch_id: holder.holder_branch_id,
        })),
      ),
    );
    const pairs = [
      ['number.writeOff', 'number.requestOutcome'],
      ['incident.reportLoss', 'incident.report'],
    ] as const;
    for (const [gate, rule] of pairs) {
      const admitted = ROLES.filter((role) => padsOf.some((pad) => can(actor(role), rule, pad)));
      expect(admitted, rule).toEqual(rolesAllowed(gate));
    }
    expect(can(actor(1), 'number.requestOutcome'), 'the whole rule without its pad').toBe(false);
  });

  it('when a branch roll-up is asked for, then whoever reads every RAAF of it may: roles 1, 2, 3, 8, 9 any branch, roles 4-6 their own', () => {
    const mayRollUp = (branchId: number) => ROLES.filter((role) => can(actor(role), 'raaf.rollup', { branch_id: branchId }));
    expect(mayRollUp(3)).toEqual([1, 2, 3, 4, 5, 6, 8, 9]);
    expect(mayRollUp(4)).toEqual([1, 2, 3, 8, 9]);
    expect(can(actor(5, 7, null), 'raaf.rollup', { branch_id: 3 })).toBe(false);
  });

  it('when a request is issued, then only roles 1 and 3 may, and only a Pending Request', () => {
    const request = invoiceOf({ invoice_type_id: INVOICE_TYPE.REQUEST, invoice_status_id: INVOICE_STATUS.PENDING });
    expect(ROLES.filter((role) => can(actor(role), 'invoice.issue', request))).toEqual([1, 3]);
    expect(can(actor(1), 'invoice.issue', { ...request, invoice_status_id: INVOICE_STATUS.ISSUED })).toBe(false);
    expect(can(actor(3), 'invoice.issue', invoiceOf())).toBe(false);
  });

  it('when an invoice is deleted, then only a Pending one goes, by its creator or roles 1 and 2', () => {
    const pending = invoiceOf({ invoice_type_id: INVOICE_TYPE.REQUEST, invoice_status_id: INVOICE_STATUS.PENDING, created_by: 7 });
    expect(ROLES.filter((role) => can(actor(role, 99), 'invoice.delete', pending))).toEqual([1, 2]);
    expect(can(actor(5, 7), 'invoice.delete', pending), 'its creator').toBe(true);
    expect(can(actor(null, 7), 'invoice.delete', pending), 'its creator, whatever the role').toBe(true);
    for (const status of [INVOICE_STATUS.IN_TRANSIT, INVOICE_STATUS.ISSUED, INVOICE_STATUS.COMPLETED]) {
      expect(can(actor(1, 99), 'invoice.delete', { ...pending, invoice_status_id: status }), `admin, status ${status}`).toBe(false);
      expect(can(actor(5, 7), 'invoice.delete', { ...pending, invoice_status_id: status }), `creator, status ${status}`).toBe(false);
    }
    expect(can(actor(1), 'invoice.delete')).toBe(false);
  });

  it('when someone counts as a courier, then it is roles 10 and 11; anyone active with a role may be assigned to carry', () => {
    expect(COURIER_ROLES).toEqual([10, 11]);
    expect(ROLES.filter((role) => isCourier(actor(role)))).toEqual([10, 11]);
    expect(isCourier(null)).toBe(false);
    for (const role of [1, 5, 10, 11, 12])
      expect(mayCarry({ role_id: role, user_status_id: USER_STATUS.ACTIVE }), `role ${role}`).toBe(true);
    expect(mayCarry({ role_id: 10, user_status_id: USER_STATUS.INACTIVE }), 'inactive').toBe(false);
    expect(mayCarry({ role_id: null, user_status_id: USER_STATUS.ACTIVE }), 'no role').toBe(false);
  });

  it('when a password reset is asked, then anyone may for themselves and only roles 1 and 2 for someone else', () => {
    for (const role of ROLES) {
      expect(can(actor(role, 7), 'user.resetPassword', { id: 7 }), `role ${role} self`).toBe(true);
      expect(can(actor(role, 7), 'user.resetPassword'), `role ${role} self, no target`).toBe(true);
    }
    expect(ROLES.filter((role) => can(actor(role, 7), 'user.resetPassword', { id: 8 }))).toEqual([1, 2]);
    expect(can(null, 'user.resetPassword', { id: 8 })).toBe(false);
  });

  it('when invoices are scoped, then roles 1, 2, 3, 8, 9 see all and everyone else their own, with their branch unless a courier', () => {
    for (const role of [1, 2, 3, 8, 9]) expect(invoiceScope(actor(role)), `role ${role}`).toEqual({ all: true });
    for (const role of [4, 5, 6, 7, 12, null])
      expect(invoiceScope(actor(role, 7, 3)), `role ${role}`).toEqual({ all: false, userId: 7, branchId: 3 });
    for (const role of [10, 11]) expect(invoiceScope(actor(role, 7, 3)), `role ${role}`).toEqual({ all: false, userId: 7, branchId: null });
    expect(invoiceScope(actor(5, 7, null))).toEqual({ all: false, userId: 7, branchId: null });
  });

  it('when one invoice is looked at, then the same scope decides who sees it', () => {
    const cases: Array<[string, ReturnType<typeof actor>, Partial<InvoiceForRules>, boolean]> = [
      ['its requester', actor(5, 1, 9), {}, true],
      ['its writer', actor(5, 2, 9), {}, true],
      ['its courier now', actor(10, 20, 9), {}, true],
      ['whoever accepted it', actor(6, 30, 9), { accepted_by: 30, invoice_status_id: INVOICE_STATUS.COMPLETED }, true],
      ['staff of the destination branch', actor(6, 30, 3), {}, true],
      ['staff of the branch it leaves from', actor(7, 30, 4), {}, true],
      ['staff of another branch', actor(6, 30, 9), {}, false],
      ['a courier at the destination branch who does not carry it', actor(10, 30, 3), {}, false],
      ['a courier at the origin who does not carry it', actor(11, 30, 4), {}, false],
      ['a user without a role or branch', actor(null, 30, null), {}, false],
      ['an auditor anywhere', actor(9, 30, 9), {}, true],
      ['a custodian anywhere', actor(3, 30, null), {}, true],
    ];
    for (const [who, viewer, values, sees] of cases) expect(can(viewer, 'invoice.see', invoiceOf(values)), who).toBe(sees);
    expect(can(null, 'invoice.see', invoiceOf())).toBe(false);
    expect(can(actor(1), 'invoice.see')).toBe(false);
  });
});
