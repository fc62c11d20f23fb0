import { Alert, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { createReportSchema } from '../../../shared/schemas/reports.ts';
import { AppButton } from '../../components/app-button.tsx';
import { TextAreaField } from '../../components/form-fields.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useCreateReport } from './api.ts';
import { PdfFrame } from './pdf-frame.tsx';
import { REPORT_TEXT } from './report-text.ts';

/** docs/spec.md §2 Preview Report: the PDF the server would file, with Generate Report (asks for remarks, saves) and Cancel. */
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
  const create = useCreateReport();
  const form = useZodForm(createReportSchema, { invoice_ids: invoiceIds, remarks: '', data: previewUrl });
  const remarksCheck = createReportSchema.shape.remarks.safeParse(form.values.remarks);
  const remarksError = remarksCheck.success ? null : (remarksCheck.error.issues[0]?.message ?? null);

  const submit = form.onSubmit(async (values) => {
    try {
      const result = await create.mutateAsync(values);
      notify.success(`${result.message}: ${result.data.number}`);
      onSaved();
    } catch (error) {
      applyServerErrors(form, error);
      notify.error(errorMessage(error));
    }
  });

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm" pos="relative">
        <LoadingOverlay visible={create.isPending} message={REPORT_TEXT.saving} />
        <TextAreaField
          label="Remarks"
          description="Printed on the report as written. Optional."
          maxRows={8}
          data-autofocus
          {...form.getInputProps('remarks')}
          error={remarksError ?? form.errors.remarks}
        />
        {create.isError ? (
          <Alert color="red" title="The report was not saved">
            {errorMessage(create.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <AppButton variant="secondary" onClick={onCancel}>
            Cancel
          </AppButton>
          <AppButton type="submit" disabled={remarksError !== null}>
            Save Report
          </AppButton>
        </Group>
      </Stack>
    </form>
  );
}
