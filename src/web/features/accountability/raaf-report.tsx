import { Alert, Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { countText } from '../../../shared/format.ts';
import type { Raaf, RaafRollup } from '../../../shared/schemas/ledger.ts';
import { LastCounted } from '../../components/last-counted.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import type { HolderParam } from './api.ts';
import { monthLabel } from './months.ts';
import { BalanceLine, RaafTable } from './raaf-table.tsx';
import { RollupView } from './rollup-view.tsx';

function CertificateBadge({ raaf }: { raaf: Raaf }) {
  const certificate = raaf.certificate;
  if (!certificate) return <Badge color="gray">Not certified</Badge>;
  return (
    <Badge color={certificate.reviewed_at ? 'teal' : 'blue'} size="lg" data-testid="certificate-badge">
      {certificate.number} · {certificate.reviewed_at ? 'Reviewed' : 'Certified'}
    </Badge>
  );
}

/** One holder's certification state under the table: when certified and reviewed, or who certifies and when. */
function CertificationNote({ raaf, ended }: { raaf: Raaf; ended: boolean }) {
  const clock = useClock();
  const certificate = raaf.certificate;
  if (certificate)
    return (
      <Text size="sm" c="dimmed">
        Certified {clock.dayTime(certificate.certified_at)}
        {certificate.reviewed_at ? ` · reviewed ${clock.dayTime(certificate.reviewed_at)}` : ' · not reviewed yet'}
      </Text>
    );
  return ended ? (
    <Text size="sm" c="dimmed">
      Not certified yet. Only the holder certifies (for a branch&apos;s stock, its custodian or head).
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      The month has not ended; the holder certifies it after the last day.
    </Text>
  );
}

/**
 * The Report of Accountability for Accountable Forms (docs/design.md §8): one holder's RAAF with its certificate, or a
 * branch's roll-up when `rollupBranch` is set.
 */
export function RaafReport({
  month,
  ended,
  phone,
  param,
  rollupBranch,
  shown,
  error,
  rollup,
  rollupError,
  onView,
}: {
  month: string;
  ended: boolean;
  phone: boolean;
  param: HolderParam;
  rollupBranch: number | null;
  /** The holder's RAAF once it is the one asked for. */
  shown: Raaf | undefined;
  error: unknown;
  rollup: RaafRollup | undefined;
  rollupError: unknown;
  onView: (holder: HolderParam) => void;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div>
            <Title order={2} size="h4">
              Report of Accountability for Accountable Forms
            </Title>
            <Text size="sm" c="dimmed">
              {rollupBranch === null ? '' : 'Branch roll-up · '}For the Month of {monthLabel(month)}
              {ended ? '' : ' (to date)'}
            </Text>
          </div>
          {shown ? <CertificateBadge raaf={shown} /> : null}
        </Group>
        {rollupBranch !== null ? <RollupView rollup={rollup} error={rollupError} ended={ended} phone={phone} onView={onView} /> : null}
        {rollupBranch === null ? <LastCounted holder={param} /> : null}
        {rollupBranch === null && error ? <Alert color="red">{errorMessage(error)}</Alert> : null}
        {rollupBranch === null && !shown && !error ? <Loader size="sm" role="status" aria-label="Loading report" /> : null}
        {shown ? (
          <>
            <Text size="sm" data-testid="raaf-holder">
              Accountable officer: <b>{shown.holder.name}</b>
              {shown.holder.type === 'user' && shown.holder.branch
                ? `, ${shown.holder.branch.name}`
                : shown.holder.type === 'branch'
                  ? ' (branch stock)'
                  : ''}
            </Text>
            <RaafTable rows={shown.rows} totals={shown.totals} phone={phone} label="RAAF" />
            <BalanceLine totals={shown.totals} />
            {shown.in_transit.map((memo) => (
              <Text key={memo.invoice_id} size="sm" c="orange.8">
                In transit at month end: invoice #{memo.invoice_id}, {countText(memo.qty)} numbers
                {memo.courier ? ` with ${memo.courier}` : ''}; they stay on this holder&apos;s Ending Balance.
              </Text>
            ))}
            <CertificationNote raaf={shown} ended={ended} />
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
