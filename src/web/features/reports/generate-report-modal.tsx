import { Alert, Card, Checkbox, Group, Modal, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { expectedReturnText, routeLabel } from '../../../shared/format.ts';
import type { CompletedInvoiceRow } from '../../../shared/schemas/reports.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { reportApi, reportQueries } from './api.ts';
import { browserTimeZone, byBranch, formatDate, REPORT_TEXT, toBranch } from './format.ts';
import { InvoiceDetailsModal } from './invoice-details-modal.tsx';
import { PreviewReportModal } from './preview-report-modal.tsx';
import { StatusBadge } from './status-badge.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';

/** Spec §2 Generate modal: pick completed Issued invoices, then preview the report they make. */
export function GenerateReportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={opened} onClose={onClose} title={<Title order={3}>Generate Report</Title>} size="90rem" fullScreen={phone}>
      <GenerateReportBody onClose={onClose} />
    </Modal>
  );
}

function GenerateReportBody({ onClose }: { onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const [params, setParams] = useState({ page: 1, search: '' });
  const list = useQuery(reportQueries.completed(params));
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ url: string; ids: number[] } | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);

  const rows = list.data?.data;
  const pageIds = rows?.map((r) => r.id) ?? [];
  const pageSelected = pageIds.filter((id) => selected.has(id)).length;
  const allOnPage = pageIds.length > 0 && pageSelected === pageIds.length;

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of pageIds) {
        if (allOnPage) next.delete(id);
        else next.add(id);
      }
      return next;
    });

  const openPreview = async () => {
    const ids = [...selected].sort((a, b) => a - b);
    setBusy(true);
    setFailure(null);
    try {
      const { preview_url } = await reportApi.preview(ids);
      setPreview({ url: preview_url, ids });
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const timeZone = browserTimeZone();
  return (
    <Stack gap="sm" pos="relative">
      <LoadingOverlay visible={busy} message={REPORT_TEXT.previewing} />
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SearchInput placeholder="Search by invoice number" onSearch={(search) => setParams({ page: 1, search })} />
        <Text size="sm" c="dimmed" aria-live="polite">
          {selected.size} {selected.size === 1 ? 'invoice' : 'invoices'} selected
        </Text>
      </Group>
      {failure ? (
        <Alert color="red" title="The report could not be previewed" withCloseButton onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      ) : null}
      {phone ? (
        <InvoiceCards
          rows={rows}
          loading={list.isLoading}
          selected={selected}
          allOnPage={allOnPage}
          someOnPage={pageSelected > 0}
          onToggle={toggle}
          onToggleAll={toggleAll}
          onView={setViewing}
        />
      ) : (
        <Table.ScrollContainer minWidth={1100} type="native">
          <Table striped highlightOnHover verticalSpacing="sm" withTableBorder aria-label="Completed invoices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={44}>
                  <Checkbox
                    aria-label="Select all invoices on this page"
                    checked={allOnPage}
                    indeterminate={pageSelected > 0 && !allOnPage}
                    disabled={pageIds.length === 0}
                    onChange={toggleAll}
                  />
                </Table.Th>
                {['Pads', 'Route', 'By', 'To', 'Status', 'Date', 'Expected Return', 'Assigned To', 'Actions'].map((header) => (
                  <Table.Th key={header} style={{ whiteSpace: 'nowrap', minWidth: header === 'Status' ? 120 : undefined }}>
                    {header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {!rows && list.isLoading
                ? Array.from({ length: 4 }, (_, i) => (
                    <Table.Tr key={`skeleton-${i}`} data-testid="table-loader">
                      {Array.from({ length: 10 }, (__, j) => (
                        <Table.Td key={j}>
                          <Skeleton h={14} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : null}
              {rows && rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={10}>
                    <Text ta="center" c="dimmed" py="md">
                      {REPORT_TEXT.noCompletedInvoices}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {rows?.map((row: CompletedInvoiceRow) => (
                <Table.Tr key={row.id} bg={selected.has(row.id) ? 'var(--mantine-color-blue-light)' : undefined}>
                  <Table.Td>
                    <Checkbox aria-label={`Select invoice ${row.id}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />
                  </Table.Td>
                  <Table.Td>{row.pads}</Table.Td>
                  <Table.Td miw={200}>{routeLabel(row.route)}</Table.Td>
                  <Table.Td>{byBranch(row)}</Table.Td>
                  <Table.Td>{toBranch(row)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <StatusBadge name={row.invoice_status.name} />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(row.created_at)}</Table.Td>
                  <Table.Td>{expectedReturnText(row.expected_return_date, new Date(), timeZone)}</Table.Td>
                  <Table.Td>{row.assigned_to ?? '-'}</Table.Td>
                  <Table.Td>
                    <AppButton size="compact-sm" variant="secondary" onClick={() => setViewing(row.id)} aria-label={`View invoice ${row.id}`}>
                      VIEW
                    </AppButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={(page) => setParams((p) => ({ ...p, page }))} />
      <Group justify="flex-end" gap="sm">
        <AppButton variant="secondary" onClick={onClose}>
          Cancel
        </AppButton>
        <AppButton disabled={selected.size === 0} onClick={() => void openPreview()}>
          Preview Generate Report
        </AppButton>
      </Group>
      <PreviewReportModal
        preview={preview}
        onClose={() => setPreview(null)}
        onSaved={() => {
          setPreview(null);
          onClose();
        }}
      />
      <InvoiceDetailsModal invoiceId={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}

/** On a phone each candidate invoice is a card with its checkbox, so nothing needs sideways scrolling. */
function InvoiceCards({
  rows,
  loading,
  selected,
  allOnPage,
  someOnPage,
  onToggle,
  onToggleAll,
  onView,
}: {
  rows: CompletedInvoiceRow[] | undefined;
  loading: boolean;
  selected: Set<number>;
  allOnPage: boolean;
  someOnPage: boolean;
  onToggle: (id: number) => void;
  onToggleAll: () => void;
  onView: (id: number) => void;
}) {
  if (!rows) return loading ? <Text c="dimmed" ta="center" py="md" data-testid="table-loader">Loading...</Text> : null;
  if (rows.length === 0) {
    return (
      <Text ta="center" c="dimmed" py="md">
        {REPORT_TEXT.noCompletedInvoices}
      </Text>
    );
  }
  const timeZone = browserTimeZone();
  return (
    <Stack gap="sm">
      <Checkbox
        label="Select all on this page"
        aria-label="Select all invoices on this page"
        checked={allOnPage}
        indeterminate={someOnPage && !allOnPage}
        onChange={onToggleAll}
      />
      <Stack gap="sm" role="list" aria-label="Completed invoices">
        {rows.map((row) => (
          <Card key={row.id} withBorder radius="md" padding="sm" role="listitem" bg={selected.has(row.id) ? 'var(--mantine-color-blue-light)' : undefined}>
            <Group justify="space-between" wrap="nowrap" mb={6}>
              <Checkbox
                aria-label={`Select invoice ${row.id}`}
                label={`${row.pads} ${row.pads === 1 ? 'pad' : 'pads'}`}
                checked={selected.has(row.id)}
                onChange={() => onToggle(row.id)}
              />
              <StatusBadge name={row.invoice_status.name} />
            </Group>
            <Text size="sm" fw={500} mb={4}>
              {routeLabel(row.route)}
            </Text>
            <SimpleGrid cols={2} spacing={4} verticalSpacing={2}>
              <LabelledValue label="By" value={byBranch(row)} />
              <LabelledValue label="To" value={toBranch(row)} />
              <LabelledValue label="Date" value={formatDate(row.created_at)} />
              <LabelledValue label="Expected Return" value={expectedReturnText(row.expected_return_date, new Date(), timeZone)} />
              <LabelledValue label="Assigned To" value={row.assigned_to ?? '-'} />
            </SimpleGrid>
            <Group justify="flex-end" mt="xs">
              <AppButton size="compact-sm" variant="secondary" onClick={() => onView(row.id)} aria-label={`View invoice ${row.id}`}>
                VIEW
              </AppButton>
            </Group>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}
