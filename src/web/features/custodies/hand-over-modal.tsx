import { Box, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { invoiceWithPads } from '../../../shared/format.ts';
import { CUSTODY_MSG } from '../../../shared/schemas/custodies.ts';
import { handOverSchema } from '../../../shared/schemas/custodies.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { AssigneeField } from '../../components/qr-scanner/assignee-field.tsx';
import { ApiError } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useHandOver } from './api.ts';

/** docs/spec.md §2 "Hand Over Custody": pick or scan the next person; the server allows it once. */
export function HandOverModal({ invoice, onClose, onDone }: { invoice: InvoiceDetail; onClose: () => void; onDone: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const handOver = useHandOver();
  const form = useZodForm(handOverSchema, { assigned_user_id: null as string | null });

  const submit = form.onSubmit(async (values) => {
    try {
      await handOver.mutateAsync({ id: invoice.id, input: { assigned_user_id: values.assigned_user_id ?? '' } });
      notify.success(CUSTODY_MSG.handedOver);
      onDone();
    } catch (failure) {
      if (!applyServerErrors(form, failure) && failure instanceof ApiError) form.setFieldError('assigned_user_id', failure.message);
      notify.error(CUSTODY_MSG.handOverFailed);
    }
  });

  return (
    <Modal opened onClose={onClose} title="Hand Over Custody" size="lg" fullScreen={phone}>
      <Box pos="relative">
        <LoadingOverlay visible={handOver.isPending} message={CUSTODY_MSG.handingOver} />
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {invoiceWithPads(invoice.invoice_type.name, invoice.id, invoice.pads)}, now with {invoice.assigned_to ?? 'nobody'}.
            </Text>
            <AssigneeField
              label="Hand over to"
              value={form.values.assigned_user_id}
              onChange={(value) => form.setFieldValue('assigned_user_id', value)}
              error={form.errors.assigned_user_id}
              excludeIds={invoice.assigned_user_id ? [invoice.assigned_user_id] : []}
            />
            <Group justify="flex-end" grow={phone}>
              <AppButton variant="secondary" onClick={onClose}>
                Cancel
              </AppButton>
              <AppButton type="submit">Submit</AppButton>
            </Group>
          </Stack>
        </form>
      </Box>
    </Modal>
  );
}
