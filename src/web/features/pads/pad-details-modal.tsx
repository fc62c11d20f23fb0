import { Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { routeLabel } from '../../../shared/format.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import { HeldBy, PadHistoryTimeline } from '../../components/pad-history-timeline.tsx';
import { errorMessage } from '../../lib/api.ts';
import { ledgerQueries } from '../../lib/ledger-queries.ts';
import { SeriesGrid } from './series-grid.tsx';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children === null || children === undefined || children === '' ? '-' : children}
      </Text>
    </div>
  );
}

/** Who holds the pad now (docs/design.md §5 "Custody model"), or the invoice and courier carrying it. */
function PadHolder({ padId }: { padId: number }) {
  const history = useQuery(ledgerQueries.padHistory(padId));
  if (history.isPending) return <Loader size="sm" aria-label="Loading holder" />;
  if (!history.data) return <Text c="red">{errorMessage(history.error)}</Text>;
  return <HeldBy history={history.data} />;
}

/** The pad's custody chain from the ledger (docs/design.md §8), oldest first. */
function PadHistorySection({ padId }: { padId: number }) {
  const history = useQuery(ledgerQueries.padHistory(padId));
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        History
      </Title>
      {history.isPending ? <Loader size="sm" aria-label="Loading history" /> : null}
      {history.data ? <PadHistoryTimeline events={history.data.events} /> : null}
    </Stack>
  );
}

/** docs/spec.md §2 Pad Details: read-only fields, the series grid with its legend, who holds it, its history, and Close. */
export function PadDetailsModal({ pad, onClose }: { pad: Pad | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={pad !== null} onClose={onClose} title="Pad Details" size="xl" centered fullScreen={phone}>
      {pad ? (
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm">
            <Detail label="Route">{routeLabel(pad.route)}</Detail>
            <Detail label="Pad Number">{pad.number}</Detail>
            <Detail label="Series Number">{pad.series_number}</Detail>
            <Detail label="Pad Status">{pad.pad_status.name}</Detail>
            <Detail label="Issuance Status">{pad.issuance_status.name}</Detail>
            <Detail label="Remarks">{pad.remarks}</Detail>
          </SimpleGrid>
          <PadHolder padId={pad.id} />
          <SeriesGrid series={pad.series} />
          <PadHistorySection padId={pad.id} />
          <Group justify="flex-end">
            <AppButton variant="secondary" onClick={onClose}>
              Close
            </AppButton>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
