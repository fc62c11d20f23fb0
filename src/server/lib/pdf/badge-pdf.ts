import { Pdf } from './document.ts';
import { pdfText } from './text.ts';

export interface BadgeCard {
  /** The operator's short name (Settings), printed in the card's band. */
  operator: string;
  name: string;
  role: string | null;
  branch: string | null;
  qrPng: Buffer;
}

/** ID-1 card size (85.6 × 54 mm), portrait, in points. */
const CARD = { width: 153, height: 243 };
const INK = '#1a1b1e';
const MUTED = '#495057';
const QR_SIZE = 118;

/** A printable badge card: the operator's name, the QR code a courier shows at hand-over, and the holder's name, role and branch. */
export function renderBadgePdf(card: BadgeCard): Promise<Buffer> {
  const pdf = new Pdf({
    size: [CARD.width, CARD.height],
    margins: { top: 12, bottom: 8, left: 10, right: 10 },
    info: { title: `Badge ${pdfText(card.name)}` },
  });
  const { doc, left, width } = pdf;
  /** Centred text of at most `lines` lines, a longer one cut with an ellipsis: the card has room for no more. */
  const centred = (text: string, y: number, lines = 1) =>
    doc.text(text, left, y, { width, align: 'center', height: doc.currentLineHeight(true) * lines, ellipsis: true });
  pdf.addPage();
  pdf.rect(0, 0, CARD.width, 26, '#1c5d99');
  const operator = pdfText(card.operator);
  let size = 11;
  pdf.font('bold', size, '#ffffff');
  while (size > 7 && doc.widthOfString(operator) > width) {
    size -= 0.5;
    pdf.font('bold', size, '#ffffff');
  }
  centred(operator, 13 - size / 2);
  doc.image(card.qrPng, (CARD.width - QR_SIZE) / 2, 34, { width: QR_SIZE, height: QR_SIZE });
  pdf.font('bold', 11, INK);
  centred(pdfText(card.name), 34 + QR_SIZE + 8, 2);
  pdf.font('regular', 8.5, MUTED);
  centred(pdfText(card.role ?? 'No role'), doc.y + 3);
  centred(pdfText(card.branch ?? ''), doc.y + 1, 2);
  return pdf.finish();
}
