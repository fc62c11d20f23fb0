import { Alert, Group, Modal, Stack, Stepper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column, type RowSelection } from '../../components/data-table.tsx';
import { InvoiceCards } from '../../components/invoice/invoice-cards.tsx';
import { invoiceColumns } from '../../components/invoice/invoice-columns.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { useRowSelection } from '../../lib/use-row-selection.ts';
import { reportQueries, usePreviewReport } from './api.ts';
import { InvoiceDetailsModal } from './invoice-details-modal.tsx';
import { PreviewStep } from './preview-step.tsx';
import { REPORT_TEXT } from './report-text.ts';
import { usePhone } from '../../lib/use-media.ts';

const noFilters = {};
const invoiceKey = (row: InvoiceRow) => row.id;

/**
 * docs/spec.md §2 Generate modal and Preview Report, as the steps of one modal: pick completed Issued invoices, then preview
 * the PDF they make and save it with remarks through the preview's "Generate Report".
 */
export function GenerateReportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={<Title order={3}>Generate Report</Title>} size="90rem" fullScreen={phone}>
      <GenerateReportBody onClose={onClose} />
    </Modal>
  );
}

function GenerateReportBody({ onClose }: { onClose: () => void }) {
  const phone = usePhone();
  const { params, setSearch, setPage } = useListParams(noFilters, { inUrl: false });
  const list = useQuery(reportQueries.completed({ page: params.page, search: params.search }));
  const picked = useRowSelection(invoiceKey);
  const preview = usePreviewReport();
  const [shown, setShown] = useState<{ url: string; ids: number[] } | null>(null);
  const step = shown ? 1 : 0;
  const [viewing, setViewing] = useState<number | null>(null);
  const timeZone = list.data?.time_zone ?? 'UTC';
  const count = picked.selected.size;

  const selection: RowSelection<InvoiceRow> = {
    isSelected: picked.isSelected,
    onChange: picked.change,
    label: (row) => `Select invoice ${row.id}`,
    allLabel: 'Select all invoices on this page',
  };

  const openPreview = () => {
    const ids = [...picked.selected.keys()].sort((a, b) => a - b);
    preview.mutate(ids, { onSuccess: ({ preview_url }) => setShown({ url: preview_url, ids }) });
  };

  const view = (row: InvoiceRow) => (
    <AppButton size="compact-sm" variant="secondary" onClick={() => setViewing(row.id)} aria-label={`View invoice ${row.id}`}>
      VIEW
    </AppButton>
  );
  const columns: Column<InvoiceRow>[] = [...invoiceColumns(timeZone, null, true), { key: 'actions', header: 'Actions', render: view }];

  return (
    <Stack gap="sm" pos="relative">
      <LoadingOverlay visible={preview.isPending} message={REPORT_TEXT.previewing} />
      <Stepper active={step} size="sm" allowNextStepsSelect={false} onStepClick={(index) => index === 0 && setShown(null)}>
        <Stepper.Step label="Select Invoices" description="Completed Issued invoices" />
        <Stepper.Step label="Preview Report" description="Remarks, then Generate Report" />
      </Stepper>
      {shown ? <PreviewStep preview={shown} onBack={() => setShown(null)} onCancel={onClose} onSaved={onClose} /> : null}
      <Stack gap="sm" display={shown ? 'none' : undefined}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <SearchInput placeholder="Search by invoice number" onSearch={setSearch} />
          <Text size="sm" c="dimmed" aria-live="polite">
            {count} {count === 1 ? 'invoice' : 'invoices'} selected
          </Text>
        </Group>
        {preview.isError ? (
          <Alert color="red" title="The report could not be previewed" withCloseButton onClose={() => preview.reset()}>
            {errorMessage(preview.error)}
          </Alert>
        ) : null}
        {phone ? (
          <InvoiceCards
            rows={list.data?.data}
            loading={list.isLoading}
            emptyText={REPORT_TEXT.noCompletedInvoices}
            label="Completed invoices"
            timeZone={timeZone}
            showExpectedReturn
            actions={view}
            selection={selection}
          />
        ) : (
          <DataTable
            columns={columns}
            rows={list.data?.data}
            rowKey={invoiceKey}
            loading={list.isLoading}
            emptyText={REPORT_TEXT.noCompletedInvoices}
            label="Completed invoices"
            selection={selection}
          />
        )}
        <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={setPage} />
        <Group justify="flex-end" gap="sm">
          <AppButton variant="secondary" onClick={onClose}>
            Cancel
          </AppButton>
          <AppButton disabled={count === 0} onClick={openPreview}>
            Preview Generate Report
          </AppButton>
        </Group>
      </Stack>
      <InvoiceDetailsModal invoiceId={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}
