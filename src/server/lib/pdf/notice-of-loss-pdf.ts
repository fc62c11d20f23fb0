import { dayTimeText } from '../../../shared/format.ts';
import { newPdfDocument } from './document.ts';
import { pdfText } from './text.ts';

/** What COA Circular 84-233 asks a Notice of Loss to state, and who confirmed it. */
export interface NoticeOfLoss {
  number: string;
  /** e.g. "Official Receipt / Invoice". */
  formKind: string;
  lines: Array<{ company: string; route: string; tin: string; padNumber: number; from: number; to: number; qty: number }>;
  place: string;
  occurredAt: Date;
  circumstances: string;
  reportedBy: string;
  reportedAt: Date;
  confirmedBy: string;
  confirmedAt: Date;
  attachments: string[];
  timeZone: string;
}

const MARGIN = 50;
const INK = '#1a1a1a';
const MUTED = '#5b6470';
const ACCENT = '#1f3a5f';

const when = (at: Date, timeZone: string) => `${dayTimeText(at, timeZone)} (${timeZone})`;

const range = (from: number, to: number) => (from === to ? `${from}` : `${from} to ${to}`);

/** The notice's pdfkit document, and its bytes once it ends. */
function noticeDocument(notice: NoticeOfLoss) {
  const doc = newPdfDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: {
      Title: `Notice of Loss ${notice.number}`,
      Subject: 'Notice of Loss of Accountable Forms',
      Creator: 'PadTrack',
      Producer: 'PadTrack',
      CreationDate: notice.confirmedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/**
 * docs/design.md §9 Notice of Loss: the kind of forms, the quantity, the inclusive serial numbers, the place and the
 * approximate date of the loss (COA Circular 84-233), so nobody accepts the lost forms; portrait A4.
 */
export function renderNoticeOfLossPdf(notice: NoticeOfLoss): Promise<Buffer> {
  const { doc, done } = noticeDocument(notice);
  const width = doc.page.width - 2 * MARGIN;
  const font = (bold: boolean, size: number, color = INK) =>
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(size)
      .fillColor(color);
  const field = (label: string, value: string) => {
    font(true, 10).text(`${label}: `, { continued: true });
    font(false, 10).text(pdfText(value), { width });
    doc.moveDown(0.3);
  };

  font(true, 16, ACCENT).text('NOTICE OF LOSS OF ACCOUNTABLE FORMS', { align: 'center', width });
  doc.moveDown(0.2);
  font(false, 10, MUTED).text(`Notice No. ${notice.number}   ·   Issued ${when(notice.confirmedAt, notice.timeZone)}`, {
    align: 'center',
    width,
  });
  doc.moveDown(1.2);

  const quantity = notice.lines.reduce((sum, line) => sum + line.qty, 0);
  field('Kind of forms', notice.formKind);
  field('Quantity', `${quantity} ${quantity === 1 ? 'form' : 'forms'}`);
  field('Place of loss', notice.place);
  field('Approximate date and time of loss', when(notice.occurredAt, notice.timeZone));
  doc.moveDown(0.4);

  font(true, 11, ACCENT).text('Inclusive serial numbers');
  doc.moveDown(0.3);
  for (const line of notice.lines) {
    font(false, 10).text(
      pdfText(
        `${range(line.from, line.to)}  (${line.qty})  ·  pad ${line.padNumber}  ·  ${line.company} – ${line.route}  ·  TIN ${line.tin}`,
      ),
      { width, indent: 12 },
    );
  }
  doc.moveDown(0.8);

  font(true, 11, ACCENT).text('Circumstances');
  doc.moveDown(0.3);
  font(false, 10).text(pdfText(notice.circumstances), { width });
  doc.moveDown(0.8);

  field('Reported by', `${notice.reportedBy} on ${when(notice.reportedAt, notice.timeZone)}`);
  field('Loss confirmed by', `${notice.confirmedBy} on ${when(notice.confirmedAt, notice.timeZone)}`);
  if (notice.attachments.length > 0) field('Supporting documents', notice.attachments.join('; '));
  doc.moveDown(1);

  font(true, 10).text(
    'The forms listed above are declared lost. They are void: do not accept them in payment or as proof of payment, and report anyone presenting them to the operator\u2019s head office.',
    { width },
  );
  doc.end();
  return done;
}
