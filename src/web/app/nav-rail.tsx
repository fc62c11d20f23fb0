import { Badge, Indicator, NavLink, ScrollArea, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconArrowsExchange,
  IconBuildingSkyscraper,
  IconBuildingStore,
  IconCircle,
  IconCertificate,
  IconFileImport,
  IconListNumbers,
  IconClipboardCheck,
  IconLayoutDashboard,
  IconLogout,
  IconMapPin,
  IconNotebook,
  IconReportAnalytics,
  IconRoute,
  IconShieldLock,
  IconTruckDelivery,
  IconUser,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';

const ICONS: Record<string, Icon> = {
  '/dashboard': IconLayoutDashboard,
  '/imports': IconFileImport,
  '/registered-series': IconCertificate,
  '/unused-forms': IconListNumbers,
  '/custodies': IconTruckDelivery,
  '/invoices': IconArrowsExchange,
  '/pads': IconNotebook,
  '/reports': IconReportAnalytics,
  '/accountability': IconClipboardCheck,
  '/companies': IconBuildingSkyscraper,
  '/routes': IconRoute,
  '/branches': IconBuildingStore,
  '/locations': IconMapPin,
  '/users': IconUsers,
  '/roles': IconShieldLock,
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
  const shown = count !== undefined && count > 0;
  const link = (
    <NavLink
      component={Link}
      to={path}
      label={collapsed ? <VisuallyHidden>{label}</VisuallyHidden> : label}
      active={location.pathname.startsWith(path)}
      aria-description={shown ? `${count} waiting for you` : undefined}
      onClick={onNavigate}
      leftSection={
        collapsed && shown ? (
          <Indicator label={count} size={16} color="red" offset={2} aria-hidden>
            {icon}
          </Indicator>
        ) : (
          icon
        )
      }
      rightSection={
        !collapsed && shown ? (
          <Badge size="sm" color="red" circle={count < 10} aria-hidden>
            {count}
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
