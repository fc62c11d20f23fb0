import { describe, expect, it } from 'vitest';
import { ROLE } from '../../shared/lookups.ts';
import { canOpenScreen, SCREEN_ROLES, type Actor } from '../../shared/permissions.ts';
import { isActivePath, navItems, waitingBadge } from './nav-items.ts';
import { ICONS } from './nav-rail.tsx';

const user = (roleId: number | null): Actor => ({ id: 40, role_id: roleId, branch_id: 3 });
const labels = (actor: Actor | null) => navItems(actor).map((item) => item.label);

const PAD_WORK = ['Custodies', 'Transactions', 'Inventories', 'Accountability', 'Incidents', 'Outages'];
const COUNTING_PAD_WORK = ['Custodies', 'Transactions', 'Inventories', 'Counts', 'Accountability', 'Incidents', 'Outages'];
const HEAD_OFFICE_WORK = ['Custodies', 'Transactions', 'Dashboard', 'Inventories', 'Reports', 'Accountability', 'Incidents', 'Outages'];
const REFERENCE_DATA = ['Companies', 'Routes', 'Branches/Agencies', 'Locations', 'Users', 'Roles'];

/** docs/spec.md §2 "Menu" with docs/design.md §5 and §10: each role's rail, top to bottom. */
const MENUS: Array<[string, number | null, string[]]> = [
  [
    'Admin',
    ROLE.ADMIN,
    [
      ...['Custodies', 'Transactions', 'Dashboard', 'Inventories', 'Counts', 'Reports', 'Accountability', 'Incidents', 'Outages'],
      ...REFERENCE_DATA,
      'Import',
      'Registered series',
      'Unused forms',
      'Settings',
      'Alert settings',
      'Jobs',
      'Notifications',
      'Profile',
    ],
  ],
  [
    'IT Admin',
    ROLE.IT_ADMIN,
    [...HEAD_OFFICE_WORK, ...REFERENCE_DATA, 'Import', 'Registered series', 'Unused forms', 'Notifications', 'Profile'],
  ],
  ['Custodian', ROLE.CUSTODIAN, [...COUNTING_PAD_WORK, 'Import', 'Notifications', 'Profile']],
  ['Branch Custodian', ROLE.BRANCH_CUSTODIAN, [...PAD_WORK, 'Notifications', 'Profile']],
  ['Branch Head', ROLE.BRANCH_HEAD, [...COUNTING_PAD_WORK, 'Notifications', 'Profile']],
  ['Supervisor', ROLE.SUPERVISOR, [...PAD_WORK, 'Notifications', 'Profile']],
  ['Ticketing Officer', ROLE.TICKETING_OFFICER, [...PAD_WORK, 'Notifications', 'Profile']],
  [
    'Accounting',
    ROLE.ACCOUNTING,
    [
      ...['Custodies', 'Transactions', 'Dashboard', 'Inventories', 'Counts', 'Reports', 'Accountability', 'Incidents', 'Outages'],
      ...['Registered series', 'Unused forms', 'Alert settings', 'Notifications', 'Profile'],
    ],
  ],
  [
    'Auditor',
    ROLE.AUDITOR,
    [
      ...['Custodies', 'Transactions', 'Dashboard', 'Inventories', 'Counts', 'Reports', 'Accountability', 'Incidents', 'Outages'],
      ...['Unused forms', 'Notifications', 'Profile'],
    ],
  ],
  ['Driver', ROLE.DRIVER, ['Custodies', 'Notifications', 'Profile']],
  ['Messenger', ROLE.MESSENGER, ['Custodies', 'Notifications', 'Profile']],
  ['a user without a role', null, ['Custodies', 'Notifications', 'Profile']],
];

describe('the navigation rail', () => {
  it.each(MENUS)('when %s signs in, then the rail lists exactly their screens, Profile last', (_name, roleId, expected) => {
    expect(labels(user(roleId))).toEqual(expected);
  });

  it.each(MENUS)('when %s signs in, then the rail holds every screen the role may open', (_name, roleId) => {
    const actor = user(roleId);
    const onRail = navItems(actor).map((item) => item.path.slice(1));
    const mayOpen = Object.keys(SCREEN_ROLES).filter((screen) => canOpenScreen(actor, screen));
    expect(onRail.sort()).toEqual(mayOpen.sort());
  });

  it('when nobody is signed in, then only Profile is left (the shell sends them to sign in first)', () => {
    expect(labels(null)).toEqual(['Profile']);
  });

  it('when the rail draws an entry, then each has its own icon', () => {
    const paths = new Set(MENUS.flatMap(([, roleId]) => navItems(user(roleId)).map((item) => item.path)));
    for (const path of paths) expect(ICONS[path], path).toBeDefined();
  });

  it('when something waits for the user behind an entry, then its count shows as a badge, and nothing shows for none', () => {
    expect(waitingBadge(3)).toBe(3);
    expect(waitingBadge(0)).toBeNull();
    expect(waitingBadge(undefined)).toBeNull();
  });

  it('when a screen or one of its details is open, then its entry is the active one', () => {
    expect(isActivePath('/pads', '/pads')).toBe(true);
    expect(isActivePath('/pads/17', '/pads')).toBe(true);
    expect(isActivePath('/invoices/17', '/pads')).toBe(false);
  });
});
