import { Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { AssigneeScanner } from '../../components/qr-scanner/assignee-scanner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { checkCourier, useAcceptInvoice } from './api.ts';

/**
 * docs/spec.md §2 Confirm Invoice: before accepting, the receiver scans the badge of the person handing the pads
 * over; only the invoice's assigned courier passes, then Submit accepts the invoice.
 */
export function ConfirmInvoiceModal({ invoice, onClose }: { invoice: InvoiceDetail; onClose: () => void }) {
  const [confirmed, setConfirmed] = useState(false);
  const accept = useAcceptInvoice();
  const courier = invoice.assigned_user;

  const resolve = async (code: string) => {
    const result = await checkCourier(invoice.id, code);
    if (!result.status || !result.data) throw new Error(result.message);
    return result.data;
  };

  const submit = async () => {
    try {
      const result = await accept.mutateAsync(invoice.id);
      notify.success(result.message);
      onClose();
    } catch (failure) {
      notify.error(errorMessage(failure));
    }
  };

  return (
    <Modal opened onClose={onClose} title="Confirm Invoice" size="lg" centered>
      <LoadingOverlay visible={accept.isPending} message="Accepting invoice..." />
      <Stack>
        <Select
          label="Assigned to"
          disabled
          data={courier ? [{ value: String(courier.id), label: courier.full_name }] : []}
          value={courier ? String(courier.id) : null}
          placeholder="No assigned user"
        />
        <Text size="sm">Scan the QR code of the person handing over the pads.</Text>
        <AssigneeScanner resolve={resolve} onResolved={() => setConfirmed(true)} />
        <Group justify="flex-end">
          <AppButton variant="secondary" onClick={onClose}>
            Cancel
          </AppButton>
          <AppButton onClick={submit} disabled={!confirmed}>
            Submit
          </AppButton>
        </Group>
      </Stack>
    </Modal>
  );
}
