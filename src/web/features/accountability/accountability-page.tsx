import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { can, canOpenScreen } from '../../../shared/permissions.ts';
import { dateInZone } from '../../../shared/format.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { currentSearchParams } from '../../lib/current-search-params.ts';
import { useSession } from '../../lib/session.ts';
import { usePhone } from '../../lib/use-media.ts';
import { accountabilityQueries } from './api.ts';
import { CertificatesList } from './certificates-list.tsx';
import { ConsolidatedView } from './consolidated-view.tsx';
import { HolderPicker } from './holder-picker.tsx';
import { HOLDER, holderParam, holderValue, MONTH, openingHolder, reportHolderValue, ROLLUP } from './holders.ts';
import { previousMonth } from './months.ts';
import { RaafActions } from './raaf-actions.tsx';
import { RaafReport } from './raaf-report.tsx';

/**
 * Accountability (docs/design.md §8): the month and holder named in the address, that holder's RAAF (or a branch
 * roll-up) with its files, certification and review, the consolidated view and the certificates.
 */
export function AccountabilityPage() {
  const clock = useClock();
  const user = useSession()?.user;
  const phone = usePhone();
  const [search, setSearch] = useSearchParams();
  const current = dateInZone(new Date(), clock.zone).slice(0, 7);
  const asked = search.get('month') ?? '';
  const month = MONTH.test(asked) && asked <= current ? asked : previousMonth(current);
  const askedHolder = search.get('holder') ?? '';
  const namedHolder = HOLDER.test(askedHolder);
  const holds = useQuery(accountabilityQueries.holdsPads(!namedHolder && (user?.branch_id ?? null) !== null));
  const holder = namedHolder ? askedHolder : openingHolder(user, holds.isError ? false : holds.data);
  const rollupBranch = holder?.startsWith(ROLLUP) ? Number(holder.slice(ROLLUP.length)) : null;
  const param = holderParam(holder && rollupBranch === null ? holder : `u:${user?.id ?? 0}`);
  const ended = month < current;

  const consolidated = can(user, 'raaf.consolidated');
  const raaf = useQuery({ ...accountabilityQueries.raaf(month, param), enabled: holder !== undefined && rollupBranch === null });
  const rollup = useQuery(accountabilityQueries.rollup(month, rollupBranch ?? 0));
  const summary = useQuery(accountabilityQueries.summary(month, consolidated));

  const extra = useMemo(() => {
    const holders = [...(summary.data?.holders.map((h) => h.holder) ?? []), ...(raaf.data ? [raaf.data.holder] : [])];
    return holders.map((h) => ({ value: reportHolderValue(h), label: h.name }));
  }, [summary.data, raaf.data]);

  const pick = (changes: { month?: string; holder?: string }) => {
    const next = currentSearchParams();
    if (changes.month) next.set('month', changes.month);
    if (changes.holder) next.set('holder', changes.holder);
    setSearch(next, { replace: true });
  };

  const shown =
    rollupBranch === null && raaf.data && raaf.data.month === month && reportHolderValue(raaf.data.holder) === holder
      ? raaf.data
      : undefined;
  const shownRollup =
    rollupBranch !== null && rollup.data?.month === month && rollup.data.branch.id === rollupBranch ? rollup.data : undefined;

  return (
    <Stack gap="md">
      <PageHeader
        title="Accountability"
        actions={
          canOpenScreen(user, 'incidents') ? (
            <Button component={Link} to="/incidents" variant="default" leftSection={<IconAlertTriangle size={16} aria-hidden />}>
              Loss incidents
            </Button>
          ) : null
        }
      />
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <HolderPicker user={user} current={current} month={month} holder={holder} rollupBranch={rollupBranch} extra={extra} pick={pick} />
          <RaafActions
            user={user}
            month={month}
            ended={ended}
            holder={holder}
            param={param}
            rollupBranch={rollupBranch}
            shown={shown}
            rollupShown={shownRollup !== undefined}
          />
        </Group>
      </Paper>

      <RaafReport
        month={month}
        ended={ended}
        phone={phone}
        param={param}
        rollupBranch={rollupBranch}
        shown={shown}
        error={raaf.error}
        rollup={shownRollup}
        rollupError={rollup.error}
        onView={(h) => pick({ holder: holderValue(h) })}
      />

      {consolidated && summary.data ? (
        <ConsolidatedView
          summary={summary.data}
          ended={ended}
          phone={phone}
          onView={(h) => {
            pick({ holder: holderValue(h) });
            window.scrollTo({ top: 0, behavior: 'smooth' });
          }}
        />
      ) : null}
      {consolidated && summary.error ? <Alert color="red">{errorMessage(summary.error)}</Alert> : null}

      <CertificatesList phone={phone} />
    </Stack>
  );
}
