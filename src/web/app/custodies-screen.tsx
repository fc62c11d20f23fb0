import { CustodiesPage } from '../features/custodies/custodies-page.tsx';
import { ReportCarriedLossButton } from '../features/incidents/report-loss-buttons.tsx';
import { AcceptInvoiceAction } from '../features/invoices/accept-invoice-action.tsx';

/**
 * /custodies composed from three features: Custody's list and details, Transactions' Accept with its Confirm scan, and
 * the courier's Report a loss (Incidents).
 */
export function CustodiesScreen() {
  return (
    <CustodiesPage
      acceptAction={(invoice) => <AcceptInvoiceAction invoice={invoice} />}
      lossAction={(invoice) => <ReportCarriedLossButton invoice={invoice} />}
    />
  );
}
