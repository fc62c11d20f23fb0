import { Alert, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MAX_REMARKS } from '../../../shared/schemas/reports.ts';
import { AppButton } from '../../components/app-button.tsx';
import { TextAreaField } from '../../components/form-fields.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { reportApi, reportQueries } from './api.ts';
import { PdfFrame } from './pdf-frame.tsx';
import { REPORT_TEXT } from './format.ts';

/** Spec §2 Preview Report: the PDF the server would file, with Generate Report (asks for remarks, saves) and Cancel. */
export function PreviewReportModal({
  preview,
  onClose,
  onSaved,
}: {
  preview: { url: string; ids: number[] } | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const [askingRemarks, setAskingRemarks] = useState(false);
  return (
    <>
      <Modal
        opened={preview !== null}
        onClose={onClose}
        title={<Title order={3}>Preview Report</Title>}
        size="70rem"
        fullScreen={phone}
        zIndex={300}
      >
        {preview ? (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {preview.ids.length} {preview.ids.length === 1 ? 'invoice' : 'invoices'}. The report number is given when you generate it.
            </Text>
            <PdfFrame src={preview.url} title="Report preview" />
            <Group justify="flex-end" gap="sm">
              <AppButton variant="secondary" onClick={onClose}>
                Cancel
              </AppButton>
              <AppButton onClick={() => setAskingRemarks(true)}>Generate Report</AppButton>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      <Modal
        opened={askingRemarks && preview !== null}
        onClose={() => setAskingRemarks(false)}
        title={<Title order={3}>Generate Report</Title>}
        size="lg"
        zIndex={400}
      >
        {preview ? (
          <RemarksForm
            invoiceIds={preview.ids}
            previewUrl={preview.url}
            onCancel={() => setAskingRemarks(false)}
            onSaved={() => {
              setAskingRemarks(false);
              onSaved();
            }}
          />
        ) : null}
      </Modal>
    </>
  );
}

function RemarksForm({
  invoiceIds,
  previewUrl,
  onCancel,
  onSaved,
}: {
  invoiceIds: number[];
  previewUrl: string;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const queryClient = useQueryClient();
  const [remarks, setRemarks] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const tooLong = remarks.length > MAX_REMARKS;

  const save = async () => {
    if (tooLong) return;
    setBusy(true);
    setFailure(null);
    setFieldError(null);
    try {
      const result = await reportApi.create({ invoice_ids: invoiceIds, remarks, data: previewUrl });
      await queryClient.invalidateQueries({ queryKey: reportQueries.all });
      notify.success(`${result.message}: ${result.data.number}`);
      onSaved();
    } catch (error) {
      const message = errorMessage(error);
      if (error instanceof ApiError && error.field('remarks')) setFieldError(error.field('remarks') ?? null);
      setFailure(message);
      notify.error(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="sm" pos="relative">
        <LoadingOverlay visible={busy} message={REPORT_TEXT.saving} />
        <TextAreaField
          label="Remarks"
          description="Printed on the report as written. Optional."
          value={remarks}
          onChange={(event) => setRemarks(event.currentTarget.value)}
          error={tooLong ? `Remarks may not be longer than ${MAX_REMARKS} characters` : fieldError}
          maxRows={8}
          data-autofocus
        />
        {failure ? (
          <Alert color="red" title="The report was not saved">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <AppButton variant="secondary" onClick={onCancel}>
            Cancel
          </AppButton>
          <AppButton type="submit" disabled={tooLong}>
            Save Report
          </AppButton>
        </Group>
      </Stack>
    </form>
  );
}
