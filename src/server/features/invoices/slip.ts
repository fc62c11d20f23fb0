import { documentTimeText, seriesRange } from '../../../shared/format.ts';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import type { AppContext } from '../../context.ts';
import { renderTransmittalSlipPdf, type SlipPerson } from '../../lib/pdf/transmittal-slip-pdf.ts';
import { qrPng } from '../../lib/qr.ts';
import { operatorIdentity } from '../settings/read-model.ts';
import { signers, type Signer } from '../users/read-model.ts';
import * as details from './details-repo.ts';

const positionOf = (signer: Signer | undefined) => [signer?.position, signer?.branch].filter(Boolean).join(', ');

/**
 * The transmittal slip of a transfer invoice: the people who release, carry and receive the pads by name and position
 * (the receiver by office while nobody has accepted a Return or Turnover yet), every time in APP_TIMEZONE with its zone,
 * the pads it carries and those a loss on the way took off it.
 */
export async function slipPdf(ctx: AppContext, row: InvoiceRow): Promise<Buffer> {
  const zone = ctx.config.timeZone;
  const [padRows, people, operator] = await Promise.all([
    details.slipPads(ctx.db, row.id),
    signers(ctx.db, [row.created_by, row.user_id, row.assigned_user_id ?? 0, row.accepted_by ?? 0]),
    operatorIdentity(ctx.db),
  ]);
  const named = (id: number | null, at: string | null): SlipPerson => {
    const signer = id === null ? undefined : people.get(id);
    return { name: signer?.full_name ?? '', position: positionOf(signer), at: at ? documentTimeText(at, zone) : '' };
  };
  const to = row.to === '-' ? row.user.full_name : row.to;
  const received =
    row.accepted_by !== null
      ? named(row.accepted_by, row.accepted_at)
      : row.invoice_type_id === INVOICE_TYPE.ISSUED
        ? named(row.user_id, null)
        : { name: '', position: `Receiving officer, ${to}`, at: '' };
  const pad = (p: (typeof padRows)[number]) => ({
    route: p.route,
    number: p.number,
    series: seriesRange(p.series_from, p.series_to),
    qty: Number(p.series_to) - Number(p.series_from) + 1,
  });
  return renderTransmittalSlipPdf({
    operator,
    invoiceId: row.id,
    type: row.invoice_type.name,
    status: row.invoice_status.name,
    from: row.by,
    to,
    requestedBy: row.user.full_name,
    createdAt: documentTimeText(row.created_at, zone),
    printedAt: documentTimeText(new Date(), zone),
    released: named(row.created_by, row.created_at),
    carried: named(row.assigned_user_id, null),
    received,
    pads: padRows.filter((p) => p.left_at === null).map(pad),
    lostOnTheWay: padRows.flatMap((p) => (p.left_at === null ? [] : [{ ...pad(p), leftAt: documentTimeText(p.left_at, zone) }])),
    qrPng: await qrPng(`${ctx.config.appUrl}/invoices?invoice=${row.id}`),
  });
}
