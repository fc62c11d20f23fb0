import PDFDocument from 'pdfkit';
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

/** A printable badge card: the QR code a courier shows at hand-over, with the holder's name, role and branch. */
export function renderBadgePdf(card: BadgeCard): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [CARD.width, CARD.height],
    margins: { top: 12, bottom: 8, left: 10, right: 10 },
    info: { Title: `Badge ${pdfText(card.name)}`, Creator: 'PadTrack', Producer: 'PadTrack' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = CARD.width - 20;
  doc.rect(0, 0, CARD.width, 26).fill('#1c5d99');
  doc.font('Helvetica-Bold').fontSize(11).fillColor('#ffffff').text('PadTrack', 10, 8, { width, align: 'center' });
  const qrSize = 118;
  doc.image(card.qrPng, (CARD.width - qrSize) / 2, 34, { width: qrSize, height: qrSize });
  let y = 34 + qrSize + 8;
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(pdfText(card.name), 10, y, { width, align: 'center' });
  y = doc.y + 3;
  doc.font('Helvetica').fontSize(8.5).fillColor(MUTED).text(pdfText(card.role ?? 'No role'), 10, y, { width, align: 'center' });
  y = doc.y + 1;
  doc.text(pdfText(card.branch ?? ''), 10, y, { width, align: 'center' });
  doc.end();
  return done;
}
