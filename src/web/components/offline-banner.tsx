import { Alert, Group, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { MSG } from '../../shared/messages.ts';
import { useClock } from '../lib/clock.ts';
import { useOnline } from '../lib/use-online.ts';
import { useOutbox } from '../lib/outbox.ts';

/** docs/design.md §2 offline: the banner over every signed-in screen while the phone has no network. */
export function OfflineBanner() {
  const online = useOnline();
  const waiting = useOutbox().filter((action) => action.state === 'waiting').length;
  if (online) return null;
  return (
    <Alert color="orange" variant="filled" role="status" icon={<IconWifiOff size={18} aria-hidden />} p="xs" mb="sm" radius={0}>
      <Text size="sm" fw={600}>
        {MSG.offlineBanner}
        {waiting > 0 ? ` ${waiting} ${waiting === 1 ? 'action' : 'actions'} ${MSG.waitingToSend}.` : ''}
      </Text>
    </Alert>
  );
}

/**
 * Under a list or picker: while offline, when what it shows was saved ("No connection — showing what was saved at 14:02"),
 * in the body's own dark text and bold, the line a courier must read in sunlight; the orange icon only marks it.
 */
export function OfflineNote({ updatedAt }: { updatedAt: number }) {
  const online = useOnline();
  const clock = useClock();
  if (online) return null;
  return (
    <Group gap={6} wrap="nowrap" role="status">
      <IconWifiOff size={16} color="var(--mantine-color-orange-9)" aria-hidden style={{ flexShrink: 0 }} />
      <Text size="sm" fw={600}>
        {updatedAt > 0 ? MSG.offlineSavedAt(clock.time(updatedAt)) : MSG.offline}
      </Text>
    </Group>
  );
}

/** A picker's "nothing found" text: offline it blames the network, never the search (docs/design.md §2 offline). */
export function useNothingFound(text: string, updatedAt: number): string {
  const online = useOnline();
  const clock = useClock();
  if (online) return text;
  return updatedAt > 0 ? MSG.offlineSavedAt(clock.time(updatedAt)) : MSG.offline;
}
