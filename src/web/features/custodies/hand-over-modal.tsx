import { Box, Group, Modal, Stack, Text } from '@mantine/core';
import { invoiceWithPads } from '../../../shared/format.ts';
import { CUSTODY_MSG, handOverSchema, type HandOverInput } from '../../../shared/schemas/custodies.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { AssigneeField } from '../../components/qr-scanner/assignee-field.tsx';
import { ApiError } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useOnline } from '../../lib/use-online.ts';
import { outbox } from '../../lib/outbox.ts';
import { useSession } from '../../lib/session.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { ScannedPerson } from '../../components/qr-scanner/assignee-scanner.tsx';
import { useHandOver } from './api.ts';
import { usePhone } from '../../lib/use-media.ts';

/** docs/spec.md §2 "Hand Over Custody": pick or scan the next person; the server allows it once. */
export function HandOverModal({ invoice, onClose, onDone }: { invoice: InvoiceDetail; onClose: () => void; onDone: () => void }) {
  const phone = usePhone();
  const handOver = useHandOver();
  const form = useZodForm<{ assigned_user_id: string | null }>(handOverSchema, { assigned_user_id: null });
  const [badge, setBadge] = useState<{ code: string; at: string } | null>(null);
  const online = useOnline();
  const session = useSession();
  const queryClient = useQueryClient();

  /* docs/design.md §2 offline: without network the hand-over waits on the phone, with the badge and when it was scanned. */
  const queue = async (input: HandOverInput) => {
    const couriers = queryClient.getQueryData<ScannedPerson[]>(queryKeys.couriers.all) ?? [];
    const name = couriers.find((p) => String(p.id) === String(input.assigned_user_id))?.full_name ?? 'the next courier';
    await outbox.queue({
      userId: session?.user.id ?? 0,
      kind: 'hand-over',
      path: `hand-over-invoice/${invoice.id}`,
      body: input,
      label: `Hand-over of ${invoice.invoice_type.name} #${invoice.id} to ${name}`,
      invoiceId: invoice.id,
    });
    notify.warning(MSG.queuedOffline);
    onDone();
  };

  const submit = form.onSubmit(async (values) => {
    const input: HandOverInput = {
      assigned_user_id: values.assigned_user_id ?? '',
      ...(badge ? { badge: badge.code, scanned_at: badge.at } : { scanned_at: new Date().toISOString() }),
    };
    if (!online) return queue(input);
    try {
      const answer = await handOver.mutateAsync({ id: invoice.id, input });
      notify.success(answer.message);
      onDone();
    } catch (failure) {
      if (failure instanceof ApiError && !failure.hasResponse) return queue(input);
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
              onBadge={setBadge}
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
