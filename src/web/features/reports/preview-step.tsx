import { Alert, Group, Stack, Text } from '@mantine/core';
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

/**
 * docs/spec.md §2 Preview Report, the Generate modal's last step: the PDF the server would file, the remarks printed on it,
 * and "Generate Report", which saves it; Back returns to the picked invoices, Cancel closes.
 */
export function PreviewStep({
  preview,
  onBack,
  onCancel,
  onSaved,
}: {
  preview: { url: string; ids: number[] };
  onBack: () => void;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const create = useCreateReport();
  const form = useZodForm(createReportSchema, { invoice_ids: preview.ids, remarks: '', data: preview.url });
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
    <form noValidate onSubmit={submit} aria-label="Preview Report">
      <Stack gap="sm" pos="relative">
        <LoadingOverlay visible={create.isPending} message={REPORT_TEXT.saving} />
        <Text size="sm" c="dimmed">
          {preview.ids.length} {preview.ids.length === 1 ? 'invoice' : 'invoices'}. The report number is given when you generate it.
        </Text>
        <PdfFrame src={preview.url} title="Report preview" />
        <TextAreaField
          label="Remarks"
          description="Printed on the report as written. Optional."
          maxRows={8}
          {...form.getInputProps('remarks')}
          error={remarksError ?? form.errors.remarks}
        />
        {create.isError ? (
          <Alert color="red" title="The report was not saved">
            {errorMessage(create.error)}
          </Alert>
        ) : null}
        <Group justify="space-between" gap="sm">
          <AppButton variant="secondary" onClick={onBack}>
            Back
          </AppButton>
          <Group gap="sm">
            <AppButton variant="secondary" onClick={onCancel}>
              Cancel
            </AppButton>
            <AppButton type="submit" disabled={remarksError !== null}>
              Generate Report
            </AppButton>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
