import type { IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import { PALETTE, Pdf } from './document.ts';
import { keyValues, pageFooters, paragraph, signatures, signaturesHeight, table, type Signature } from './draw.ts';
import { LETTERHEAD_HEIGHT, letterheadOnEveryPage } from './letterhead.ts';
import { pdfText } from './text.ts';

/** Someone who releases, carries or receives the pads: a name (blank when not known yet), a position and, once done, when. */
export interface SlipPerson {
  name: string;
  position: string;
  /** A time with its zone, or empty for the signer to write. */
  at: string;
}

interface SlipPad {
  route: string;
  number: number;
  series: string;
  qty: number;
}

export interface TransmittalSlip {
  invoiceId: number;
  type: string;
  status: string;
  from: string;
  to: string;
  requestedBy: string;
  /** Times with their zone (documentTimeText). */
  createdAt: string;
  printedAt: string;
  released: SlipPerson;
  carried: SlipPerson;
  received: SlipPerson;
  /** The pads the invoice carries. */
  pads: SlipPad[];
  /** Pads a loss confirmed on the way took off the invoice, with when. */
  lostOnTheWay: Array<SlipPad & { leftAt: string }>;
  qrPng: Buffer;
  /** The operator as the slip prints it (settings' read-model). */
  operator: IdentitySnapshot;
}

const QR = 86;
const SIGNATURES = { gutter: 24, space: 44 };

/** Released by, Carried by, Received by: each a person by name and position, with the time once it happened. */
function slots(slip: TransmittalSlip): Signature[] {
  const slot = (caption: string, who: SlipPerson): Signature => ({
    lines: [
      { text: caption, weight: 'bold' },
      { text: pdfText(who.name) || 'Name: ____________________' },
      { text: pdfText(who.position) || 'Position: ____________________', muted: true },
      { text: who.at || 'Date and time: ______________', gap: 16 },
    ],
  });
  return [slot('Released by', slip.released), slot('Carried by', slip.carried), slot('Received by', slip.received)];
}

/** The title beside the QR and the invoice's particulars below it. */
function particulars(pdf: Pdf, slip: TransmittalSlip): void {
  const { doc } = pdf;
  const top = pdf.bodyTop;
  doc.image(slip.qrPng, pdf.right - QR, top, { width: QR, height: QR });
  pdf.forgetStyle();
  pdf.font('bold', 17);
  doc.text('Transmittal Slip', pdf.left, top, { width: pdf.width - QR - 10 });
  pdf.font('regular', 10, PALETTE.muted);
  doc.text(`${slip.type} invoice #${slip.invoiceId} (${slip.status})`, { width: pdf.width - QR - 10 });
  doc.y = Math.max(doc.y + 8, top + QR + 6);
  const receipts = slip.pads.reduce((sum, pad) => sum + pad.qty, 0);
  keyValues(pdf, [
    { label: 'Invoice number', value: `#${slip.invoiceId}` },
    { label: 'Type', value: slip.type },
    { label: 'From', value: pdfText(slip.from) },
    { label: 'To', value: pdfText(slip.to) },
    { label: 'Requested by', value: pdfText(slip.requestedBy) },
    { label: 'Courier', value: pdfText(slip.carried.name || '-') },
    { label: 'Written', value: slip.createdAt },
    { label: 'Printed', value: slip.printedAt },
    { label: 'Pads', value: String(slip.pads.length) },
    { label: 'Receipts', value: String(receipts) },
  ]);
  doc.y += 6;
}

/**
 * The transmittal slip of a transfer invoice (docs/design.md §5): the page the courier carries with the pads, with the
 * operator's letterhead, the invoice's QR, its pads with their pad and receipt counts in their own columns, any pad a
 * loss took off it, and the people who release, carry and receive them, by name and position, kept with the last rows.
 */
export function renderTransmittalSlipPdf(slip: TransmittalSlip): Promise<Buffer> {
  const pdf = new Pdf({
    size: 'A4',
    margins: { top: 36, bottom: 36, left: 40, right: 40 },
    headerHeight: LETTERHEAD_HEIGHT + 12,
    footerGap: 16,
    info: { title: `Transmittal slip, invoice ${slip.invoiceId}` },
  });
  letterheadOnEveryPage(pdf, slip.operator, { reference: `Invoice #${slip.invoiceId}`, title: 'Transmittal slip' });
  pageFooters(pdf, `Transmittal slip, ${slip.type} invoice #${slip.invoiceId}`, { size: 7.5, ruled: true });
  pdf.addPage();
  particulars(pdf, slip);
  const signed = slots(slip);
  const notes = slip.lostOnTheWay.map(
    (pad) =>
      `Pad ${pad.number} (${pad.series}, ${pdfText(pad.route)}) was lost on the way and left this invoice on ${pad.leftAt}: it is not carried and cannot be accepted.`,
  );
  const total = slip.pads.reduce((sum, pad) => sum + pad.qty, 0);
  table(
    pdf,
    [
      { label: 'Route' },
      { label: 'Pad no.', width: 56, align: 'right' },
      { label: 'Series range', width: 150 },
      { label: 'Pads', width: 48, align: 'right' },
      { label: 'Receipts', width: 64, align: 'right' },
    ],
    slip.pads.map((pad) => [pdfText(pad.route), String(pad.number), pad.series, '1', String(pad.qty)]),
    {
      caption: 'Pads',
      totals: ['Total', '', '', String(slip.pads.length), String(total)],
      keepWithLast: notes.length > 0 ? 0 : signaturesHeight(pdf, signed, SIGNATURES),
    },
  );
  for (const note of notes) {
    pdf.doc.y += 4;
    paragraph(pdf, note, { size: 8.5 });
  }
  signatures(pdf, signed, SIGNATURES);
  return pdf.finish();
}
