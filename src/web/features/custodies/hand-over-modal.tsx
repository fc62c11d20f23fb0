import { Box, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CUSTODY_MSG } from '../../../shared/messages.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError } from '../../lib/api.ts';
import { custodyApi, custodyQueries } from './api.ts';
import { AssigneeField } from '../../components/qr-scanner/assignee-field.tsx';

/** Spec §2 "Hand Over Custody": pick or scan the next person; the server allows it once. */
export function HandOverModal({
  opened,
  invoice,
  onClose,
  onDone,
}: {
  opened: boolean;
  invoice: InvoiceDetail;
  onClose: () => void;
  onDone: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const queryClient = useQueryClient();
  const [assignee, setAssignee] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setAssignee(null);
    setError(null);
    onClose();
  };

  const submit = async () => {
    if (!assignee) {
      setError(CUSTODY_MSG.handOverToRequired);
      return;
    }
    setBusy(true);
    try {
      await custodyApi.handOver(invoice.id, { assigned_user_id: Number(assignee) });
      notify.success(CUSTODY_MSG.handedOver);
      await queryClient.invalidateQueries({ queryKey: custodyQueries.all });
      await queryClient.invalidateQueries({ queryKey: ['invoices'] });
      setAssignee(null);
      setError(null);
      onDone();
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure.field('assigned_user_id') ?? failure.message);
      notify.error(CUSTODY_MSG.handOverFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Hand Over Custody" size="lg" fullScreen={phone}>
      <Box pos="relative">
      <LoadingOverlay visible={busy} message={CUSTODY_MSG.handingOver} />
      <Stack>
        <Text size="sm" c="dimmed">
          {invoice.invoice_type.name} of {invoice.pads} {invoice.pads === 1 ? 'pad' : 'pads'}, now with {invoice.assigned_to ?? 'nobody'}.
        </Text>
        <AssigneeField
          label="Hand over to"
          value={assignee}
          onChange={(value) => {
            setAssignee(value);
            setError(null);
          }}
          error={error}
          excludeIds={invoice.assigned_user_id ? [invoice.assigned_user_id] : []}
        />
        <Group justify="flex-end" grow={phone}>
          <AppButton variant="secondary" onClick={close}>
            Cancel
          </AppButton>
          <AppButton onClick={submit}>Submit</AppButton>
        </Group>
      </Stack>
      </Box>
    </Modal>
  );
}
