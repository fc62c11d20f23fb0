import { Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import { can } from '../../../shared/permissions.ts';
import type { InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import { useSession } from '../../lib/session.ts';
import { incidentQueries } from './api.ts';
import { ReportLossModal } from './report-loss-modal.tsx';

/** Pad Details' "Report a loss", for whoever holds the pad (or roles 1, 3, 8). */
export function ReportPadLossButton({ pad }: { pad: Pad }) {
  const user = useSession()?.user;
  const [open, setOpen] = useState(false);
  if (!can(user, 'incident.report', { ...pad, carrier_user_id: null })) return null;
  return (
    <>
      <AppButton variant="secondary" color="red" onClick={() => setOpen(true)}>
        Report a loss
      </AppButton>
      {open ? <ReportLossModal pads={[pad]} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function InvoiceLossModal({ invoiceId, onClose }: { invoiceId: number; onClose: () => void }) {
  const pads = useQuery(incidentQueries.invoicePads(invoiceId));
  if (!pads.data) return <Loader size="sm" role="status" aria-label="Loading the pads" />;
  return <ReportLossModal pads={pads.data} invoiceId={invoiceId} onClose={onClose} />;
}

/** Custody details' "Report a loss", for the courier carrying the in-transit invoice (docs/design.md §9), on a phone at the pier. */
export function ReportCarriedLossButton({ invoice }: { invoice: InvoiceDetail }) {
  const user = useSession()?.user;
  const [open, setOpen] = useState(false);
  const carrying = invoice.invoice_status_id === INVOICE_STATUS.IN_TRANSIT && user !== undefined && invoice.assigned_user_id === user.id;
  if (!carrying) return null;
  return (
    <>
      <AppButton variant="secondary" color="red" onClick={() => setOpen(true)}>
        Report a loss
      </AppButton>
      {open ? <InvoiceLossModal invoiceId={invoice.id} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
