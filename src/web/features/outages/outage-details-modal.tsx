import {
  Anchor,
  Badge,
  FileInput,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { numberRange } from '../../../shared/format.ts';
import { can } from '../../../shared/permissions.ts';
import type { Outage } from '../../../shared/schemas/outages.ts';
import { REPLACEMENT_COLUMNS, type ReplacementRow } from '../../../shared/schemas/paper-use-summary.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DetailValue } from '../../components/detail-value.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { usePhone } from '../../lib/use-media.ts';
import { useSession } from '../../lib/session.ts';
import { outageQueries, replacementQueries, useEnterReplacements, useImportReplacements } from './api.ts';
import { CloseOutageModal } from './close-outage-modal.tsx';
import { OutageStateBadge } from './outage-state-badge.tsx';

/** Consecutive paper numbers of one pad as one range, as the summary list prints them. */
export function paperRanges(rows: ReplacementRow[]) {
  const ranges: Array<{ key: string; pad: number; route: string; from: number; to: number }> = [];
  const sorted = [...rows].sort((a, b) => a.pad.id - b.pad.id || a.paper_number - b.paper_number);
  for (const row of sorted) {
    const last = ranges.at(-1);
    if (last && last.pad === row.pad.number && last.to + 1 === row.paper_number) last.to = row.paper_number;
    else
      ranges.push({
        key: `${row.pad.id}-${row.paper_number}`,
        pad: row.pad.number,
        route: row.route.name,
        from: row.paper_number,
        to: row.paper_number,
      });
  }
  return ranges;
}

/** The paper numbers used during the outage, each with the e-invoice that later recorded the sale, or pending. */
function Replacements({ outage }: { outage: Outage }) {
  const clock = useClock();
  const user = useSession()?.user;
  const replacements = useQuery(replacementQueries.of(outage.id));
  const enter = useEnterReplacements();
  const importFile = useImportReplacements();
  const mayEnter = can(user, 'replacement.enter', { branch_id: outage.branch.id });
  const [paper, setPaper] = useState<string | null>(null);
  const [einvoice, setEinvoice] = useState('');
  const [transmitted, setTransmitted] = useState(clock.today);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [importErrors, setImportErrors] = useState<string[]>([]);

  if (replacements.isPending) return <Loader size="sm" role="status" aria-label="Loading the paper numbers" />;
  if (replacements.error) return <Text c="red">{errorMessage(replacements.error)}</Text>;
  const data = replacements.data;
  const pending = data.numbers.filter((row) => row.status === 'pending');

  const add = async () => {
    const row = pending.find((r) => `${r.pad.id}:${r.paper_number}` === paper);
    const found: Record<string, string> = {};
    if (!row) found.paper_number = 'Choose a paper number';
    if (!einvoice.trim()) found.einvoice_number = 'E-invoice number is required';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(transmitted)) found.transmitted_on = 'Date transmitted is required';
    setErrors(found);
    if (!row || Object.keys(found).length > 0) return;
    try {
      const answer = await enter.mutateAsync({
        outageId: outage.id,
        items: [{ paper_number: row.paper_number, route_id: row.route.id, einvoice_number: einvoice.trim(), transmitted_on: transmitted }],
      });
      notify.success(answer.message);
      setPaper(null);
      setEinvoice('');
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
        const first = Object.values(error.errors)[0]?.[0];
        setErrors({ einvoice_number: first ?? error.message });
      } else notify.error(errorMessage(error));
    }
  };

  const upload = async (file: File | null) => {
    setImportErrors([]);
    if (!file) return;
    try {
      notify.success((await importFile.mutateAsync({ outageId: outage.id, file })).message);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.errors).length > 0)
        setImportErrors(Object.entries(error.errors).map(([line, messages]) => `${line}: ${messages.join('; ')}`));
      else notify.error(errorMessage(error));
    }
  };

  return (
    <Stack gap="sm">
      <Stack gap={6}>
        <Title order={3} size="h5">
          Paper numbers used ({data.totals.numbers})
        </Title>
        {data.numbers.length === 0 ? (
          <Text size="sm" c="dimmed">
            No paper number was used during this outage.
          </Text>
        ) : (
          <Stack gap={4} role="list" aria-label="Paper ranges">
            {paperRanges(data.numbers).map((range) => (
              <Paper key={range.key} withBorder p="xs" radius="sm" role="listitem">
                <Text size="sm" fw={500}>
                  Pad {range.pad}: {numberRange(range.from, range.to, '\u2013')} ({range.to - range.from + 1})
                </Text>
                <Text size="xs" c="dimmed">
                  {range.route}
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
      <Stack gap={6}>
        <Group gap="xs">
          <Title order={3} size="h5">
            Replacement e-invoices
          </Title>
          <Badge color={data.totals.pending > 0 ? 'orange' : 'teal'} variant="light">
            {data.totals.entered} entered · {data.totals.pending} pending
          </Badge>
        </Group>
        {data.numbers.length > 0 ? (
          <Table.ScrollContainer minWidth={0} type="native">
            <Table striped aria-label="Replacement e-invoices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Paper number</Table.Th>
                  <Table.Th>E-invoice</Table.Th>
                  <Table.Th>Transmitted</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.numbers.map((row) => (
                  <Table.Tr key={`${row.pad.id}-${row.paper_number}`}>
                    <Table.Td>{row.paper_number}</Table.Td>
                    <Table.Td>
                      {row.einvoice_number ?? (
                        <Badge color="orange" variant="light">
                          Pending
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{row.transmitted_on ?? '-'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        {mayEnter && pending.length > 0 ? (
          <Paper withBorder p="sm" radius="md">
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                Enter a replacement
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                <Select
                  label="Paper number"
                  data={pending.map((row) => ({
                    value: `${row.pad.id}:${row.paper_number}`,
                    label: `${row.paper_number} (pad ${row.pad.number})`,
                  }))}
                  value={paper}
                  onChange={setPaper}
                  error={errors.paper_number}
                  searchable
                  comboboxProps={{ withinPortal: true, zIndex: 400 }}
                />
                <TextInput
                  label="E-invoice number"
                  value={einvoice}
                  onChange={(e) => setEinvoice(e.currentTarget.value)}
                  error={errors.einvoice_number}
                />
                <TextInput
                  label="Date transmitted"
                  type="date"
                  value={transmitted}
                  onChange={(e) => setTransmitted(e.currentTarget.value)}
                  error={errors.transmitted_on}
                />
              </SimpleGrid>
              <Group justify="space-between" align="flex-end" wrap="wrap">
                <FileInput
                  label={`Or import a CSV (${REPLACEMENT_COLUMNS.join(', ')})`}
                  accept=".csv,text/csv,.xlsx"
                  placeholder="Choose a file"
                  leftSection={<IconFileImport size={16} aria-hidden />}
                  value={null}
                  onChange={(file) => void upload(file)}
                  w={{ base: '100%', sm: 360 }}
                />
                <AppButton loading={enter.isPending} onClick={() => void add()}>
                  Save replacement
                </AppButton>
              </Group>
              {importErrors.length > 0 ? (
                <Stack gap={2} role="alert">
                  {importErrors.map((line) => (
                    <Text key={line} c="red" size="sm">
                      {line}
                    </Text>
                  ))}
                </Stack>
              ) : null}
            </Stack>
          </Paper>
        ) : null}
      </Stack>
    </Stack>
  );
}

function OutageBody({ outage }: { outage: Outage }) {
  const clock = useClock();
  const user = useSession()?.user;
  const [closing, setClosing] = useState(false);
  return (
    <Stack>
      <Group gap="xs">
        <OutageStateBadge state={outage.state} />
        <Text size="sm" c="dimmed">
          {outage.linked_numbers} paper {outage.linked_numbers === 1 ? 'number' : 'numbers'} linked
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm">
        <DetailValue label="Establishment">{outage.branch.name}</DetailValue>
        <DetailValue label="Cause">{outage.cause_label}</DetailValue>
        <DetailValue label="Start">{clock.dayTime(outage.starts_at)}</DetailValue>
        <DetailValue label="End">{outage.ends_at ? clock.dayTime(outage.ends_at) : 'Still going on'}</DetailValue>
        <DetailValue label="Declared by">
          {outage.declared_by.name}, {clock.dayTime(outage.created_at)}
        </DetailValue>
        <DetailValue label="Notice reference">{outage.notice_reference}</DetailValue>
      </SimpleGrid>
      <DetailValue label="Details">{outage.details}</DetailValue>
      {outage.frozen ? (
        <Text size="sm" c="orange.9">
          {outage.frozen}
        </Text>
      ) : null}
      <Stack gap={4}>
        <Title order={3} size="h5">
          Evidence
        </Title>
        {outage.evidence.length === 0 ? (
          <Text size="sm" c="dimmed">
            No evidence attached.
          </Text>
        ) : (
          outage.evidence.map((file) => (
            <Anchor key={file.id} href={file.url} target="_blank" rel="noopener" size="sm">
              {file.file_name} ({Math.ceil(file.size / 1024)} KB)
            </Anchor>
          ))
        )}
      </Stack>
      <Replacements outage={outage} />
      {outage.state === 'open' && can(user, 'outage.manage', { branch_id: outage.branch.id }) ? (
        <Group justify="flex-end">
          <AppButton onClick={() => setClosing(true)}>Close outage…</AppButton>
        </Group>
      ) : null}
      {closing ? <CloseOutageModal outage={outage} onClose={() => setClosing(false)} /> : null}
    </Stack>
  );
}

/** An outage's details (`/outages?outage=12`): its window, evidence, the paper ranges linked to it and their replacement e-invoices. */
export function OutageDetailsModal({ outageId, onClose }: { outageId: number | null; onClose: () => void }) {
  const phone = usePhone();
  const outage = useQuery({ ...outageQueries.one(outageId ?? 0), enabled: outageId !== null });
  return (
    <Modal opened={outageId !== null} onClose={onClose} title={`Outage #${outageId ?? ''}`} size="xl" centered fullScreen={phone}>
      {outage.isPending ? <Loader size="sm" role="status" aria-label="Loading the outage" /> : null}
      {outage.error ? <Text c="red">{errorMessage(outage.error)}</Text> : null}
      {outage.data ? <OutageBody outage={outage.data} /> : null}
      <Group justify="flex-end" mt="md">
        <AppButton variant="secondary" onClick={onClose}>
          Close
        </AppButton>
      </Group>
    </Modal>
  );
}
