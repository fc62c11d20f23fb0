import { Alert, Anchor, Badge, Group, Loader, Paper, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { can } from '../../../shared/permissions.ts';
import type { Raaf, RaafSummary } from '../../../shared/schemas/ledger.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { accountabilityQueries, fetchReportFile, useCertify, useReview, type HolderParam } from './api.ts';

type Row = Pick<Raaf['rows'][number], 'route' | 'beginning' | 'receipt' | 'issued' | 'ending'> & { remarks?: string[] };

function monthKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
}

function monthOptions(): Array<{ value: string; label: string }> {
  const now = new Date();
  return Array.from({ length: 13 }, (_, i) => {
    const date = new Date(now.getFullYear(), now.getMonth() - i, 1);
    return { value: monthKey(date), label: date.toLocaleString('en-US', { month: 'long', year: 'numeric' }) };
  });
}

const holderParam = (value: string): HolderParam => (value.startsWith('u:') ? { user_id: Number(value.slice(2)) } : { branch_id: Number(value.slice(2)) });

/** The COA table: two header rows (the four groups, then Qty / From / To), one line per route and range. */
function RaafTable({ rows, totals }: { rows: Row[]; totals: Raaf['totals'] }) {
  const groups = ['Beginning Balance', 'Receipt', 'Issued', 'Ending Balance'];
  return (
    <ScrollArea type="auto">
      <Table withTableBorder withColumnBorders striped fz="sm" miw={900} aria-label="RAAF">
        <Table.Thead>
          <Table.Tr>
            <Table.Th rowSpan={2}>Company - Route - TIN</Table.Th>
            {groups.map((group) => (
              <Table.Th key={group} colSpan={3} ta="center">
                {group}
              </Table.Th>
            ))}
            <Table.Th rowSpan={2}>Remarks</Table.Th>
          </Table.Tr>
          <Table.Tr>
            {groups.flatMap((group) => ['Qty', 'From', 'To'].map((label) => <Table.Th key={`${group}-${label}`} ta="right">{label}</Table.Th>))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={14}>
                <Text c="dimmed">No accountable forms held during the month.</Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {rows.flatMap((row) => {
            const columns = [row.beginning, row.receipt, row.issued, row.ending];
            const height = Math.max(1, ...columns.map((c) => c.ranges.length));
            return Array.from({ length: height }, (_, i) => (
              <Table.Tr key={`${row.route.id}-${i}`}>
                <Table.Td fw={i === 0 ? 600 : undefined}>{i === 0 ? `${row.route.company} - ${row.route.name} - ${row.route.tin}` : ''}</Table.Td>
                {columns.flatMap((column, ci) => {
                  const range = column.ranges[i];
                  return [
                    <Table.Td key={`q${ci}`} ta="right">
                      {range ? range[1] - range[0] + 1 : i === 0 ? 0 : ''}
                    </Table.Td>,
                    <Table.Td key={`f${ci}`} ta="right">
                      {range?.[0] ?? ''}
                    </Table.Td>,
                    <Table.Td key={`t${ci}`} ta="right">
                      {range?.[1] ?? ''}
                    </Table.Td>,
                  ];
                })}
                <Table.Td style={{ whiteSpace: 'normal', minWidth: 220 }}>{i === 0 ? (row.remarks ?? []).join('; ') : ''}</Table.Td>
              </Table.Tr>
            ));
          })}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>Total</Table.Th>
            {[totals.beginning, totals.receipt, totals.issued, totals.ending].map((qty, i) => (
              <Table.Th key={i} colSpan={3} ta="left">
                {qty}
              </Table.Th>
            ))}
            <Table.Th />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea>
  );
}

function openBlob(blob: Blob, fileName: string, download: boolean) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  if (download) link.download = fileName;
  else link.target = '_blank';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function Consolidated({ summary, month }: { summary: RaafSummary; month: string }) {
  const notCertified = summary.holders.filter((h) => !h.certificate);
  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Title order={3} size="h4">
            Consolidated RAAF
          </Title>
          <Group gap="xs">
            <AppButton variant="secondary" onClick={() => fetchReportFile('raaf-summary', { month, format: 'pdf' }).then((b) => openBlob(b, `raaf-summary-${month}.pdf`, false), (e) => notify.error(errorMessage(e)))}>
              Consolidated PDF
            </AppButton>
            <AppButton variant="secondary" onClick={() => fetchReportFile('raaf-summary', { month, format: 'csv' }).then((b) => openBlob(b, `raaf-summary-${month}.csv`, true), (e) => notify.error(errorMessage(e)))}>
              Consolidated CSV
            </AppButton>
          </Group>
        </Group>
        <RaafTable rows={summary.rows} totals={summary.totals} />
        <Text fw={500}>Holders ({notCertified.length} not certified yet)</Text>
        <ScrollArea type="auto">
          <Table striped withTableBorder fz="sm" aria-label="Holders">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Holder</Table.Th>
                <Table.Th ta="right">Beginning</Table.Th>
                <Table.Th ta="right">Receipt</Table.Th>
                <Table.Th ta="right">Issued</Table.Th>
                <Table.Th ta="right">Ending</Table.Th>
                <Table.Th>Certificate</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {summary.holders.map((h) => (
                <Table.Tr key={`${h.holder.type}-${h.holder.id}`}>
                  <Table.Td>
                    {h.holder.name}
                    {h.holder.type === 'user' && h.holder.branch ? ` (${h.holder.branch.name})` : ''}
                  </Table.Td>
                  <Table.Td ta="right">{h.totals.beginning}</Table.Td>
                  <Table.Td ta="right">{h.totals.receipt}</Table.Td>
                  <Table.Td ta="right">{h.totals.issued}</Table.Td>
                  <Table.Td ta="right">{h.totals.ending}</Table.Td>
                  <Table.Td>{h.certificate ? <Badge color="teal">{h.certificate.number}</Badge> : <Badge color="gray">Not certified</Badge>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Stack>
    </Paper>
  );
}

/** Issue 13 Accountability: one holder's monthly RAAF, its files, certification and review, certificates, and the consolidated view. */
export function AccountabilityPage() {
  const session = useSession();
  const user = session?.user;
  const months = useMemo(() => monthOptions(), []);
  const [month, setMonth] = useState(months[0].value);
  const [holder, setHolder] = useState(`u:${user?.id ?? 0}`);
  const consolidated = can(user, 'raaf.consolidated');
  const seesAll = can(user, 'raaf.read', { type: 'branch', id: 0, branch_id: null });
  const branches = useQuery({ ...lookupQueries.branches(), enabled: Boolean(user) });
  const summary = useQuery(accountabilityQueries.summary(month, consolidated));
  const raaf = useQuery(accountabilityQueries.raaf(month, holderParam(holder)));
  const certificates = useQuery(accountabilityQueries.certificates(1));
  const certify = useCertify();
  const review = useReview();

  const holderOptions = useMemo(() => {
    const options = [{ value: `u:${user?.id ?? 0}`, label: `Me (${user?.full_name ?? 'User'})` }];
    for (const branch of branches.data ?? []) {
      if (seesAll || branch.id === user?.branch_id) options.push({ value: `b:${branch.id}`, label: `${branch.name} (branch stock)` });
    }
    for (const h of summary.data?.holders ?? []) {
      const value = `${h.holder.type === 'user' ? 'u' : 'b'}:${h.holder.id}`;
      if (!options.some((o) => o.value === value)) options.push({ value, label: h.holder.name });
    }
    return options;
  }, [branches.data, summary.data, seesAll, user]);

  const param = holderParam(holder);
  const holderRef = 'user_id' in param ? { type: 'user' as const, id: param.user_id, branch_id: null } : { type: 'branch' as const, id: param.branch_id, branch_id: param.branch_id };
  const ended = month < monthKey(new Date());
  const certificate = raaf.data?.certificate ?? null;
  const mayCertify = ended && !certificate && can(user, 'raaf.certify', holderRef);
  const mayReview = can(user, 'raaf.review') && certificate !== null && certificate.reviewed_at === null;

  const download = (format: 'pdf' | 'csv') =>
    fetchReportFile('raaf', { month, format, ...param }).then(
      (blob) => openBlob(blob, `raaf-${month}.${format}`, format === 'csv'),
      (error) => notify.error(errorMessage(error)),
    );

  return (
    <Stack>
      <PageHeader title="Accountability" />
      <Paper withBorder p="md">
        <Group align="flex-end" wrap="wrap">
          <Select label="Month" data={months} value={month} onChange={(value) => value && setMonth(value)} allowDeselect={false} w={200} />
          <Select label="Holder" data={holderOptions} value={holder} onChange={(value) => value && setHolder(value)} allowDeselect={false} searchable w={300} />
          <AppButton variant="secondary" onClick={() => download('pdf')} disabled={!raaf.data}>
            PDF
          </AppButton>
          <AppButton variant="secondary" onClick={() => download('csv')} disabled={!raaf.data}>
            CSV
          </AppButton>
          {mayCertify ? (
            <AppButton
              loading={certify.isPending}
              onClick={() =>
                certify.mutate({ month, ...param }, { onSuccess: (res) => notify.success(`${res.message} ${res.data.number}`), onError: (error) => notify.error(errorMessage(error)) })
              }
            >
              Certify
            </AppButton>
          ) : null}
          {mayReview && certificate ? (
            <AppButton loading={review.isPending} onClick={() => review.mutate(certificate.id, { onSuccess: (res) => notify.success(res.message), onError: (error) => notify.error(errorMessage(error)) })}>
              Review
            </AppButton>
          ) : null}
        </Group>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h4">
              Report of Accountability for Accountable Forms
            </Title>
            {certificate ? (
              <Badge color={certificate.reviewed_at ? 'teal' : 'blue'} size="lg">
                {certificate.number} · {certificate.reviewed_at ? 'Reviewed' : 'Certified'}
              </Badge>
            ) : (
              <Badge color="gray">Not certified</Badge>
            )}
          </Group>
          {raaf.isPending ? <Loader size="sm" /> : null}
          {raaf.error ? <Alert color="red">{errorMessage(raaf.error)}</Alert> : null}
          {raaf.data ? (
            <>
              <Text size="sm" c="dimmed">
                {raaf.data.holder.name}
                {raaf.data.holder.type === 'user' && raaf.data.holder.branch ? `, ${raaf.data.holder.branch.name}` : ''} · For the Month of{' '}
                {months.find((m) => m.value === month)?.label}
              </Text>
              <RaafTable rows={raaf.data.rows} totals={raaf.data.totals} />
              {raaf.data.in_transit.map((memo) => (
                <Text key={memo.invoice_id} size="sm">
                  In transit at month end: invoice #{memo.invoice_id}, {memo.qty} numbers{memo.courier ? ` with ${memo.courier}` : ''}.
                </Text>
              ))}
            </>
          ) : null}
        </Stack>
      </Paper>
      {consolidated && summary.data ? <Consolidated summary={summary.data} month={month} /> : null}
      <Paper withBorder p="md">
        <Stack>
          <Title order={3} size="h4">
            Certificates
          </Title>
          <ScrollArea type="auto">
            <Table striped withTableBorder fz="sm" aria-label="Certificates">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Number</Table.Th>
                  <Table.Th>Holder</Table.Th>
                  <Table.Th>Certified</Table.Th>
                  <Table.Th>Reviewed</Table.Th>
                  <Table.Th>PDF</Table.Th>
                  {can(user, 'raaf.review') ? <Table.Th>Review</Table.Th> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(certificates.data?.data ?? []).map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{c.number}</Table.Td>
                    <Table.Td>{c.holder.name}</Table.Td>
                    <Table.Td>{formatDateTime(c.certified_at)}</Table.Td>
                    <Table.Td>{c.reviewed_at ? formatDateTime(c.reviewed_at) : '-'}</Table.Td>
                    <Table.Td>
                      <Anchor href={c.pdf_url} target="_blank" rel="noopener">
                        Open
                      </Anchor>
                    </Table.Td>
                    {can(user, 'raaf.review') ? (
                      <Table.Td>
                        {c.reviewed_at ? (
                          'Reviewed'
                        ) : (
                          <AppButton
                            size="xs"
                            aria-label={`Review ${c.number}`}
                            loading={review.isPending && review.variables === c.id}
                            onClick={() => review.mutate(c.id, { onSuccess: (res) => notify.success(res.message), onError: (error) => notify.error(errorMessage(error)) })}
                          >
                            Review
                          </AppButton>
                        )}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
                {certificates.data && certificates.data.data.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={6}>
                      <Text c="dimmed">No certificates yet.</Text>
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Stack>
      </Paper>
    </Stack>
  );
}
