import { Divider, Group, Modal, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { expectedReturnText, routeLabel } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../../../shared/lookups.ts';
import { confirmDelete } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { confirmAction } from '../../components/confirm.ts';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { ActivityTimeline } from './activity-timeline.tsx';
import { invoiceApi, invoiceQueries } from './api.ts';
import { ConfirmInvoiceModal } from './confirm-invoice-modal.tsx';
import { formatDate, formatDateTime } from './format.ts';
import { InvoicePadsTable } from './invoice-pads-table.tsx';
import { IssueInvoiceModal } from './issue-invoice-modal.tsx';
import { InvoiceStatusBadge } from './status-badge.tsx';

function detailRows(invoice: InvoiceDetail): Array<[string, ReactNode]> {
  const rows: Array<[string, ReactNode]> = [
    ['Invoice No.', invoice.id],
    ['Transaction Type', invoice.invoice_type.name],
    ['Status', <InvoiceStatusBadge key="status" name={invoice.invoice_status.name} />],
    ['Route', routeLabel(invoice.route)],
    ['By', invoice.from_branch?.name ?? '-'],
    ['To', invoice.branch?.name ?? '-'],
    [invoice.invoice_type_id === INVOICE_TYPE.REQUEST || invoice.invoice_type_id === INVOICE_TYPE.ISSUED ? 'Requested By' : 'Created By', invoice.user.full_name],
    ['Pads', invoice.pads],
  ];
  if (invoice.invoice_type_id === INVOICE_TYPE.ISSUED) rows.push(['Issued By', invoice.creator.full_name]);
  if (invoice.invoice_type_id !== INVOICE_TYPE.REQUEST) rows.push(['Assigned To', invoice.assigned_to ?? '-']);
  if (invoice.expected_return_date) {
    rows.push(['Expected Return', `${formatDate(invoice.expected_return_date)} (${expectedReturnText(invoice.expected_return_date, new Date(), invoice.time_zone)})`]);
  }
  rows.push(['Date', formatDateTime(invoice.created_at)]);
  if (invoice.accepted_at) rows.push(['Accepted', formatDateTime(invoice.accepted_at)]);
  return rows;
}

/** Spec §2 "View invoice details": details, pads, the activity timeline, and the Issue / Accept actions the rules allow. */
export function InvoiceDetailsModal({ invoiceId, onClose, onChanged }: { invoiceId: number | null; onClose: () => void; onChanged: () => void }) {
  const session = useSession();
  const user = session?.user;
  const queryClient = useQueryClient();
  const detail = useQuery({ ...invoiceQueries.detail(invoiceId ?? 0), enabled: invoiceId !== null });
  const [issuing, setIssuing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const invoice = invoiceId !== null ? detail.data : undefined;

  const refresh = async () => {
    onChanged();
    await queryClient.invalidateQueries({ queryKey: invoiceQueries.all });
  };

  const mayDelete =
    invoice != null &&
    invoice.invoice_status_id === INVOICE_STATUS.PENDING &&
    (invoice.created_by === user?.id || user?.role_id === ROLE.ADMIN || user?.role_id === ROLE.IT_ADMIN);

  const remove = async () => {
    if (!invoice || !(await confirmAction(confirmDelete('invoice')))) return;
    setBusy('Deleting invoice...');
    try {
      const result = await invoiceApi.remove(invoice.id);
      notify.success(result.message);
      onChanged();
      onClose();
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const title = invoice ? `${invoice.invoice_type.name} Invoice Details` : 'Invoice Details';
  return (
    <>
      <Modal opened={invoiceId !== null} onClose={onClose} title={title} size="xl" centered>
        <LoadingOverlay visible={busy !== null} message={busy ?? undefined} />
        {!invoice ? (
          detail.error ? (
            <Text c="red">{errorMessage(detail.error)}</Text>
          ) : (
            <Stack data-testid="table-loader">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} h={24} />
              ))}
            </Stack>
          )
        ) : (
          <Stack>
            <Table withTableBorder variant="vertical" layout="fixed" aria-label="Invoice details">
              <Table.Tbody>
                {detailRows(invoice).map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w={{ base: 120, sm: 180 }}>{label}</Table.Th>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {invoice.invoice_type_id !== INVOICE_TYPE.REQUEST ? <InvoicePadsTable invoiceId={invoice.id} /> : null}
            <Divider />
            <ActivityTimeline activities={invoice.activities} />
            <Group justify="flex-end" gap="xs">
              {mayDelete ? (
                <AppButton variant="secondary" color="red" onClick={remove}>
                  Delete
                </AppButton>
              ) : null}
              {can(user, 'invoice.issue', invoice) ? <AppButton onClick={() => setIssuing(true)}>Issue</AppButton> : null}
              {can(user, 'invoice.accept', invoice) ? <AppButton onClick={() => setConfirming(true)}>Accept</AppButton> : null}
              <AppButton variant="secondary" onClick={onClose}>
                Close
              </AppButton>
            </Group>
          </Stack>
        )}
      </Modal>
      {invoice && issuing ? <IssueInvoiceModal request={invoice} onClose={() => setIssuing(false)} onIssued={refresh} /> : null}
      {invoice && confirming ? <ConfirmInvoiceModal invoice={invoice} onClose={() => setConfirming(false)} onAccepted={refresh} /> : null}
    </>
  );
}
