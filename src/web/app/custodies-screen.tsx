import { CustodiesPage } from '../features/custodies/custodies-page.tsx';
import { AcceptInvoiceAction } from '../features/invoices/accept-invoice-action.tsx';

/** /custodies composed from two features: Custody's list and details, and Transactions' Accept with its Confirm scan. */
export function CustodiesScreen() {
  return <CustodiesPage acceptAction={(invoice) => <AcceptInvoiceAction invoice={invoice} />} />;
}
