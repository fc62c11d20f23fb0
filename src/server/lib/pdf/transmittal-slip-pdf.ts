import { PALETTE, Pdf } from './document.ts';
import { keyValues, letterhead, signatures, table } from './draw.ts';
import { pdfText } from './text.ts';

export interface TransmittalSlip {
  invoiceId: number;
  type: string;
  status: string;
  from: string;
  to: string;
  requestedBy: string;
  courier: string;
  createdAt: string;
  pads: Array<{ route: string; number: number; series: string; qty: number }>;
  qrPng: Buffer;
}

const QR = 86;

/**
 * The transmittal slip of a transfer invoice (docs/design.md §5): one A4 page the courier carries with the pads, with
 * the invoice's QR, its pads and quantities, and lines for whoever releases, carries and receives them to sign and date.
 */
export function renderTransmittalSlipPdf(slip: TransmittalSlip): Promise<Buffer> {
  const pdf = new Pdf({
    size: 'A4',
    margins: { top: 36, bottom: 36, left: 40, right: 40 },
    headerHeight: 48,
    info: { title: `Transmittal slip, invoice ${slip.invoiceId}` },
  });
  const { doc } = pdf;
  pdf.addPage();
  letterhead(pdf, { reference: `Invoice #${slip.invoiceId}`, title: 'Transmittal slip' });
  doc.y = pdf.bodyTop;
  doc.image(slip.qrPng, pdf.right - QR, doc.y, { width: QR, height: QR });
  pdf.font('bold', 17);
  doc.text('Transmittal Slip', pdf.left, doc.y, { width: pdf.width - QR - 10 });
  pdf.font('regular', 10, PALETTE.muted);
  doc.text(`${slip.type} invoice #${slip.invoiceId} (${slip.status})`, { width: pdf.width - QR - 10 });
  doc.y = Math.max(doc.y + 8, pdf.bodyTop + QR + 6);
  keyValues(pdf, [
    { label: 'Invoice number', value: `#${slip.invoiceId}` },
    { label: 'Type', value: slip.type },
    { label: 'From', value: pdfText(slip.from) },
    { label: 'To', value: pdfText(slip.to) },
    { label: 'Requested by', value: pdfText(slip.requestedBy) },
    { label: 'Courier', value: pdfText(slip.courier) },
    { label: 'Date', value: slip.createdAt },
    { label: 'Pads', value: String(slip.pads.length) },
  ]);
  doc.y += 6;
  const total = slip.pads.reduce((sum, pad) => sum + pad.qty, 0);
  table(
    pdf,
    [
      { label: 'Route' },
      { label: 'Pad', width: 60, align: 'right' },
      { label: 'Series range', width: 150 },
      { label: 'Quantity', width: 70, align: 'right' },
    ],
    slip.pads.map((pad) => [pdfText(pad.route), String(pad.number), pad.series, String(pad.qty)]),
    { totals: ['Total', String(slip.pads.length), '', String(total)] },
  );
  const slot = (role: string, name: string) => ({
    lines: [
      { text: role, weight: 'bold' as const },
      { text: pdfText(name), muted: true },
      { text: 'Date: ____________________', gap: 16 },
    ],
  });
  signatures(pdf, [slot('Released by', slip.from), slot('Carried by', slip.courier), slot('Received by', slip.to)], {
    gutter: 24,
    space: 48,
  });
  return pdf.finish();
}
