import { Pdf } from './document.ts';
import { pdfText } from './text.ts';

export interface BadgeCard {
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

/** A printable badge card: the QR code a courier shows at hand-over, with the holder's name, role and branch. */
export function renderBadgePdf(card: BadgeCard): Promise<Buffer> {
  const pdf = new Pdf({
    size: [CARD.width, CARD.height],
    margins: { top: 12, bottom: 8, left: 10, right: 10 },
    info: { title: `Badge ${pdfText(card.name)}` },
  });
  const { doc, left, width } = pdf;
  const centred = (text: string, y: number) => doc.text(text, left, y, { width, align: 'center' });
  pdf.addPage();
  pdf.rect(0, 0, CARD.width, 26, '#1c5d99');
  pdf.font('bold', 11, '#ffffff');
  centred('PadTrack', 8);
  doc.image(card.qrPng, (CARD.width - QR_SIZE) / 2, 34, { width: QR_SIZE, height: QR_SIZE });
  pdf.font('bold', 11, INK);
  centred(pdfText(card.name), 34 + QR_SIZE + 8);
  pdf.font('regular', 8.5, MUTED);
  centred(pdfText(card.role ?? 'No role'), doc.y + 3);
  centred(pdfText(card.branch ?? ''), doc.y + 1);
  return pdf.finish();
}
