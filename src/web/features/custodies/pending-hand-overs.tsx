import { Alert, Group, Stack, Text } from '@mantine/core';
import { IconClockPause, IconHandStop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { acceptQuestion, asksToAccept, handOverPending } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { useAnswerHandOver } from '../../lib/use-answer-hand-over.ts';
import { custodyQueries } from './api.ts';

/**
 * docs/design.md §5 two-party hand-over on the Custodies screen: the receiver's "Nestor hands you Return #17, 2 pads
 * (Batangas-Calapan pads 4, 5) — Accept custody?" with Accept and Decline, and for the giver each hand-over still
 * waiting on its receiver.
 */
export function PendingHandOvers() {
  const pending = useQuery(custodyQueries.pendingHandOvers());
  const answer = useAnswerHandOver();
  const respond = async (id: number, accept: boolean) => {
    try {
      notify.success((await answer.mutateAsync({ id, accept })).message);
    } catch (failure) {
      notify.error(errorMessage(failure));
    }
  };
  const userId = useSession()?.user.id ?? 0;
  const all = [...(pending.data?.incoming ?? []), ...(pending.data?.outgoing ?? [])];
  const incoming = all.filter((p) => asksToAccept(userId, p));
  const outgoing = all.filter((p) => !asksToAccept(userId, p));
  if (incoming.length === 0 && outgoing.length === 0) return null;
  return (
    <Stack gap="xs" mb="sm">
      {incoming.map((p) => (
        <Alert key={p.invoice_id} color="blue" variant="light" icon={<IconHandStop size={18} aria-hidden />} title="Hand-over for you">
          <Stack gap="xs">
            <Text size="sm">{acceptQuestion(p)}</Text>
            <Group gap="xs">
              <AppButton size="compact-md" loading={answer.isPending} onClick={() => void respond(p.invoice_id, true)}>
                Accept custody
              </AppButton>
              <AppButton
                size="compact-md"
                variant="secondary"
                disabled={answer.isPending}
                onClick={() => void respond(p.invoice_id, false)}
              >
                Decline
              </AppButton>
            </Group>
          </Stack>
        </Alert>
      ))}
      {outgoing.map((p) => (
        <Alert key={p.invoice_id} color="gray" variant="light" icon={<IconClockPause size={18} aria-hidden />}>
          <Text size="sm">
            {p.invoice_type} #{p.invoice_id}: {handOverPending(p.to_name)}
          </Text>
        </Alert>
      ))}
    </Stack>
  );
}
