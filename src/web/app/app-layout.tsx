import { AppShell, Avatar, Burger, Group, Menu, NavLink, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconLogout, IconQrcode, IconUser } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { MSG } from '../../shared/messages.ts';
import { can, menuFor } from '../../shared/permissions.ts';
import { LoadingOverlay } from '../components/loading-overlay.tsx';
import { notify } from '../components/notify.ts';
import { accountApi } from '../features/accounts/api.ts';
import { sessionStore, useSession } from '../lib/session.ts';
import { FindReceiptBox } from './find-receipt.tsx';
import { QrCodeModal } from './qr-code-modal.tsx';

export const APP_VERSION = '1.0.0';

/** Header, hamburger navigation by role, and footer around every signed-in screen. */
export function AppLayout() {
  const session = useSession();
  const [navOpen, nav] = useDisclosure(false);
  const wide = useMediaQuery('(min-width: 90em)', true, { getInitialValueInEffect: false });
  const [deskOpen, desk] = useDisclosure(wide);
  const [qrOpen, qr] = useDisclosure(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = session?.user;

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

  const items = [...menuFor(user), { label: 'Profile', path: '/user-profile' }];

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpen, desktop: !deskOpen } }}
      footer={{ height: 40 }}
      padding="md"
    >
      <LoadingOverlay visible={loggingOut} message="Logging out..." />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpen} onClick={nav.toggle} hiddenFrom="sm" aria-label="Toggle navigation" size="sm" />
            <Burger opened={deskOpen} onClick={desk.toggle} visibleFrom="sm" aria-label="Toggle navigation" size="sm" />
            <Text fw={800} c="blue.8" size="lg">
              PadTrack
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {can(user, 'ledger.read') ? <FindReceiptBox /> : null}
            <Menu position="bottom-end" width={200} withinPortal>
              <Menu.Target>
                <UnstyledButton aria-label="Account menu">
                  <Group gap="xs" wrap="nowrap">
                    <Avatar color="blue" radius="xl" size={32}>
                      {(user?.first_name?.[0] ?? 'U').toUpperCase()}
                    </Avatar>
                    <Stack gap={0} visibleFrom="xs">
                      <Text size="sm" fw={600} lh={1.2}>
                        {user?.full_name || 'User'}
                      </Text>
                      <Text size="xs" c="dimmed" lh={1.2}>
                        {user?.role?.name ?? 'No role'}
                      </Text>
                    </Stack>
                    <IconChevronDown size={14} />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label hiddenFrom="xs">
                  {user?.full_name || 'User'} · {user?.role?.name ?? 'No role'}
                </Menu.Label>
                <Menu.Item leftSection={<IconQrcode size={16} />} onClick={qr.open}>
                  My QR Code
                </Menu.Item>
                <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={logout}>
                  Logout
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <ScrollArea>
          {items.map((item) => (
            <NavLink
              key={item.path}
              component={Link}
              to={item.path}
              label={item.label}
              active={location.pathname.startsWith(item.path)}
              onClick={nav.close}
              leftSection={item.path === '/user-profile' ? <IconUser size={16} /> : undefined}
            />
          ))}
          <NavLink component="button" label="Logout" leftSection={<IconLogout size={16} />} onClick={logout} c="red" />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer>
        <Group h="100%" px="md" justify="space-between">
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} PadTrack. All rights reserved.
          </Text>
          <Text size="xs" c="dimmed">
            Version {APP_VERSION}
          </Text>
        </Group>
      </AppShell.Footer>
      <QrCodeModal opened={qrOpen} onClose={qr.close} />
    </AppShell>
  );
}
