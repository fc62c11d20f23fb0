import { useState, type ReactNode } from 'react';
import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { PrintSlipButton } from '../../components/invoice/print-slip-button.tsx';
import { AppButton } from '../../components/app-button.tsx';
import { InvoiceDetailsView } from '../../components/invoice/invoice-details-view.tsx';
import { useSession } from '../../lib/session.ts';
import { HandOverModal } from './hand-over-modal.tsx';

const wording = { noun: 'Custody', typeLabel: 'Invoice Type' } as const;

/**
 * docs/spec.md §2 "{type} Custody Details": the kit's details with Hand Over for the courier and roles 1 to 3, and the
 * Accept (with its Confirm scan) the app composes in from Transactions.
 */
export function CustodyDetailsModal({
  invoiceId,
  onClose,
  acceptAction,
  lossAction,
}: {
  invoiceId: number | null;
  onClose: () => void;
  acceptAction?: (invoice: InvoiceDetail) => ReactNode;
  /** The courier's Report a loss (docs/design.md §9), composed in by the app. */
  lossAction?: (invoice: InvoiceDetail) => ReactNode;
}) {
  const user = useSession()?.user;
  const [handingOver, setHandingOver] = useState<InvoiceDetail | null>(null);
  const mayHandOver = (invoice: InvoiceDetail) =>
    invoice.invoice_status_id === INVOICE_STATUS.IN_TRANSIT && can(user, 'custody.handOver', invoice);

  return (
    <>
      <InvoiceDetailsView
        invoiceId={invoiceId}
        onClose={onClose}
        wording={wording}
        actions={(invoice) => (
          <>
            {acceptAction?.(invoice)}
            {lossAction?.(invoice)}
            {mayHandOver(invoice) ? <AppButton onClick={() => setHandingOver(invoice)}>Hand Over</AppButton> : null}
            <PrintSlipButton invoice={invoice} />
            <AppButton variant="secondary" onClick={onClose}>
              Close
            </AppButton>
          </>
        )}
      />
      {handingOver ? (
        <HandOverModal
          invoice={handingOver}
          onClose={() => setHandingOver(null)}
          onDone={() => {
            setHandingOver(null);
            onClose();
          }}
        />
      ) : null}
    </>
  );
}
