import { describe, expect, it } from 'vitest';
import { afterPasswordResetPath, can, canOpenScreen, homePath, menuFor } from './permissions.ts';

const actor = (role_id: number | null, id = 7, branch_id: number | null = 3) => ({ id, role_id, branch_id });

describe('roles and permissions', () => {
  it('when a user signs in, then the home screen follows the role table of spec §2', () => {
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
    expect(menuFor(actor(10)).map((m) => m.label)).toEqual(['Custodies']);
    expect(menuFor(actor(null)).map((m) => m.label)).toEqual(['Custodies']);
    expect(menuFor(actor(8)).map((m) => m.label)).toEqual(['Custodies', 'Transactions', 'Inventories', 'Reports']);
    expect(menuFor(actor(1)).map((m) => m.label)).toEqual([
      'Custodies',
      'Transactions',
      'Inventories',
      'Reports',
      'Companies',
      'Routes',
      'Branches/Agencies',
      'Locations',
      'Users',
      'Roles',
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
  });

  it('when an invoice is accepted, then the rules of spec §4 apply per type', () => {
    const issued = { user_id: 7, branch_id: 3, assigned_user_id: 20, invoice_type_id: 2, invoice_status_id: 2 };
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
    const invoice = { user_id: 1, branch_id: 3, assigned_user_id: 20, invoice_type_id: 2, invoice_status_id: 2 };
    expect(can(actor(10, 20), 'custody.handOver', invoice)).toBe(true);
    expect(can(actor(10, 21), 'custody.handOver', invoice)).toBe(false);
    expect(can(actor(3, 21), 'custody.handOver', invoice)).toBe(true);
  });
});
