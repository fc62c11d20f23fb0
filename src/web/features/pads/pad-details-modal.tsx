import { OfflineNote } from '../../components/offline-banner.tsx';
import { registeredSeriesText } from '../../../shared/format.ts';
import { Group, List, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { rangeText } from './number-outcome-modals.tsx';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { routeLabel } from '../../../shared/format.ts';
import { can } from '../../../shared/permissions.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import { HeldBy, PadHistoryTimeline } from '../../components/pad-history-timeline.tsx';
import { errorMessage } from '../../lib/api.ts';
import { ledgerQueries } from '../../lib/ledger-queries.ts';
import { useSession } from '../../lib/session.ts';
import { OutcomeRequestsSection } from './outcome-requests-section.tsx';
import { PadNumbersPanel, type NumberRights } from './pad-numbers-panel.tsx';
import { usePhone } from '../../lib/use-media.ts';
import { DetailValue } from '../../components/detail-value.tsx';

/** "12 used, 3 cancelled, 35 not used": the states that occur. */
const countsText = (pad: Pad) =>
  (
    [
      ['used', pad.number_counts.used],
      ['cancelled', pad.number_counts.cancelled],
      ['lost', pad.number_counts.lost],
      ['not used', pad.number_counts.not_used],
    ] as const
  )
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');

/** Who holds the pad now (docs/design.md §5 "Custody model"), or the invoice and courier carrying it. */
function PadHolder({ padId }: { padId: number }) {
  const history = useQuery(ledgerQueries.padHistory(padId));
  if (history.isPending) return <Loader size="sm" role="status" aria-label="Loading holder" />;
  if (!history.data) return <Text c="red">{errorMessage(history.error)}</Text>;
  return <HeldBy history={history.data} />;
}

/** The pad's custody chain from the ledger (docs/design.md §8), oldest first, then what still waits for approval (§9). */
function PadHistorySection({ padId, pending }: { padId: number; pending: Pad['pending_outcomes'] }) {
  const history = useQuery(ledgerQueries.padHistory(padId));
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        History
      </Title>
      {history.isPending ? <Loader size="sm" role="status" aria-label="Loading history" /> : null}
      {history.data ? <PadHistoryTimeline events={history.data.events} /> : null}
      {pending.length > 0 ? (
        <List size="sm" aria-label="Pending approval" data-testid="history-pending">
          {pending.map((request) => (
            <List.Item key={request.from}>
              <Text span size="sm" fw={600}>
                {request.outcome === 'cancelled' ? 'Cancellation pending' : 'Loss pending'}
              </Text>
              : {rangeText(request)} ({request.to - request.from + 1}) · asked by {request.requested_by}, waiting for the Branch Head or
              Supervisor
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}

/** What the signed-in user may do to this pad's numbers; the server asks the same rules. */
function useNumberRights(pad: Pad | null): NumberRights {
  const user = useSession()?.user;
  if (!pad) return { use: false, writeOff: false, revert: false };
  return {
    use: can(user, 'number.use', pad),
    writeOff: can(user, 'number.requestOutcome', pad),
    revert: can(user, 'number.revertOutcome', { ...pad, holder_user_branch_id: pad.holder_branch_id }),
  };
}

/**
 * docs/spec.md §2 Pad Details: read-only fields with the next number, who holds it, requests waiting for the user's approval,
 * the series grid (where the user may, with range usage, cancel and lost, docs/design.md §9), its history, the actions the app
 * composes in (Report a loss), and Close.
 */
export function PadDetailsModal({
  pad,
  updatedAt,
  onClose,
  actions,
}: {
  pad: Pad | null;
  /** When the pad shown was fetched: offline, the modal says how old it is. */
  updatedAt: number;
  onClose: () => void;
  actions?: (pad: Pad) => ReactNode;
}) {
  const phone = usePhone();
  const rights = useNumberRights(pad);
  return (
    <Modal opened={pad !== null} onClose={onClose} title="Pad Details" size="xl" centered fullScreen={phone}>
      {pad ? (
        <Stack>
          <OfflineNote updatedAt={updatedAt} />
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm">
            <DetailValue label="Route">{routeLabel(pad.route)}</DetailValue>
            <DetailValue label="Pad Number">{pad.number}</DetailValue>
            <DetailValue label="Series Number">{pad.series_number}</DetailValue>
            <DetailValue label="Pad Status">{pad.pad_status.name}</DetailValue>
            <DetailValue label="Issuance Status">{pad.issuance_status.name}</DetailValue>
            <DetailValue label="Remarks">{pad.remarks}</DetailValue>
            <DetailValue label="Next Number">{pad.next_number ?? 'None left'}</DetailValue>
            <DetailValue label="Numbers">{countsText(pad)}</DetailValue>
            <DetailValue label="Registered series">{registeredSeriesText(pad.registered_series)}</DetailValue>
          </SimpleGrid>
          <PadHolder padId={pad.id} />
          <OutcomeRequestsSection padId={pad.id} />
          <PadNumbersPanel key={pad.id} pad={pad} rights={rights} />
          <PadHistorySection padId={pad.id} pending={pad.pending_outcomes} />
          <Group justify="flex-end" gap="xs">
            {actions?.(pad)}
            <AppButton variant="secondary" onClick={onClose}>
              Close
            </AppButton>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
