import { countText } from '../../../shared/format.ts';
import { Alert, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import type { RaafSummary } from '../../../shared/schemas/ledger.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { openBlob } from '../../lib/api.ts';
import { fetchReportFile, type HolderParam } from './api.ts';
import { monthLabel } from './months.ts';
import { BalanceLine, RaafTable } from './raaf-table.tsx';

type HolderRow = RaafSummary['holders'][number];

const qty = countText;

/** Each holder's totals and certificate, with a button opening their own RAAF: the consolidated view and the branch roll-up. */
export function HolderTotals({
  holders,
  ended,
  onView,
  label = 'Holders',
  withBranch = true,
}: {
  holders: HolderRow[];
  ended: boolean;
  onView: (holder: HolderParam) => void;
  label?: string;
  /** Off in a branch roll-up, where every holder is of the one branch. */
  withBranch?: boolean;
}) {
  const columns: Column<HolderRow>[] = [
    {
      key: 'holder',
      header: 'Holder',
      render: (h) => (h.holder.type === 'branch' ? `${h.holder.name} (branch stock)` : h.holder.name),
      wrap: true,
      minWidth: 180,
    },
    ...(withBranch
      ? [{ key: 'branch', header: 'Branch', render: (h: HolderRow) => h.holder.branch?.name ?? '-', wrap: true, minWidth: 140 }]
      : []),
    { key: 'beginning', header: 'Beginning', render: (h) => qty(h.totals.beginning) },
    { key: 'receipt', header: 'Receipt', render: (h) => qty(h.totals.receipt) },
    { key: 'issued', header: 'Issued', render: (h) => qty(h.totals.issued) },
    { key: 'ending', header: 'Ending', render: (h) => qty(h.totals.ending) },
    {
      key: 'certificate',
      header: 'Certificate',
      render: (h) =>
        h.certificate ? (
          <Badge color={h.certificate.reviewed_at ? 'teal' : 'blue'} variant="light">
            {h.certificate.number} · {h.certificate.reviewed_at ? 'Reviewed' : 'Certified'}
          </Badge>
        ) : (
          <Badge color={ended ? 'orange' : 'gray'} variant="light">
            Not certified
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (h) => (
        <AppButton
          size="compact-sm"
          variant="secondary"
          aria-label={`View RAAF of ${h.holder.name}`}
          onClick={() => onView(h.holder.type === 'user' ? { user_id: h.holder.id } : { branch_id: h.holder.id })}
        >
          VIEW
        </AppButton>
      ),
    },
  ];

  if (holders.length === 0)
    return (
      <Text c="dimmed" ta="center" py="sm">
        No holder held accountable forms during the month.
      </Text>
    );
  return (
    <DataTable
      columns={columns}
      rows={holders}
      rowKey={(h) => `${h.holder.type}-${h.holder.id}`}
      emptyText="No holder held accountable forms during the month."
      label={label}
    />
  );
}

/** For roles 1, 2, 8 and 9: every holder's RAAF summed per route, and per holder their totals and whether they certified. */
export function ConsolidatedView({
  summary,
  ended,
  phone,
  onView,
}: {
  summary: RaafSummary;
  ended: boolean;
  phone: boolean;
  onView: (holder: HolderParam) => void;
}) {
  const notCertified = summary.holders.filter((h) => !h.certificate);
  const download = (format: 'pdf' | 'csv') =>
    fetchReportFile('raaf-summary', { month: summary.month, format }).then(
      (blob) => openBlob(blob, `raaf-summary-${summary.month}.${format}`, format === 'csv'),
      (error) => notify.error(errorMessage(error)),
    );
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={2} size="h4">
              Consolidated RAAF
            </Title>
            <Text size="sm" c="dimmed">
              All holders · For the Month of {monthLabel(summary.month)}
            </Text>
          </div>
          <Group gap="xs">
            <AppButton variant="secondary" leftSection={<IconFileTypePdf size={16} />} onClick={() => void download('pdf')}>
              Consolidated PDF
            </AppButton>
            <AppButton variant="secondary" leftSection={<IconFileTypeCsv size={16} />} onClick={() => void download('csv')}>
              Consolidated CSV
            </AppButton>
          </Group>
        </Group>
        <RaafTable rows={summary.rows} totals={summary.totals} withRemarks={false} phone={phone} label="Consolidated RAAF" />
        <BalanceLine totals={summary.totals} />
        {!ended ? (
          <Alert color="gray" variant="light">
            {monthLabel(summary.month)} has not ended; holders certify their RAAF after it ends.
          </Alert>
        ) : notCertified.length > 0 ? (
          <Alert
            color="orange"
            variant="light"
            title={`${notCertified.length} of ${summary.holders.length} holders have not certified yet`}
            data-testid="not-certified"
          >
            {notCertified.map((h) => h.holder.name).join(', ')}
          </Alert>
        ) : (
          <Alert color="teal" variant="light" data-testid="not-certified">
            Every holder has certified {monthLabel(summary.month)}.
          </Alert>
        )}
        <HolderTotals holders={summary.holders} ended={ended} onView={onView} />
      </Stack>
    </Paper>
  );
}
