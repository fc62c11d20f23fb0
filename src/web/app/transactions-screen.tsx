import { ReturnInvoiceButton, TurnoverInvoiceButton } from '../features/custodies/transfer-buttons.tsx';
import { InvoicesPage } from '../features/invoices/invoices-page.tsx';
import { EditPadModal } from '../features/pads/edit-pad-modal.tsx';

/** /invoices composed from three features: the invoice list, Custody's Return and Turnover, and Inventories' Edit Pad. */
export function TransactionsScreen() {
  return (
    <InvoicesPage
      transferActions={
        <>
          <ReturnInvoiceButton padEditor={(props) => <EditPadModal {...props} />} />
          <TurnoverInvoiceButton />
        </>
      }
    />
  );
}
