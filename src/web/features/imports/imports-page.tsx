import { useState } from 'react';
import { Alert, Badge, Button, FileInput, Group, List, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IMPORT_COLUMNS, type ImportKind, type ImportResult } from '../../../shared/schemas/imports.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage, openBlob } from '../../lib/api.ts';
import { invalidate, queryKeys } from '../../lib/query-keys.ts';
import { importApi, importQueries } from './api.ts';
import { useClock } from '../../lib/clock.ts';

/** docs/design.md §10 go-live: a CSV or .xlsx of pads in the field or of users, checked by a dry run, then applied whole. */
export function ImportsPage() {
  const clock = useClock();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ImportKind>('pads');
  const [file, setFile] = useState<File | null>(null);
  /** The last answer, with the file it is about: Apply applies only a file whose own dry run was clean (issue 36). */
  const [result, setResult] = useState<{ message: string; data: ImportResult; file: File } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const past = useQuery(importQueries.list(1));
  const run = useMutation({
    mutationFn: (input: { dryRun: boolean; file: File }) => importApi.run(kind, input.dryRun, input.file),
    onSuccess: (answer, input) => {
      setResult({ ...answer, file: input.file });
      setFailure(null);
      void invalidate(queryClient, [queryKeys.imports.all]);
    },
    onError: (error) => setFailure(errorMessage(error)),
  });
  const data = result && result.file === file ? result.data : undefined;
  const choose = (next: File | null) => {
    setFile(next);
    setResult(null);
    setFailure(null);
  };
  return (
    <Stack>
      <PageHeader
        title="Import"
        actions={
          <>
            {(['pads', 'users'] as const).map((k) => (
              <Button
                key={k}
                variant="default"
                onClick={async () => openBlob(await importApi.template(k), `padtrack-${k}-template.csv`, true)}
              >
                {k === 'pads' ? 'Pads template (CSV)' : 'Users template (CSV)'}
              </Button>
            ))}
          </>
        }
      />
      <Paper withBorder p="md">
        <Stack>
          <SegmentedControl
            aria-label="What to import"
            value={kind}
            onChange={(value) => {
              // -- the select offers only the import kinds.
              setKind(value as ImportKind);
              setResult(null);
              setFailure(null);
            }}
            data={[
              { value: 'pads', label: 'Pads in the field' },
              { value: 'users', label: 'Users' },
            ]}
          />
          <Text size="sm" c="dimmed">
            Columns: {IMPORT_COLUMNS[kind].join(', ')}.{' '}
            {kind === 'pads'
              ? 'Route by TIN or name; holder by user e-mail or branch name; used and cancelled as ranges like 1201-1237;1240.'
              : 'Each new user is mailed a link to set their password; nobody gets a password by file.'}
          </Text>
          <FileInput
            label="File (CSV or .xlsx)"
            accept=".csv,.xlsx"
            value={file}
            onChange={choose}
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
          />
          <Group>
            <Button
              disabled={!file}
              loading={run.isPending && run.variables?.dryRun === true}
              onClick={() => file && run.mutate({ dryRun: true, file })}
            >
              Dry run
            </Button>
            <Button
              color="green"
              disabled={!file || !data || !data.dry_run || data.errors.length > 0}
              loading={run.isPending && run.variables?.dryRun === false}
              onClick={() => file && run.mutate({ dryRun: false, file })}
            >
              Apply
            </Button>
          </Group>
          {failure ? <Alert color="red">{failure}</Alert> : null}
        </Stack>
      </Paper>
      {data ? (
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Group gap="xs">
              <Title order={2} size="h4">
                Import #{data.id}
              </Title>
              <Badge color={data.errors.length > 0 ? 'red' : data.applied ? 'green' : 'blue'}>
                {data.errors.length > 0 ? 'Errors' : data.applied ? 'Applied' : 'Dry run'}
              </Badge>
            </Group>
            <Text>{result?.message}</Text>
            <Text size="sm">
              {data.totals.rows} rows · {data.totals.ok} ok · {data.totals.errors} errors
              {data.kind === 'pads'
                ? ` · ${data.totals.pads} pads · ${data.totals.numbers_used} used · ${data.totals.numbers_cancelled} cancelled`
                : ` · ${data.totals.users} users`}
            </Text>
            {data.errors.length > 0 ? (
              <Table.ScrollContainer minWidth={0} type="native" tabIndex={0}>
                <Table striped aria-label="Errors">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Line</Table.Th>
                      <Table.Th>Column</Table.Th>
                      <Table.Th>Error</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.errors.map((error, i) => (
                      <Table.Tr key={i}>
                        <Table.Td>{error.line}</Table.Td>
                        <Table.Td>{error.column}</Table.Td>
                        <Table.Td>{error.message}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            ) : null}
            {data.rows.length > 0 ? (
              <List size="sm" aria-label="Rows">
                {data.rows.slice(0, 200).map((row) => (
                  <List.Item key={row.line}>
                    Line {row.line}: {row.result}
                  </List.Item>
                ))}
              </List>
            ) : null}
          </Stack>
        </Paper>
      ) : null}
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          Past imports
        </Title>
        <Stack gap={4}>
          {(past.data?.data ?? []).map((row) => (
            <Text key={row.id} size="sm">
              #{row.id} · {row.kind} · {row.file_name} · {row.applied ? 'applied' : row.dry_run ? 'dry run' : 'not applied'} ·{' '}
              {row.totals.rows} rows, {row.error_count} errors · {clock.dayTime(row.created_at)}
              {row.created_by ? ` · ${row.created_by}` : ''}
            </Text>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
