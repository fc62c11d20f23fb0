import { Alert, Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { calendarDayText, numberRange } from '../../../shared/format.ts';
import type { PaperUseSummary, SummaryFormat } from '../../../shared/schemas/paper-use-summary.ts';
import { DetailValue } from '../../components/detail-value.tsx';
import { SelectField } from '../../components/form-fields.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage, openBlob } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { EInvoicingModal } from '../../components/e-invoicing-modal.tsx';
import { summaryFile, summaryQueries } from './api.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const FILES: Array<{ format: Exclude<SummaryFormat, 'json'>; label: string }> = [
  { format: 'pdf', label: 'PDF' },
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: '.xlsx' },
];
const range = (from: number, to: number) => numberRange(from, to, '\u2013');

function Outages({ summary }: { summary: PaperUseSummary }) {
  const clock = useClock();
  if (summary.outages.length === 0) return <Text c="dimmed">No outage in this period.</Text>;
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table striped withTableBorder aria-label="Outages in the period">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Outage</Table.Th>
            <Table.Th>Window</Table.Th>
            <Table.Th>Cause</Table.Th>
            <Table.Th>Paper ranges</Table.Th>
            <Table.Th>Qty</Table.Th>
            <Table.Th>Replacement e-invoices</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.outages.map((outage) => (
            <Table.Tr key={outage.id}>
              <Table.Td>#{outage.id}</Table.Td>
              <Table.Td style={{ minWidth: 180 }}>
                {clock.plainDayTime(outage.starts_at)} – {outage.ends_at ? clock.plainDayTime(outage.ends_at) : 'still open'}
              </Table.Td>
              <Table.Td>{outage.cause_label}</Table.Td>
              <Table.Td style={{ minWidth: 180 }}>
                {outage.ranges.length === 0
                  ? '-'
                  : outage.ranges.map((r) => (
                      <div key={`${r.pad.id}-${r.from}`}>
                        Pad {r.pad.number}: {range(r.from, r.to)} ({r.qty})
                      </div>
                    ))}
              </Table.Td>
              <Table.Td>{outage.qty}</Table.Td>
              <Table.Td style={{ minWidth: 160 }}>
                {outage.replacements.map((r) => (
                  <div key={`${r.route.id}-${r.paper_number}`}>
                    {r.paper_number} → {r.einvoice_number}
                  </div>
                ))}
                {outage.pending > 0 ? (
                  <Badge color="orange" variant="light">
                    {outage.pending} pending
                  </Badge>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Exceptions({ summary }: { summary: PaperUseSummary }) {
  const clock = useClock();
  if (summary.exceptions.length === 0) return <Text c="dimmed">No exception in this period.</Text>;
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table striped withTableBorder aria-label="Exceptions in the period">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Numbers</Table.Th>
            <Table.Th>Used</Table.Th>
            <Table.Th>Qty</Table.Th>
            <Table.Th>Decision</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.exceptions.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td style={{ minWidth: 150 }}>
                Pad {row.pad.number}: {range(row.from, row.to)}
              </Table.Td>
              <Table.Td style={{ minWidth: 140 }}>{clock.plainDayTime(row.used_at)}</Table.Td>
              <Table.Td>{row.qty}</Table.Td>
              <Table.Td>
                {row.state === 'open' ? 'Open' : row.state === 'justified' ? 'Justified' : 'Rejected'}
                {row.decided_by ? ` by ${row.decided_by.name}` : ''}
              </Table.Td>
              <Table.Td style={{ minWidth: 200 }}>
                {row.reason_label ?? '-'}
                {row.reason_text ? `: ${row.reason_text}` : ''}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Issue 38 summary list (RMC 47-2020's precedent): for one establishment and period, each outage with the paper ranges
 * used in it and their replacement e-invoices, then the exceptions with their decisions, and totals checked against the
 * ledger; as PDF, CSV or .xlsx for the examiner.
 */
export function SummaryTab() {
  const clock = useClock();
  const user = useSession()?.user;
  const branches = useQuery(lookupQueries.branches());
  const [branchId, setBranchId] = useState<string | null>(user?.role_id === 5 && user.branch_id ? String(user.branch_id) : null);
  const [from, setFrom] = useState(() => `${clock.today().slice(0, 8)}01`);
  const [to, setTo] = useState(clock.today);
  const [busy, setBusy] = useState<string | null>(null);
  const [details, setDetails] = useState(false);
  const branch = branches.data?.find((b) => String(b.id) === branchId) ?? null;
  const params = { branchId, from, to };
  const ready = branchId !== null && DAY.test(from) && DAY.test(to);
  const summary = useQuery({ ...summaryQueries.of(params), enabled: ready });

  const download = async (format: Exclude<SummaryFormat, 'json'>) => {
    setBusy(format);
    try {
      openBlob(await summaryFile(params, format), `paper-use-summary-${from}-${to}.${format}`, true);
    } catch (error) {
      notify.error(errorMessage(error, 'Could not make the file. Please try again.'));
    } finally {
      setBusy(null);
    }
  };

  const data = summary.data;
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SelectField
          label="Establishment"
          withAsterisk
          options={branches.data}
          value={branchId}
          onChange={setBranchId}
          w={{ base: '100%', xs: 260 }}
        />
        <TextInput label="From" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={{ base: '47%', xs: 170 }} />
        <TextInput label="To" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} w={{ base: '47%', xs: 170 }} />
        <Button variant="default" disabled={!branch} onClick={() => setDetails(true)}>
          E-invoicing details
        </Button>
        <Group gap="xs">
          {FILES.map(({ format, label }) => (
            <Button
              key={format}
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              disabled={!ready}
              loading={busy === format}
              onClick={() => void download(format)}
            >
              {label}
            </Button>
          ))}
        </Group>
      </Group>
      {!ready ? <Text c="dimmed">Choose an establishment and a period.</Text> : null}
      {summary.isLoading ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text>Loading the summary list…</Text>
        </Group>
      ) : null}
      {summary.error ? <Text c="red">{errorMessage(summary.error)}</Text> : null}
      {data ? (
        <>
          <Paper withBorder p="md" radius="md">
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <DetailValue label="Establishment">{data.establishment.branch.name}</DetailValue>
              <DetailValue label="BIR branch code">{data.establishment.bir_branch_code}</DetailValue>
              <DetailValue label="E-invoicing since">
                {data.establishment.e_invoicing_since ? calendarDayText(data.establishment.e_invoicing_since) : 'Not covered'}
              </DetailValue>
              <DetailValue label="Invoicing system">{data.establishment.invoicing_system}</DetailValue>
            </SimpleGrid>
          </Paper>
          <Stack gap="xs">
            <Group justify="space-between" align="baseline">
              <Title order={2} size="h4">
                Outages
              </Title>
              <Text size="xs" c="dimmed">
                Times in {clock.zoneName}
              </Text>
            </Group>
            <Outages summary={data} />
          </Stack>
          <Stack gap="xs">
            <Title order={2} size="h4">
              Exceptions
            </Title>
            <Exceptions summary={data} />
          </Stack>
          <Paper withBorder p="md" radius="md" component="section" aria-label="Totals">
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <DetailValue label="Used inside outages">{data.totals.outage_numbers}</DetailValue>
              <DetailValue label="Exceptions">{data.totals.exception_numbers}</DetailValue>
              <DetailValue label="Total paper numbers">{data.totals.total}</DetailValue>
              <DetailValue label="Ledger's used numbers">{data.totals.ledger_used}</DetailValue>
            </SimpleGrid>
            {data.totals.matches ? null : (
              <Alert color="red" mt="sm" title="The totals differ from the ledger">
                The ledger records {data.totals.ledger_used} used numbers here in this period; the list explains {data.totals.total}.
              </Alert>
            )}
          </Paper>
        </>
      ) : null}
      <EInvoicingModal branch={details ? branch : null} onClose={() => setDetails(false)} />
    </Stack>
  );
}
