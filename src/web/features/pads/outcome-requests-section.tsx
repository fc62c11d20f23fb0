import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { OutcomeRequest } from '../../../shared/schemas/outcomes.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { outcomeRequestQueries, useApproveOutcome } from './api.ts';
import { rangeText, RejectRequestModal } from './number-outcome-modals.tsx';

const what = (request: OutcomeRequest) => `${request.outcome === 'cancelled' ? 'cancellation' : 'loss'} of ${rangeText(request)}`;

/**
 * docs/design.md §9 approval: the pad's cancellations and losses waiting for the signed-in approver (the holder's Branch Head or
 * Supervisor, or roles 1, 3, 8), each with Approve and Reject. Needs my action links here.
 */
export function OutcomeRequestsSection({ padId }: { padId: number }) {
  const clock = useClock();
  const pending = useQuery(outcomeRequestQueries.pending());
  const approve = useApproveOutcome();
  const [rejecting, setRejecting] = useState<OutcomeRequest | null>(null);
  const mine = (pending.data ?? []).filter((request) => request.pad.id === padId && request.status === 'pending');
  if (mine.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="pending-outcomes-title">
      <Title order={3} size="h5" id="pending-outcomes-title">
        Waiting for your approval
      </Title>
      {mine.map((request) => (
        <Paper key={request.id} withBorder p="sm" radius="md" data-testid="outcome-request">
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {request.outcome === 'cancelled' ? 'Cancel' : 'Report lost'} {rangeText(request)} ({request.qty})
            </Text>
            <Text size="sm">Reason: {request.reason}</Text>
            {request.copies_retained !== null ? <Text size="sm">All copies retained: {request.copies_retained ? 'Yes' : 'No'}</Text> : null}
            <Text size="xs" c="dimmed">
              Asked by {request.requested_by.full_name} · {clock.dayTime(request.requested_at)}
            </Text>
            <Group gap="xs" mt={4}>
              <AppButton
                size="compact-sm"
                loading={approve.isPending && approve.variables === request.id}
                onClick={() =>
                  approve.mutate(request.id, {
                    onSuccess: (answer) => notify.success(answer.message),
                    onError: (error) => notify.error(errorMessage(error)),
                  })
                }
                aria-label={`Approve ${what(request)}`}
              >
                Approve
              </AppButton>
              <AppButton size="compact-sm" variant="secondary" onClick={() => setRejecting(request)} aria-label={`Reject ${what(request)}`}>
                Reject
              </AppButton>
            </Group>
          </Stack>
        </Paper>
      ))}
      {rejecting ? <RejectRequestModal requestId={rejecting.id} what={what(rejecting)} onClose={() => setRejecting(null)} /> : null}
    </Stack>
  );
}
