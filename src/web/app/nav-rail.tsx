import { Badge, Indicator, NavLink, ScrollArea, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconArrowsExchange,
  IconBuildingSkyscraper,
  IconBuildingStore,
  IconAlertTriangle,
  IconPlugConnectedX,
  IconCircle,
  IconCertificate,
  IconFileImport,
  IconListNumbers,
  IconClipboardCheck,
  IconClipboardList,
  IconLayoutDashboard,
  IconLogout,
  IconMapPin,
  IconNotebook,
  IconReportAnalytics,
  IconRoute,
  IconSettings,
  IconShieldLock,
  IconTruckDelivery,
  IconUser,
  IconUsers,
  IconBell,
  IconBellCog,
  IconClockPlay,
  type Icon,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { isActivePath, waitingBadge } from './nav-items.ts';

/** Each menu path's icon; a path without one shows a plain circle. */
export const ICONS: Record<string, Icon> = {
  '/dashboard': IconLayoutDashboard,
  '/imports': IconFileImport,
  '/registered-series': IconCertificate,
  '/unused-forms': IconListNumbers,
  '/custodies': IconTruckDelivery,
  '/invoices': IconArrowsExchange,
  '/pads': IconNotebook,
  '/reports': IconReportAnalytics,
  '/accountability': IconClipboardCheck,
  '/counts': IconClipboardList,
  '/incidents': IconAlertTriangle,
  '/outages': IconPlugConnectedX,
  '/companies': IconBuildingSkyscraper,
  '/routes': IconRoute,
  '/branches': IconBuildingStore,
  '/locations': IconMapPin,
  '/users': IconUsers,
  '/roles': IconShieldLock,
  '/settings': IconSettings,
  '/alert-settings': IconBellCog,
  '/jobs': IconClockPlay,
  '/notifications': IconBell,
  '/user-profile': IconUser,
};

/** Expanded and collapsed widths of the rail in pixels. */
export const RAIL_WIDTH = { expanded: 220, collapsed: 60 };

function RailLink({
  label,
  path,
  count,
  collapsed,
  onNavigate,
}: {
  label: string;
  path: string;
  count?: number;
  collapsed: boolean;
  onNavigate: () => void;
}) {
  const location = useLocation();
  const ItemIcon = ICONS[path] ?? IconCircle;
  const icon = <ItemIcon size={20} stroke={1.6} aria-hidden />;
  const badge = waitingBadge(count);
  const link = (
    <NavLink
      component={Link}
      to={path}
      label={collapsed ? <VisuallyHidden>{label}</VisuallyHidden> : label}
      active={isActivePath(location.pathname, path)}
      py={collapsed ? RAIL_ICON_PADDING : undefined}
      aria-description={badge === null ? undefined : `${badge} waiting for you`}
      onClick={onNavigate}
      leftSection={
        collapsed && badge !== null ? (
          <Indicator label={badge} size={16} color="red" offset={2} aria-hidden>
            {icon}
          </Indicator>
        ) : (
          icon
        )
      }
      rightSection={
        !collapsed && badge !== null ? (
          <Badge size="sm" color="red" circle={badge < 10} aria-hidden>
            {badge}
          </Badge>
        ) : undefined
      }
    />
  );
  return collapsed ? (
    <Tooltip label={label} position="right" withArrow openDelay={150}>
      {link}
    </Tooltip>
  ) : (
    link
  );
}

/** Icons alone sit closer, so an Admin's whole menu stays in view on a 900 px tall screen. */
const RAIL_ICON_PADDING = 5;

/**
 * The menu of the user's role as a rail: icons and labels, or icons alone with the label as tooltip and
 * accessible name when collapsed; `counts` (by menu path) show as badges.
 */
export function NavRail({
  items,
  collapsed,
  counts,
  onNavigate,
  onLogout,
}: {
  items: Array<{ label: string; path: string }>;
  collapsed: boolean;
  counts?: Partial<Record<string, number>>;
  onNavigate: () => void;
  onLogout: () => void;
}) {
  const logout = (
    <NavLink
      component="button"
      label={collapsed ? <VisuallyHidden>Logout</VisuallyHidden> : 'Logout'}
      leftSection={<IconLogout size={20} stroke={1.6} aria-hidden />}
      onClick={onLogout}
      py={collapsed ? RAIL_ICON_PADDING : undefined}
      c="red.8"
    />
  );
  return (
    <ScrollArea>
      {items.map((item) => (
        <RailLink
          key={item.path}
          label={item.label}
          path={item.path}
          count={counts?.[item.path]}
          collapsed={collapsed}
          onNavigate={onNavigate}
        />
      ))}
      {collapsed ? (
        <Tooltip label="Logout" position="right" withArrow openDelay={150}>
          {logout}
        </Tooltip>
      ) : (
        logout
      )}
    </ScrollArea>
  );
}
