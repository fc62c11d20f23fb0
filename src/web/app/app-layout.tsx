import { ActionIcon, AppShell, Avatar, Burger, Group, Menu, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconLogout, IconQrcode } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, useState, type ComponentProps } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { MSG } from '../../shared/messages.ts';
import { can, homePath } from '../../shared/permissions.ts';
import { LoadingOverlay } from '../components/loading-overlay.tsx';
import { MountOnceOpened } from '../components/mount-once-opened.tsx';
import { notify } from '../components/notify.ts';
import { accountApi } from '../features/accounts/api.ts';
import { myActionQueries } from '../features/my-actions/api.ts';
import { NeedsMyAction } from '../features/my-actions/needs-my-action.tsx';
import { NotificationBell } from '../features/notifications/notification-bell.tsx';
import { setupQueries } from '../features/setup/api.ts';
import { SetupChecklist } from '../features/setup/setup-checklist.tsx';
import { useMenuCounts } from '../features/my-actions/use-menu-counts.ts';
import { sessionStore, useSession } from '../lib/session.ts';
import { useNavCollapsed } from '../lib/use-nav-collapsed.ts';
import { FindReceiptBox } from './find-receipt.tsx';
import { navItems } from './nav-items.ts';
import { NavRail, RAIL_WIDTH } from './nav-rail.tsx';
import { OfflineBanner } from '../components/offline-banner.tsx';
import { useOfflineSupport } from '../lib/use-offline-support.ts';
import { useMedia } from '../lib/use-media.ts';
import { useMenuAfterFirstPaint } from '../lib/use-after-first-paint.ts';

export const APP_VERSION = '1.0.0';

const QrCodeModal = lazy(() => import('./qr-code-modal.tsx').then((m) => ({ default: m.QrCodeModal })));

/** The rail reads the menu counts itself: a poll answer then redraws the rail alone, not the shell and the screen in it. */
function CountedNavRail(props: Omit<ComponentProps<typeof NavRail>, 'counts'>) {
  return <NavRail {...props} counts={useMenuCounts()} />;
}

/**
 * The role's home: the setup checklist and "Needs my action" above the screen. The screen renders at once but shows only
 * when both cards have their answer, so the cards appear with it instead of pushing it down the page.
 */
function HomeScreen({ admin }: { admin: boolean }) {
  const setup = useQuery({ ...setupQueries.status(), enabled: admin });
  const mine = useQuery(myActionQueries.mine());
  const waiting = (query: { isPending: boolean; failureCount: number }) => query.isPending && query.failureCount === 0;
  const cardsPending = (admin && waiting(setup)) || waiting(mine);
  return (
    <>
      <SetupChecklist />
      <NeedsMyAction />
      <div style={cardsPending ? { display: 'none' } : undefined}>
        <Outlet />
      </div>
    </>
  );
}

/** Who is signed in, in the header: My QR Code and Logout. The menu itself mounts after the first paint (useMenuAfterFirstPaint). */
function AccountMenu({
  name,
  initial,
  role,
  onQrCode,
  onLogout,
}: {
  name: string;
  initial: string;
  role: string;
  onQrCode: () => void;
  onLogout: () => void;
}) {
  const { mounted, openedEarly, ref, placeholder } = useMenuAfterFirstPaint<HTMLButtonElement>();
  const trigger = (
    <UnstyledButton
      ref={ref}
      data-testid="account-menu"
      {...(mounted ? {} : { ...placeholder, 'aria-haspopup': 'menu', 'aria-expanded': false })}
    >
      <VisuallyHidden>Account menu</VisuallyHidden>
      <Group gap="xs" wrap="nowrap">
        <Avatar color="blue" radius="xl" size={32} aria-hidden>
          {initial}
        </Avatar>
        {/* On a phone the name and role stay in the header; the receipt finder folds into an icon to leave them the room. */}
        <Stack gap={0} maw={{ base: 150, xs: 200, sm: 240 }} miw={0}>
          <Text size="sm" fw={600} lh={1.2} truncate="end">
            {name}
          </Text>
          <Text size="xs" c="dimmed" lh={1.2} truncate="end">
            {role}
          </Text>
        </Stack>
        <IconChevronDown size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
  if (!mounted) return trigger;
  return (
    <Menu position="bottom-end" width={200} withinPortal defaultOpened={openedEarly}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconQrcode size={16} />} onClick={onQrCode}>
          My QR Code
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={onLogout}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function FooterText() {
  return (
    <>
      <Text size="xs" c="dimmed">
        © {new Date().getFullYear()} PadTrack. All rights reserved.
      </Text>
      <Text size="xs" c="dimmed">
        Version {APP_VERSION}
      </Text>
    </>
  );
}

/** Header, the navigation rail by role (a hamburger drawer on phones), and footer around every signed-in screen. */
export function AppLayout() {
  const session = useSession();
  const [navOpen, nav] = useDisclosure(false);
  const wide = useMedia('(min-width: 90em)');
  const desktop = useMedia('(min-width: 48em)');
  const [qrOpen, qr] = useDisclosure(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = session?.user;
  const [railCollapsed, toggleRail] = useNavCollapsed(user?.id, !wide);
  const collapsed = desktop && railCollapsed;
  useOfflineSupport(user?.id);

  const logout = async () => {
    setLoggingOut(true);
    try {
      await accountApi.logout();
    } catch {
      notify.error(MSG.logoutFailed);
    } finally {
      sessionStore.clear();
      queryClient.clear();
      setLoggingOut(false);
      navigate('/login', { replace: true });
    }
  };

  const items = navItems(user);
  const atHome = useLocation().pathname === homePath(user?.role_id);
  // docs/design.md §5: nothing opens (the server would refuse it) until a password an administrator chose is replaced.
  if (session?.must_change_credentials && !session.ended) return <Navigate to="/change-password" replace />;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: collapsed ? RAIL_WIDTH.collapsed : RAIL_WIDTH.expanded, breakpoint: 'sm', collapsed: { mobile: !navOpen } }}
      footer={desktop ? { height: 40 } : undefined}
      padding="md"
    >
      <LoadingOverlay visible={loggingOut} message="Logging out..." />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpen} onClick={nav.toggle} hiddenFrom="sm" aria-label="Toggle navigation" size="sm" />
            <ActionIcon
              visibleFrom="sm"
              variant="subtle"
              color="gray"
              size="lg"
              onClick={toggleRail}
              aria-label={railCollapsed ? 'Expand navigation' : 'Collapse navigation'}
              aria-expanded={!railCollapsed}
            >
              {railCollapsed ? (
                <IconLayoutSidebarLeftExpand size={22} stroke={1.6} />
              ) : (
                <IconLayoutSidebarLeftCollapse size={22} stroke={1.6} />
              )}
            </ActionIcon>
            {/* On a phone the name and role of who is signed in need the room more than the wordmark. */}
            <Text fw={800} c="blue.8" size="lg" visibleFrom="xs">
              PadTrack
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {can(user, 'ledger.read') ? <FindReceiptBox compact={!desktop} /> : null}
            <NotificationBell enabled={Boolean(user) && !session?.ended} />
            <AccountMenu
              name={user?.full_name || 'User'}
              initial={(user?.first_name?.[0] ?? 'U').toUpperCase()}
              role={user?.role?.name ?? 'No role'}
              onQrCode={qr.open}
              onLogout={logout}
            />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation" inert={!desktop && !navOpen}>
        {/* On a phone the drawer's menu is drawn the first time it opens: the first screen has less to draw. */}
        <MountOnceOpened when={desktop || navOpen}>
          <CountedNavRail items={items} collapsed={collapsed} onNavigate={nav.close} onLogout={logout} />
        </MountOnceOpened>
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <OfflineBanner />
        {atHome ? <HomeScreen admin={can(user, 'administer')} /> : <Outlet />}
        {/* On a phone the footer ends the page instead of covering its last lines. */}
        {desktop ? null : (
          <Group component="footer" mt="xl" py="sm" justify="space-between" data-testid="page-footer">
            <FooterText />
          </Group>
        )}
      </AppShell.Main>
      {desktop ? (
        <AppShell.Footer>
          <Group h="100%" px="md" justify="space-between">
            <FooterText />
          </Group>
        </AppShell.Footer>
      ) : null}
      <MountOnceOpened when={qrOpen}>
        <QrCodeModal opened={qrOpen} onClose={qr.close} />
      </MountOnceOpened>
    </AppShell>
  );
}
