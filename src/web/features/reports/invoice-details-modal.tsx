import { AppButton } from '../../components/app-button.tsx';
import { InvoiceDetailsView } from '../../components/invoice/invoice-details-view.tsx';

const wording = { noun: 'Invoice', typeLabel: 'Transaction Type' } as const;

/** Read-only "{type} Invoice Details" of a candidate invoice, opened by VIEW in the Generate modal (above it). */
export function InvoiceDetailsModal({ invoiceId, onClose }: { invoiceId: number | null; onClose: () => void }) {
  return (
    <InvoiceDetailsView
      invoiceId={invoiceId}
      onClose={onClose}
      wording={wording}
      zIndex={300}
      actions={() => (
        <AppButton variant="secondary" onClick={onClose}>
          Close
        </AppButton>
      )}
    />
  );
}
