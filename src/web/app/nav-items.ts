import { menuFor, type Actor, type MenuItem } from '../../shared/permissions.ts';

/** Profile closes every user's menu: the one screen with no role of its own besides Custodies. */
export const PROFILE_ITEM: MenuItem = { label: 'Profile', path: '/user-profile' };

/** The rail's entries for the signed-in user: their role's menu (docs/spec.md §2) then Profile; Logout is the rail's own. */
export const navItems = (actor: Actor | null | undefined): MenuItem[] => [...menuFor(actor), PROFILE_ITEM];

/** The badge a menu entry shows: the count of what waits for the user there, only when something does. */
export const waitingBadge = (count: number | undefined): number | null => (count !== undefined && count > 0 ? count : null);

/** The entry that lights up for an address: the one whose path starts it. */
export const isActivePath = (pathname: string, path: string) => pathname.startsWith(path);
