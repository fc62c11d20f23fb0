import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { notificationQueries } from './api.ts';

/** "Notifications, 3 unread": what a screen reader says of the bell, and its tooltip. */
export const bellLabel = (unread: number) => (unread > 0 ? `Notifications, ${unread} unread` : 'Notifications');

/** The header's bell (issue 37): the count of open alerts the user has not read, a link to the Notifications page. */
export function NotificationBell({ enabled }: { enabled: boolean }) {
  const unread = useQuery({ ...notificationQueries.unread(), enabled }).data ?? 0;
  const label = bellLabel(unread);
  return (
    <Indicator
      label={unread > 99 ? '99+' : unread}
      disabled={unread === 0}
      size={18}
      color="red.8"
      offset={6}
      styles={{ indicator: { fontWeight: 700, pointerEvents: 'none' } }}
      attributes={{ indicator: { 'aria-hidden': true } }}
    >
      <ActionIcon component={Link} to="/notifications" variant="subtle" color="gray" size="lg" aria-label={label} title={label}>
        <IconBell size={22} stroke={1.6} aria-hidden />
      </ActionIcon>
    </Indicator>
  );
}
