import { Alert, Loader, Stack, Text } from '@mantine/core';
import type { RaafRollup } from '../../../shared/schemas/ledger.ts';
import { countText } from '../../../shared/format.ts';
import { errorMessage } from '../../lib/api.ts';
import type { HolderParam } from './api.ts';
import { HolderTotals } from './consolidated-view.tsx';
import { BalanceLine, RaafTable } from './raaf-table.tsx';

/**
 * A branch's roll-up (docs/design.md §10): per route the four groups summed over the branch's stock and its staff,
 * then each holder's totals with a button to their own RAAF.
 */
export function RollupView({
  rollup,
  error,
  ended,
  phone,
  onView,
}: {
  rollup: RaafRollup | undefined;
  error: unknown;
  ended: boolean;
  phone: boolean;
  onView: (holder: HolderParam) => void;
}) {
  if (error) return <Alert color="red">{errorMessage(error)}</Alert>;
  if (!rollup) return <Loader size="sm" role="status" aria-label="Loading report" />;
  const certified = rollup.holders.filter((h) => h.certificate).length;
  return (
    <Stack gap="sm">
      <Text size="sm" data-testid="raaf-holder">
        Branch roll-up: <b>{rollup.branch.name}</b> (branch stock and{' '}
        {countText(rollup.holders.filter((h) => h.holder.type === 'user').length)} staff with forms this month)
      </Text>
      <RaafTable rows={rollup.rows} totals={rollup.totals} withRemarks={false} phone={phone} label="Branch roll-up RAAF" />
      <BalanceLine totals={rollup.totals} />
      <Text size="sm" c="dimmed">
        The roll-up is the sum of the holders&apos; own reports; each holder certifies their own
        {ended ? ` (${certified} of ${rollup.holders.length} have).` : ' after the month ends.'}
      </Text>
      <HolderTotals holders={rollup.holders} ended={ended} onView={onView} label="Holders in the roll-up" withBranch={false} />
    </Stack>
  );
}
