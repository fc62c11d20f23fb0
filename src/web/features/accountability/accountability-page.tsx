import { Alert, Badge, Button, Group, Loader, Paper, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCertificate, IconChecks, IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { can, canOpenScreen, type Actor } from '../../../shared/permissions.ts';
import { RAAF_CERTIFICATION_TEXT, type Raaf } from '../../../shared/schemas/ledger.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage } from '../../lib/api.ts';
import { countText, dateInZone } from '../../../shared/format.ts';
import { useClock } from '../../lib/clock.ts';
import { LastCounted } from '../../components/last-counted.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { currentSearchParams } from '../../lib/current-search-params.ts';
import { openBlob } from '../../lib/api.ts';
import { accountabilityQueries, fetchReportFile, useCertify, useReview, type HolderParam } from './api.ts';
import { CertificatesList } from './certificates-list.tsx';
import { ConsolidatedView } from './consolidated-view.tsx';
import { RollupView } from './rollup-view.tsx';
import { monthLabel, monthOptions, previousMonth } from './months.ts';
import { useNothingFound } from '../../components/offline-banner.tsx';
import { BalanceLine, RaafTable } from './raaf-table.tsx';
import { usePhone } from '../../lib/use-media.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const HOLDER = /^[ubr]:\d+$/;
/** `r:B` in the holder parameter: the branch roll-up of branch B. */
const ROLLUP = 'r:';

const holderValue = (holder: HolderParam) => ('user_id' in holder ? `u:${holder.user_id}` : `b:${holder.branch_id}`);
const reportHolderValue = (holder: { type: 'user' | 'branch'; id: number }) => `${holder.type === 'user' ? 'u' : 'b'}:${holder.id}`;
const holderParam = (value: string): HolderParam =>
  value.startsWith('u:') ? { user_id: Number(value.slice(2)) } : { branch_id: Number(value.slice(2)) };

interface Option {
  value: string;
  label: string;
}

/**
 * Whose RAAF the user may pick (docs/design.md §8): their own; anyone for roles 1, 2, 3, 8, 9; their branch's stock
 * and its people for roles 4-6. Everyone allowed is offered, not only those who held forms in the month.
 */
function useHolderOptions(user: (Actor & { full_name: string }) | undefined, extra: Option[]) {
  const seesAll = can(user, 'raaf.read', { type: 'branch', id: 0, branch_id: null });
  const branchWide = !seesAll && can(user, 'raaf.read', { type: 'branch', id: user?.branch_id ?? 0, branch_id: user?.branch_id ?? null });
  const wider = seesAll || branchWide;
  const roles = useQuery({ ...lookupQueries.roles(), enabled: wider });
  const people = useQuery(accountabilityQueries.people(wider ? (roles.data ?? []).map((r) => r.id) : []));
  const branches = useQuery({ ...lookupQueries.branches(), enabled: wider });
  return useMemo(() => {
    if (!user) return [];
    const mine = `u:${user.id}`;
    const seen = new Set([mine]);
    const inScope = (branchId: number | null) => seesAll || (branchId !== null && branchId === user.branch_id);
    const persons: Option[] = [];
    for (const person of people.data ?? []) {
      const value = `u:${person.id}`;
      if (seen.has(value) || !inScope(person.branch_id)) continue;
      seen.add(value);
      persons.push({ value, label: person.branch ? `${person.full_name} (${person.branch.name})` : person.full_name });
    }
    const stocks: Option[] = [];
    for (const branch of branches.data ?? []) {
      const value = `b:${branch.id}`;
      if (!inScope(branch.id)) continue;
      seen.add(value);
      stocks.push({ value, label: `${branch.name} (branch stock)` });
    }
    for (const option of extra) {
      if (seen.has(option.value)) continue;
      seen.add(option.value);
      (option.value.startsWith('u:') ? persons : stocks).push(option);
    }
    const byLabel = (a: Option, b: Option) => a.label.localeCompare(b.label);
    return [
      { group: 'Me', items: [{ value: mine, label: `${user.full_name} (me)` }] },
      ...(persons.length > 0 ? [{ group: 'People', items: persons.sort(byLabel) }] : []),
      ...(stocks.length > 0 ? [{ group: 'Branch stock', items: stocks.sort(byLabel) }] : []),
    ];
  }, [user, people.data, branches.data, seesAll, extra]);
}

/**
 * The holder Accountability opens on when the address names none: the viewer's own RAAF if they hold any pad now,
 * else their branch (its roll-up when they may read it, else its stock when they may), else their own; undefined
 * while it is being found out.
 */
function openingHolder(user: Actor | undefined, holdsPads: boolean | undefined): string | undefined {
  if (!user) return undefined;
  const own = `u:${user.id}`;
  if (user.branch_id === null) return own;
  if (holdsPads === undefined) return undefined;
  if (holdsPads) return own;
  if (can(user, 'raaf.rollup', { branch_id: user.branch_id })) return `${ROLLUP}${user.branch_id}`;
  if (can(user, 'raaf.read', { type: 'branch', id: user.branch_id, branch_id: user.branch_id })) return `b:${user.branch_id}`;
  return own;
}

function CertificateBadge({ raaf }: { raaf: Raaf }) {
  const certificate = raaf.certificate;
  if (!certificate) return <Badge color="gray">Not certified</Badge>;
  return (
    <Badge color={certificate.reviewed_at ? 'teal' : 'blue'} size="lg" data-testid="certificate-badge">
      {certificate.number} · {certificate.reviewed_at ? 'Reviewed' : 'Certified'}
    </Badge>
  );
}

/** Accountability (docs/design.md §8): one holder's monthly RAAF, its files, certification and review, the consolidated view and the certificates. */
export function AccountabilityPage() {
  const clock = useClock();
  const user = useSession()?.user;
  const phone = usePhone();
  const [search, setSearch] = useSearchParams();
  const current = dateInZone(new Date(), clock.zone).slice(0, 7);
  const months = useMemo(() => monthOptions(current), [current]);
  const asked = search.get('month') ?? '';
  const month = MONTH.test(asked) && asked <= current ? asked : previousMonth(current);
  const askedHolder = search.get('holder') ?? '';
  const namedHolder = HOLDER.test(askedHolder);
  const ownBranch = user?.branch_id ?? null;
  const rollupAny = can(user, 'raaf.rollup', { branch_id: -1 });
  const rollupOwn = ownBranch !== null && can(user, 'raaf.rollup', { branch_id: ownBranch });
  const holds = useQuery(accountabilityQueries.holdsPads(!namedHolder && ownBranch !== null));
  const holder = namedHolder ? askedHolder : openingHolder(user, holds.isError ? false : holds.data);
  const rollupBranch = holder?.startsWith(ROLLUP) ? Number(holder.slice(ROLLUP.length)) : null;
  const param = holderParam(holder && rollupBranch === null ? holder : `u:${user?.id ?? 0}`);
  const ended = month < current;
  const branches = useQuery({ ...lookupQueries.branches(), enabled: rollupAny || rollupOwn });
  const rollupOptions = useMemo(
    () =>
      (branches.data ?? [])
        .filter((branch) => can(user, 'raaf.rollup', { branch_id: branch.id }))
        .map((branch) => ({ value: `${ROLLUP}${branch.id}`, label: branch.name })),
    [branches.data, user],
  );

  const consolidated = can(user, 'raaf.consolidated');
  const raaf = useQuery({ ...accountabilityQueries.raaf(month, param), enabled: holder !== undefined && rollupBranch === null });
  const rollup = useQuery(accountabilityQueries.rollup(month, rollupBranch ?? 0));
  const summary = useQuery(accountabilityQueries.summary(month, consolidated));
  const certify = useCertify();
  const review = useReview();

  const extra = useMemo(() => {
    const holders = [...(summary.data?.holders.map((h) => h.holder) ?? []), ...(raaf.data ? [raaf.data.holder] : [])];
    return holders.map((h) => ({ value: reportHolderValue(h), label: h.name }));
  }, [summary.data, raaf.data]);
  const holderOptions = useHolderOptions(user, extra);
  const nobody = useNothingFound('No one by that name', 0);

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
  const certificate = shown?.certificate ?? null;
  const holderRef =
    'user_id' in param
      ? { type: 'user' as const, id: param.user_id, branch_id: null }
      : { type: 'branch' as const, id: param.branch_id, branch_id: param.branch_id };
  const mayCertify = ended && shown !== undefined && !certificate && can(user, 'raaf.certify', holderRef);
  const mayReview = can(user, 'raaf.review') && certificate !== null && certificate.reviewed_at === null;

  const download = (format: 'pdf' | 'csv') =>
    fetchReportFile(
      'raaf',
      rollupBranch === null ? { month, format, ...param } : { month, format, branch_id: rollupBranch, rollup: 'true' },
    ).then(
      (blob) =>
        openBlob(
          blob,
          rollupBranch === null
            ? `raaf-${month}-${(holder ?? '').replace(':', '')}.${format}`
            : `raaf-rollup-${month}-branch-${rollupBranch}.${format}`,
          format === 'csv',
        ),
      (error) => notify.error(errorMessage(error)),
    );

  const askCertify = () =>
    modals.openConfirmModal({
      title: `Certify the RAAF for ${monthLabel(month)}`,
      children: (
        <Stack gap="xs">
          <Text size="sm">{RAAF_CERTIFICATION_TEXT}</Text>
          <Text size="sm" c="dimmed">
            The report is frozen as it stands now; it cannot be certified again.
          </Text>
        </Stack>
      ),
      labels: { confirm: 'Certify', cancel: 'Cancel' },
      onConfirm: () =>
        certify.mutate(
          { month, ...param },
          {
            onSuccess: (res) => notify.success(`${res.message} ${res.data.number}`),
            onError: (error) => notify.error(errorMessage(error)),
          },
        ),
    });

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
          <Select
            label="Month"
            data={months}
            value={month}
            onChange={(value) => value && pick({ month: value })}
            allowDeselect={false}
            w={{ base: '100%', xs: 210 }}
          />
          {rollupAny || rollupOwn ? (
            <Stack gap={4} w={{ base: '100%', xs: 'auto' }}>
              <Text size="sm" fw={500} id="raaf-view-label">
                View
              </Text>
              <SegmentedControl
                aria-labelledby="raaf-view-label"
                data={[
                  { value: 'holder', label: 'One holder' },
                  { value: 'rollup', label: 'Branch roll-up' },
                ]}
                value={rollupBranch === null ? 'holder' : 'rollup'}
                onChange={(value) =>
                  pick({
                    holder:
                      value === 'rollup'
                        ? `${ROLLUP}${rollupOwn ? ownBranch : (rollupOptions[0]?.value.slice(ROLLUP.length) ?? 0)}`
                        : `u:${user?.id ?? 0}`,
                  })
                }
              />
            </Stack>
          ) : null}
          <Select
            label={rollupBranch === null ? 'Holder' : 'Branch'}
            data={rollupBranch === null ? holderOptions : rollupOptions}
            value={holder ?? null}
            onChange={(value) => value && pick({ holder: value })}
            allowDeselect={false}
            searchable
            nothingFoundMessage={nobody}
            w={{ base: '100%', xs: 320 }}
          />
          <Group gap="xs" wrap="wrap">
            <AppButton
              variant="secondary"
              leftSection={<IconFileTypePdf size={16} />}
              onClick={() => void download('pdf')}
              disabled={!shown && !shownRollup}
            >
              PDF
            </AppButton>
            <AppButton
              variant="secondary"
              leftSection={<IconFileTypeCsv size={16} />}
              onClick={() => void download('csv')}
              disabled={!shown && !shownRollup}
            >
              CSV
            </AppButton>
            {mayCertify ? (
              <AppButton leftSection={<IconCertificate size={16} />} loading={certify.isPending} onClick={askCertify}>
                Certify
              </AppButton>
            ) : null}
            {mayReview && certificate ? (
              <AppButton
                leftSection={<IconChecks size={16} />}
                loading={review.isPending}
                onClick={() =>
                  review.mutate(certificate.id, {
                    onSuccess: (res) => notify.success(res.message),
                    onError: (error) => notify.error(errorMessage(error)),
                  })
                }
              >
                Review
              </AppButton>
            ) : null}
          </Group>
        </Group>
      </Paper>

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
          {rollupBranch !== null ? (
            <RollupView
              rollup={shownRollup}
              error={rollup.error}
              ended={ended}
              phone={phone}
              onView={(h) => pick({ holder: holderValue(h) })}
            />
          ) : null}
          {rollupBranch === null ? <LastCounted holder={param} /> : null}
          {rollupBranch === null && raaf.error ? <Alert color="red">{errorMessage(raaf.error)}</Alert> : null}
          {rollupBranch === null && !shown && !raaf.error ? <Loader size="sm" aria-label="Loading report" /> : null}
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
              {certificate ? (
                <Text size="sm" c="dimmed">
                  Certified {clock.dayTime(certificate.certified_at)}
                  {certificate.reviewed_at ? ` · reviewed ${clock.dayTime(certificate.reviewed_at)}` : ' · not reviewed yet'}
                </Text>
              ) : ended ? (
                <Text size="sm" c="dimmed">
                  Not certified yet. Only the holder certifies (for a branch&apos;s stock, its custodian or head).
                </Text>
              ) : (
                <Text size="sm" c="dimmed">
                  The month has not ended; the holder certifies it after the last day.
                </Text>
              )}
            </>
          ) : null}
        </Stack>
      </Paper>

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
