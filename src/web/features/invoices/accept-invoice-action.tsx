import { useState } from 'react';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { useSession } from '../../lib/session.ts';
import { ConfirmInvoiceModal } from './confirm-invoice-modal.tsx';

/**
 * docs/spec.md §4 accepting: the Accept button and its Confirm Invoice (scan) modal, shown only when `can` allows it.
 * The one owner of Accept: Transactions' and Custodies' details views both render it.
 */
export function AcceptInvoiceAction({ invoice }: { invoice: InvoiceDetail }) {
  const user = useSession()?.user;
  const [confirming, setConfirming] = useState(false);
  if (!can(user, 'invoice.accept', invoice)) return null;
  return (
    <>
      <AppButton onClick={() => setConfirming(true)}>Accept</AppButton>
      {confirming ? <ConfirmInvoiceModal invoice={invoice} onClose={() => setConfirming(false)} /> : null}
    </>
  );
}
