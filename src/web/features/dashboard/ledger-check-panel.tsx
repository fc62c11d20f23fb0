import { Badge, Code, Group, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { countText } from '../../../shared/format.ts';
import { ledgerCheckPercent, ledgerCheckProgressText } from '../../../shared/schemas/ledger.ts';
import { useClock } from '../../lib/clock.ts';
import { dashboardQueries } from './api.ts';

/** How often the panel asks again while a check runs, to show how far it has got. */
const RUNNING_REFRESH_MS = 3_000;

const dayCount = (days: number) => (days === 1 ? 'every day' : days === 7 ? 'every week' : `every ${days} days`);

/**
 * The newest ledger check (docs/design.md §8 verifier) for Admin, Accounting and Auditor: when it ran, what it checked, and
 * on failure the first lines of what it found. A failure also waits in Needs my action until a later check passes.
 */
export function LedgerCheckPanel() {
  const latest = useQuery({
    ...dashboardQueries.latestLedgerCheck(),
    refetchInterval: (query) => (query.state.data?.running ? RUNNING_REFRESH_MS : false),
  });
  const clock = useClock();
  const check = latest.data?.check;
  const running = latest.data?.running;
  const every = latest.data ? dayCount(latest.data.every_days) : '';
  return (
    <Paper withBorder radius="md" p="md" mb="md" component="section" aria-label="Ledger check">
      <Group gap="xs" mb={4} wrap="wrap">
        <Title order={2} size="h5">
          Ledger check
        </Title>
        {running ? (
          <Badge color="blue.9" variant="filled">
            Running
          </Badge>
        ) : null}
        {check ? (
          <Badge color={check.ok ? 'teal.9' : 'red.9'} variant={running ? 'outline' : 'filled'}>
            {running ? (check.ok ? 'Last passed' : 'Last failed') : check.ok ? 'Passed' : 'Failed'}
          </Badge>
        ) : null}
      </Group>
      {running ? (
        /* The running check apart from the last one's result below it, its share of the pads as a bar. */
        <Stack gap={4} mb="sm">
          <Progress value={ledgerCheckPercent(running)} size="sm" aria-label="Ledger check progress" />
          <Text size="sm" role="status">
            {ledgerCheckProgressText(running, new Date())}
          </Text>
        </Stack>
      ) : null}
      {!latest.data ? (
        <Skeleton h={20} />
      ) : !check ? (
        <Text size="sm" c="dimmed">
          No check has run yet. The full check runs {every}.
        </Text>
      ) : (
        <>
          <Text size="sm">
            {check.mode === 'full' ? 'Full check' : 'Quick check'} finished {clock.dayTime(check.finished_at)}: {countText(check.pads)}{' '}
            pads, {countText(check.events)} events, {countText(check.certificates)} certificates
            {check.ok ? ', no problems.' : `, ${countText(check.problems)} problem(s).`}
          </Text>
          <Text size="xs" c="dimmed">
            {check.source === 'schedule'
              ? `Runs on its own ${every}.`
              : `Run by ${check.ran_by}; the full check also runs on its own ${every}.`}
          </Text>
          {check.ok ? null : (
            <>
              <Code block mt="xs" fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {check.problem_lines.join('\n')}
              </Code>
              <Text size="xs" c="dimmed" mt={4}>
                {check.problems > check.problem_lines.length ? 'The first lines of what it found. ' : ''}
                The ledger no longer matches what PadTrack wrote: treat the RAAFs it touches as unproven until it is explained. `npm run
                ledger:verify` on the server prints every problem.
              </Text>
            </>
          )}
        </>
      )}
    </Paper>
  );
}
