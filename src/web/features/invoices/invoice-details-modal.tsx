import { useState } from 'react';
import { confirmDelete } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { confirmAction } from '../../components/confirm.ts';
import { InvoiceDetailsView } from '../../components/invoice/invoice-details-view.tsx';
import { PrintSlipButton } from '../../components/invoice/print-slip-button.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { useDeleteInvoice } from './api.ts';
import { AcceptInvoiceAction } from './accept-invoice-action.tsx';
import { IssueInvoiceModal } from './issue-invoice-modal.tsx';

const wording = { noun: 'Invoice', typeLabel: 'Transaction Type' } as const;

/** docs/spec.md §2 "View invoice details" on Transactions: the kit's details plus Delete, Issue and Accept as the rules allow. */
export function InvoiceDetailsModal({ invoiceId, onClose }: { invoiceId: number | null; onClose: () => void }) {
  const user = useSession()?.user;
  const [issuing, setIssuing] = useState<InvoiceDetail | null>(null);
  const removal = useDeleteInvoice();

  const remove = async (invoice: InvoiceDetail) => {
    if (!(await confirmAction(confirmDelete('invoice')))) return;
    try {
      const result = await removal.mutateAsync(invoice.id);
      notify.success(result.message);
      onClose();
    } catch (error) {
      notify.error(errorMessage(error));
    }
  };

  return (
    <>
      <InvoiceDetailsView
        invoiceId={invoiceId}
        onClose={onClose}
        wording={wording}
        busy={removal.isPending ? 'Deleting invoice...' : null}
        actions={(invoice) => (
          <>
            {can(user, 'invoice.delete', invoice) ? (
              <AppButton variant="secondary" color="red" onClick={() => void remove(invoice)}>
                Delete
              </AppButton>
            ) : null}
            {can(user, 'invoice.issue', invoice) ? <AppButton onClick={() => setIssuing(invoice)}>Issue</AppButton> : null}
            <AcceptInvoiceAction invoice={invoice} />
            <PrintSlipButton invoice={invoice} />
            <AppButton variant="secondary" onClick={onClose}>
              Close
            </AppButton>
          </>
        )}
      />
      {issuing ? <IssueInvoiceModal request={issuing} onClose={() => setIssuing(null)} /> : null}
    </>
  );
}
