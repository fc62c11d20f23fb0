import { lazy } from 'react';
import { ReturnInvoiceButton, TurnoverInvoiceButton } from '../features/custodies/transfer-buttons.tsx';
import { InvoicesPage } from '../features/invoices/invoices-page.tsx';
import { MountOnceOpened } from '../components/mount-once-opened.tsx';

const EditPadModal = lazy(() => import('../features/pads/edit-pad-modal.tsx').then((m) => ({ default: m.EditPadModal })));

/** /invoices composed from three features: the invoice list, Custody's Return and Turnover, and Inventories' Edit Pad. */
export function TransactionsScreen() {
  return (
    <InvoicesPage
      transferActions={
        <>
          <ReturnInvoiceButton
            padEditor={(props) => (
              <MountOnceOpened when={props.pad !== null}>
                <EditPadModal {...props} />
              </MountOnceOpened>
            )}
          />
          <TurnoverInvoiceButton />
        </>
      }
    />
  );
}
