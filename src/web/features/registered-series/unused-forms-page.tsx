import { FORM_TYPES } from '../../../shared/lookups.ts';
import { useState } from 'react';
import { Badge, Button, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SelectField } from '../../components/form-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage, openBlob } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { SERIES_ROLE_LABELS } from '../../../shared/schemas/registered-series.ts';
import { seriesApi, unusedFormsQuery } from './api.ts';

const rangesText = (ranges: Array<[number, number]>) => ranges.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ');

/**
 * docs/design.md §10: the unused forms at the end of a date, per establishment and registered series, as the tax bureau asks.
 * The date starts as today in APP_TIMEZONE (docs/design.md §8), whatever zone the device keeps.
 */
export function UnusedFormsPage() {
  const clock = useClock();
  const [date, setDate] = useState(clock.today);
  const [branchId, setBranchId] = useState<string | null>(null);
  const branches = useQuery(lookupQueries.branches());
  const report = useQuery({ ...unusedFormsQuery(date, branchId), enabled: /^\d{4}-\d{2}-\d{2}$/.test(date) });
  const download = async (format: 'pdf' | 'csv') =>
    openBlob(await seriesApi.unusedFile(date, branchId, format), `unused-forms-${date}.${format}`, format === 'csv');
  return (
    <Stack>
      <PageHeader
        title="Unused forms"
        actions={
          <>
            <Button variant="default" onClick={() => void download('pdf')}>
              PDF
            </Button>
            <Button variant="default" onClick={() => void download('csv')}>
              CSV
            </Button>
          </>
        }
      />
      <Group align="flex-end">
        <TextInput label="As of the end of" type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} />
        <SelectField label="Establishment" clearable placeholder="All" options={branches.data} value={branchId} onChange={setBranchId} />
      </Group>
      {report.isLoading ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
          <Text>Loading the unused forms…</Text>
        </Group>
      ) : null}
      {report.error ? <Text c="red">{errorMessage(report.error)}</Text> : null}
      {report.data ? (
        <>
          <Text>
            Total unused: <strong>{report.data.total}</strong>
          </Text>
          {report.data.establishments.map((establishment) => (
            <Paper key={establishment.branch?.id ?? 0} withBorder p="md">
              <Title order={2} size="h4" mb="xs">
                {establishment.branch?.name ?? 'No establishment'} · {establishment.qty} unused
              </Title>
              <Table.ScrollContainer minWidth={0} type="native" tabIndex={0}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Route</Table.Th>
                      <Table.Th>Series (ATP)</Table.Th>
                      <Table.Th>Role</Table.Th>
                      <Table.Th>Qty</Table.Th>
                      <Table.Th>Unused numbers</Table.Th>
                      <Table.Th>Held by</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {establishment.series.map((series, i) => (
                      <Table.Tr key={i}>
                        <Table.Td>{series.route.name}</Table.Td>
                        <Table.Td>
                          {series.registered_series
                            ? `${FORM_TYPES[series.registered_series.form_type]} · ATP ${series.registered_series.atp_number}`
                            : 'Not registered'}
                        </Table.Td>
                        <Table.Td>{series.role ? SERIES_ROLE_LABELS[series.role] : '-'}</Table.Td>
                        <Table.Td>{series.qty}</Table.Td>
                        <Table.Td>{rangesText(series.ranges)}</Table.Td>
                        <Table.Td>
                          {series.holders.map((holder) => (
                            <div key={`${holder.holder.type}${holder.holder.id}`}>
                              {holder.holder.name}: {holder.qty}{' '}
                              {holder.outside_establishment ? <Badge color="orange">outside its establishment</Badge> : null}
                            </div>
                          ))}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
          ))}
          {report.data.in_transit.length > 0 ? (
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="xs">
                In transit at the end of the day
              </Title>
              {report.data.in_transit.map((invoice) => (
                <Text key={invoice.invoice_id} size="sm">
                  Invoice #{invoice.invoice_id}
                  {invoice.courier ? ` with ${invoice.courier}` : ''}:{' '}
                  {invoice.pads.map((pad) => `pad ${pad.number} (${pad.series_number})`).join(', ')}
                </Text>
              ))}
            </Paper>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
