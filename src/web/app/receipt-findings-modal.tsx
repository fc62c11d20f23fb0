import { registeredSeriesText } from '../../shared/format.ts';
import { Anchor, Badge, Divider, Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ReceiptFinding } from '../../shared/schemas/ledger.ts';
import { HeldBy, PadHistoryTimeline } from '../components/pad-history-timeline.tsx';
import { padQueries } from '../features/pads/api.ts';
import { SeriesGrid } from '../features/pads/series-grid.tsx';
import { errorMessage } from '../lib/api.ts';
import { useClock } from '../lib/clock.ts';
import { isReceiptNumber, ledgerQueries } from '../lib/ledger-queries.ts';
import { usePhone } from '../lib/use-media.ts';

const STATUS: Record<ReceiptFinding['status'], { label: string; color: string }> = {
  not_used: { label: 'Not Used', color: 'blue' },
  used: { label: 'Used', color: 'teal' },
  cancelled: { label: 'Cancelled', color: 'gray' },
  lost: { label: 'Lost', color: 'red' },
};

/** Why the number is in its state: who recorded the use or write-off and when, the reason, the loss incident; or the deleted pad. */
function OutcomeLine({ finding, onOpenLink }: { finding: ReceiptFinding; onOpenLink: () => void }) {
  const clock = useClock();
  const outcome = finding.outcome;
  return (
    <>
      {finding.voided ? (
        <Text size="sm" c="red" data-testid="receipt-voided">
          Voided on {clock.dayTime(finding.voided.at)} by {finding.voided.by?.full_name ?? 'the system'} (the pad was deleted)
        </Text>
      ) : null}
      {outcome && outcome.state !== 'not_used' ? (
        <Text size="sm" data-testid="receipt-outcome">
          {STATUS[outcome.state].label}
          {outcome.actor ? ` by ${outcome.actor.full_name}` : ''}
          {outcome.recorded_at ? ` on ${clock.dayTime(outcome.recorded_at)}` : ''}
          {outcome.reason ? ` · ${outcome.reason}` : ''}
          {outcome.copies_retained != null ? ` · all copies retained: ${outcome.copies_retained ? 'yes' : 'no'}` : ''}
          {outcome.incident ? (
            <>
              {' · '}
              <Anchor component={Link} to={`/incidents?incident=${outcome.incident.id}`} onClick={onOpenLink} size="sm">
                {outcome.incident.number}
              </Anchor>
            </>
          ) : null}
        </Text>
      ) : null}
    </>
  );
}

function Finding({ finding, receipt, onOpenPad }: { finding: ReceiptFinding; receipt: number; onOpenPad: () => void }) {
  const pad = useQuery({ ...padQueries.one(finding.pad.id), enabled: !finding.voided });
  const status = STATUS[finding.status];
  return (
    <Stack gap="md" data-testid="receipt-finding">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {finding.route.company.name} - {finding.route.name} - {finding.route.tin}
        </Title>
        <Badge color={status.color} size="lg" style={{ flexShrink: 0 }} data-testid="receipt-status">
          {status.label}
        </Badge>
      </Group>
      <OutcomeLine finding={finding} onOpenLink={onOpenPad} />
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        <div>
          <Text size="xs" c="dimmed">
            Pad
          </Text>
          <Anchor component={Link} to={`/pads?pad=${finding.pad.id}`} onClick={onOpenPad} fw={500}>
            Pad {finding.pad.number}
          </Anchor>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Series Number
          </Text>
          <Text fw={500}>{finding.pad.series_number}</Text>
        </div>
        <HeldBy history={finding} />
        <div>
          <Text size="xs" c="dimmed">
            Registered series
          </Text>
          <Text fw={500} data-testid="receipt-series">
            {registeredSeriesText(finding.registered_series)}
          </Text>
        </div>
      </SimpleGrid>
      <Stack gap="xs">
        <Title order={4} size="h6">
          History of receipt no. {receipt}
        </Title>
        <PadHistoryTimeline events={finding.events} label={`History of receipt no. ${receipt}`} />
      </Stack>
      {pad.data ? <SeriesGrid series={pad.data.series} highlight={receipt} /> : null}
      {pad.isPending && !finding.voided ? <Loader size="sm" role="status" aria-label="Loading series" /> : null}
    </Stack>
  );
}

/** The answer panel of the header's "Find receipt no." box (find-receipt.tsx), in a chunk of its own fetched on the first search. */
export function ReceiptFindingsModal({ asked, onClose }: { asked: string | null; onClose: () => void }) {
  const phone = usePhone();
  const findings = useQuery({ ...ledgerQueries.findReceipt(asked ?? ''), enabled: asked !== null && isReceiptNumber(asked) });
  const valid = asked !== null && isReceiptNumber(asked);
  return (
    <Modal opened={asked !== null} onClose={onClose} title={`Receipt no. ${asked ?? ''}`} size="xl" centered fullScreen={phone}>
      <Stack>
        {!valid ? <Text c="red">Enter a receipt number (digits only).</Text> : null}
        {valid && findings.isPending ? <Loader size="sm" role="status" aria-label="Looking up the receipt" /> : null}
        {findings.error ? <Text c="red">{errorMessage(findings.error)}</Text> : null}
        {findings.data && findings.data.length === 0 ? <Text>No pad contains receipt no. {asked}.</Text> : null}
        {findings.data && findings.data.length > 1 ? (
          <Text c="dimmed">
            Receipt no. {asked} is on {findings.data.length} routes.
          </Text>
        ) : null}
        {(findings.data ?? []).map((finding, i) => (
          <Stack key={finding.pad.id} gap="sm">
            {i > 0 ? <Divider /> : null}
            <Finding finding={finding} receipt={Number(asked)} onOpenPad={onClose} />
          </Stack>
        ))}
      </Stack>
    </Modal>
  );
}
