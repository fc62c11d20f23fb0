import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { TRANSFER_TYPES } from '../../../shared/custody-rules.ts';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { api, errorMessage, openBlob } from '../../lib/api.ts';
import { AppButton } from '../app-button.tsx';
import { notify } from '../notify.ts';

/** The transmittal slip of a transfer invoice (Issued, Return, Turnover), opened in a new tab to print and sign. */
export function PrintSlipButton({ invoice }: { invoice: Pick<InvoiceRow, 'id' | 'invoice_type_id'> }) {
  const [busy, setBusy] = useState(false);
  if (!TRANSFER_TYPES.includes(invoice.invoice_type_id)) return null;
  const print = async () => {
    setBusy(true);
    try {
      openBlob(await api.file(`invoice-slip/${invoice.id}`), `slip-${invoice.id}.pdf`, false);
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AppButton variant="secondary" leftSection={<IconPrinter size={16} />} loading={busy} onClick={() => void print()}>
      Print slip
    </AppButton>
  );
}
