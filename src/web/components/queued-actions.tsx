import { Alert, Group, Stack, Text } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import { MSG } from '../../shared/messages.ts';
import type { QueuedAction } from '../lib/offline-store.ts';
import { outbox, useOutbox } from '../lib/outbox.ts';
import { useSession } from '../lib/session.ts';
import { AppButton } from './app-button.tsx';

/**
 * The actions made on this phone without network (hand-overs, usage, loss reports): "waiting to send", or refused with
 * the server's reason until dismissed. `only` narrows it to what a screen is about (one pad's).
 */
export function QueuedActions({ only }: { only?: (action: QueuedAction) => boolean }) {
  const session = useSession();
  const queued = useOutbox().filter((action) => !only || only(action));
  if (queued.length === 0 || !session) return null;
  return (
    <Stack gap="xs" mb="sm" data-testid="queued-actions">
      {queued.map((action) =>
        action.state === 'waiting' ? (
          <Alert key={action.key} color="orange" variant="light" icon={<IconClockPause size={18} aria-hidden />}>
            <Text size="sm">
              {action.label} — {MSG.waitingToSend}
            </Text>
          </Alert>
        ) : (
          <Alert key={action.key} color="red" variant="light" role="alert" title={`${action.label} — refused`}>
            <Group justify="space-between" gap="xs">
              <Text size="sm">{action.reason}</Text>
              <AppButton size="compact-sm" variant="secondary" onClick={() => void outbox.dismiss(session.user.id, action.key)}>
                Dismiss
              </AppButton>
            </Group>
          </Alert>
        ),
      )}
    </Stack>
  );
}
