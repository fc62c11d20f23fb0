import { Group, Modal, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { errorMessage } from '../../lib/api.ts';
import { LoadingOverlay } from '../loading-overlay.tsx';
import { invoiceQueries } from '../../lib/invoice-queries.ts';
import { InvoiceFactsTable } from './invoice-facts-table.tsx';
import { InvoicePadsTable } from './invoice-pads-table.tsx';
import { InvoiceTimeline } from './invoice-timeline.tsx';
import { usePhone } from '../../lib/use-media.ts';

/** How one screen words its details modal: "{type} Invoice Details" or "{type} Custody Details". */
export interface DetailsWording {
  noun: 'Invoice' | 'Custody';
  typeLabel: string;
}

/**
 * The details modal every screen opens on VIEW: title, facts table, pads (types Issued, Return and
 * Turnover), the activity timeline and the buttons the screen allows. Reads the one cached get-invoice.
 */
export function InvoiceDetailsView({
  invoiceId,
  onClose,
  wording,
  actions,
  busy = null,
  zIndex,
}: {
  invoiceId: number | null;
  onClose: () => void;
  wording: DetailsWording;
  actions: (invoice: InvoiceDetail) => ReactNode;
  /** The overlay message while a button's call runs. */
  busy?: string | null;
  zIndex?: number;
}) {
  const phone = usePhone();
  const detail = useQuery({ ...invoiceQueries.detail(invoiceId ?? 0), enabled: invoiceId !== null });
  const invoice = invoiceId !== null ? detail.data : undefined;
  const { noun, typeLabel } = wording;
  return (
    <Modal
      opened={invoiceId !== null}
      onClose={onClose}
      title={<Title order={3}>{invoice ? `${invoice.invoice_type.name} ${noun} Details` : `${noun} Details`}</Title>}
      size="xl"
      fullScreen={phone}
      zIndex={zIndex}
    >
      <LoadingOverlay visible={busy !== null} message={busy ?? undefined} />
      {!invoice ? (
        <Stack data-testid="table-loader">
          {detail.isError ? (
            <Text c="red">{errorMessage(detail.error)}</Text>
          ) : (
            Array.from({ length: 6 }, (_, i) => <Skeleton key={i} h={22} />)
          )}
        </Stack>
      ) : (
        <Stack gap="lg">
          <InvoiceFactsTable invoice={invoice} label={`${noun} details`} typeLabel={typeLabel} />
          {invoice.invoice_type_id !== INVOICE_TYPE.REQUEST ? <InvoicePadsTable invoiceId={invoice.id} /> : null}
          <InvoiceTimeline activities={invoice.activities} title={`${noun} Activity`} timeZone={invoice.time_zone} />
          <Group
            justify="flex-end"
            gap="sm"
            grow={phone}
            py="xs"
            style={{
              position: 'sticky',
              bottom: 0,
              zIndex: 2,
              background: 'var(--mantine-color-body)',
              borderTop: '1px solid var(--mantine-color-gray-3)',
            }}
          >
            {actions(invoice)}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
