import { PALETTE, Pdf } from './document.ts';
import { pdfText } from './text.ts';

export interface PadLabel {
  route: string;
  padNumber: number;
  series: string;
  code: string;
  qrPng: Buffer;
}

/** A4: 2 × 5 labels of 99 × 57 mm; 4×6 inch: one label per page, for a label printer. */
const SHEETS = {
  a4: { page: 'A4' as const, columns: 2, rows: 5, margin: 28, qr: 112 },
  '4x6': { page: [288, 432] satisfies [number, number], columns: 1, rows: 1, margin: 18, qr: 220 },
};

/** docs/design.md §9 labels: per pad a QR of its signed label code, with the operator's short name, the route, pad number and series range in text. */
export function renderPadLabelsPdf(labels: PadLabel[], size: 'a4' | '4x6', operator: string): Promise<Buffer> {
  const sheet = SHEETS[size];
  const pdf = new Pdf({
    size: sheet.page,
    margins: { top: sheet.margin, bottom: sheet.margin, left: sheet.margin, right: sheet.margin },
    info: { title: `Pad labels (${labels.length})` },
  });
  const { doc } = pdf;
  const cellWidth = pdf.width / sheet.columns;
  const cellHeight = (pdf.pageHeight - 2 * sheet.margin) / sheet.rows;
  const perPage = sheet.columns * sheet.rows;
  /** The height of `count` lines in the current font: a long route is cut there with an ellipsis rather than run into the next label. */
  const lines = (count: number) => doc.currentLineHeight(true) * count;
  labels.forEach((label, index) => {
    const slot = index % perPage;
    if (slot === 0) pdf.addPage();
    const x = pdf.left + (slot % sheet.columns) * cellWidth;
    const y = pdf.top + Math.floor(slot / sheet.columns) * cellHeight;
    doc
      .rect(x + 4, y + 4, cellWidth - 8, cellHeight - 8)
      .lineWidth(0.5)
      .dash(3, { space: 3 })
      .strokeColor(PALETTE.rule)
      .stroke()
      .undash();
    if (size === 'a4') {
      doc.image(label.qrPng, x + 10, y + (cellHeight - sheet.qr) / 2, { width: sheet.qr, height: sheet.qr });
      const textX = x + 18 + sheet.qr;
      const textWidth = cellWidth - sheet.qr - 30;
      pdf.font('bold', 8, PALETTE.muted);
      doc.text(pdfText(operator), textX, y + 12, { width: textWidth, height: lines(1), ellipsis: true });
      pdf.font('bold', 11);
      doc.text(pdfText(label.route), textX, y + 24, { width: textWidth, height: lines(3), ellipsis: true });
      pdf.font('bold', 16, PALETTE.accent);
      doc.text(`Pad ${label.padNumber}`, textX, doc.y + 4, { width: textWidth });
      pdf.font('regular', 10);
      doc.text(`Series ${label.series}`, textX, doc.y + 4, { width: textWidth });
      pdf.font('regular', 6.5, PALETTE.muted);
      doc.text(label.code, textX, doc.y + 6, { width: textWidth });
    } else {
      pdf.font('bold', 10, PALETTE.muted);
      doc.text(pdfText(operator), x + 8, y + 10, { width: cellWidth - 16, align: 'center', height: lines(1), ellipsis: true });
      doc.image(label.qrPng, x + (cellWidth - sheet.qr) / 2, y + 24, { width: sheet.qr, height: sheet.qr });
      const centred = (text: string, top: number) => doc.text(text, x, top, { width: cellWidth, align: 'center' });
      pdf.font('bold', 14);
      doc.text(pdfText(label.route), x, y + sheet.qr + 32, { width: cellWidth, align: 'center', height: lines(3), ellipsis: true });
      pdf.font('bold', 22, PALETTE.accent);
      centred(`Pad ${label.padNumber}`, doc.y + 4);
      pdf.font('regular', 13);
      centred(`Series ${label.series}`, doc.y + 4);
      pdf.font('regular', 8, PALETTE.muted);
      centred(label.code, doc.y + 6);
    }
    pdf.forgetStyle();
  });
  return pdf.finish();
}
