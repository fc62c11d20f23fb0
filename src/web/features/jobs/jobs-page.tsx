import { Alert, Badge, Card, Code, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { JobItem, JobRunResult, JobRunStatus } from '../../../shared/schemas/jobs.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { jobQueries, useRunJob } from './api.ts';

const STATUS: Record<JobRunStatus, { label: string; color: string }> = {
  ok: { label: 'Succeeded', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  running: { label: 'Running', color: 'blue' },
};

/** "every 15 min", "every hour": how often each instance looks whether the job is due. */
function everyText(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'every hour' : `every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return seconds === 60 ? 'every minute' : `every ${seconds / 60} min`;
  return `every ${seconds} s`;
}

/**
 * Jobs (Admin, issue 37): each background job's last run, its result and error, when it runs next, and Run now. A run
 * started here counts for the job's current period like a scheduled one.
 */
export function JobsPage() {
  const jobs = useQuery(jobQueries.all());
  let body = (
    <Stack data-testid="table-loader">
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} h={120} />
      ))}
    </Stack>
  );
  if (jobs.data)
    body =
      jobs.data.length === 0 ? (
        <Text c="dimmed">No background jobs run on this server.</Text>
      ) : (
        <Stack gap="sm" role="list" aria-label="Jobs">
          {jobs.data.map((job) => (
            <JobCard key={job.name} job={job} />
          ))}
        </Stack>
      );
  else if (jobs.isError) body = <Text c="red">{errorMessage(jobs.error)}</Text>;
  return (
    <>
      <PageHeader title="Jobs" />
      <Stack maw={960}>
        <Text size="sm" c="dimmed">
          The server's background work. Each job runs once a period across every instance; a failed run is tried again with a growing pause
          and keeps its error here.
        </Text>
        {body}
      </Stack>
    </>
  );
}

function JobCard({ job }: { job: JobItem }) {
  const clock = useClock();
  const run = useRunJob();
  const [result, setResult] = useState<JobRunResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const last = job.last_run;
  const runNow = async () => {
    setResult(null);
    setFailure(null);
    try {
      const answer = await run.mutateAsync(job.name);
      setResult(answer.data);
      if (answer.data.status === 'ok') notify.success(answer.message);
      else notify.error(answer.message);
    } catch (error) {
      const message = errorMessage(error);
      setFailure(message);
      notify.error(message);
    }
  };
  return (
    <Card withBorder radius="md" padding="md" role="listitem" aria-label={job.name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Text fw={700} ff="monospace">
              {job.name}
            </Text>
            <Text size="sm" c="dimmed">
              {job.description}
            </Text>
          </Stack>
          <Group gap="xs">
            {last ? (
              <Badge color={STATUS[last.status].color} variant="light">
                {STATUS[last.status].label}
              </Badge>
            ) : (
              <Badge color="gray" variant="light">
                Never run
              </Badge>
            )}
            <AppButton size="compact-md" loading={run.isPending} onClick={() => void runNow()} aria-label={`Run ${job.name} now`}>
              Run now
            </AppButton>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xs">
          <LabelledValue label="Last run" value={last ? clock.dayTime(last.started_at) : 'Never'} />
          <LabelledValue
            label="Period"
            value={last ? `${last.period}${last.attempts > 1 ? ` (run ${last.attempts} times)` : ''}` : job.current_period}
          />
          <LabelledValue label="Finished" value={last?.finished_at ? clock.dayTime(last.finished_at) : '—'} />
          <LabelledValue label="Next run" value={`${clock.dayTime(job.next_run_at)}, checked ${everyText(job.every_seconds)}`} />
        </SimpleGrid>
        {last?.last_error ? (
          <Stack gap={2}>
            <Text size="sm" fw={600} c={last.status === 'failed' ? 'red.8' : 'dimmed'}>
              {last.status === 'failed' ? 'Error' : 'Error of an earlier try'}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {last.last_error}
            </Code>
          </Stack>
        ) : null}
        {result ? (
          <Alert
            color={result.status === 'ok' ? 'green' : 'red'}
            variant="light"
            role="status"
            title={`Run now: ${STATUS[result.status].label}`}
          >
            Period {result.period}, run {result.attempts}
            {result.error ? `: ${result.error}` : '.'}
          </Alert>
        ) : null}
        {failure ? (
          <Alert color="red" variant="light" role="alert" title="Run now: not run">
            {failure}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}
