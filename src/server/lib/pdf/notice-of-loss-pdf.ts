import { documentTimeText } from '../../../shared/format.ts';
import type { IdentitySnapshot, Signatory } from '../../../shared/schemas/operator-identity.ts';
import { Pdf } from './document.ts';
import {
  documentTitle,
  keyValues,
  pageFooters,
  paragraph,
  sectionTitle,
  signatures,
  signaturesHeight,
  table,
  type Signature,
} from './draw.ts';
import { LETTERHEAD_HEIGHT, letterheadOnEveryPage } from './letterhead.ts';
import { pdfText } from './text.ts';

/** A person as the notice names them: under a signature line, their name and position. */
export interface NoticePerson {
  name: string;
  position: string;
}

/** What COA Circular 84-233 asks a Notice of Loss to state, whose forms they are, and who confirmed it. */
export interface NoticeOfLoss {
  number: string;
  /** e.g. "Official Receipt / Invoice". */
  formKind: string;
  operator: IdentitySnapshot;
  /** Who signs notices for the operator (Settings); a blank line for a name when none is set. */
  signatory: Signatory | null;
  /** `route` is "Company - Route - TIN"; `atp` the registered series the numbers were printed under; `invoice` the one carrying the pad, or "-". */
  lines: Array<{ route: string; padNumber: number; from: number; to: number; qty: number; atp: string; invoice: string }>;
  /** A sentence for each pad that was on an in-transit invoice when it was lost. */
  transitNotes: string[];
  place: string;
  occurredAt: Date;
  circumstances: string;
  reportedBy: NoticePerson;
  reportedAt: Date;
  confirmedBy: NoticePerson;
  confirmedAt: Date;
  papers: Array<{ kind: string; fileName: string; date: string }>;
  /** Why the loss was confirmed without an affidavit of loss, e.g. "Affidavit to follow". */
  noAffidavitReason: string | null;
  timeZone: string;
}

const range = (from: number, to: number) => (from === to ? `${from}` : `${from} to ${to}`);

const DECLARATION =
  'The forms listed above are declared lost. They are void: do not accept them in payment or as proof of payment, and report anyone presenting them to the operator\u2019s head office.';

/** The reporter, the approver and the operator's signatory, each with a name and position under the line. */
function signatureSlots(notice: NoticeOfLoss): Signature[] {
  const at = (when: Date) => documentTimeText(when, notice.timeZone);
  const person = (caption: string, who: NoticePerson, when: string) => ({
    lines: [
      { text: caption, muted: true },
      { text: pdfText(who.name) || 'Name: ____________________', weight: 'bold' as const },
      { text: pdfText(who.position) || 'Position: ____________________' },
      { text: when },
    ],
  });
  return [
    person('Reported by', notice.reportedBy, at(notice.reportedAt)),
    person('Loss confirmed by', notice.confirmedBy, at(notice.confirmedAt)),
    person('For the operator', notice.signatory ?? { name: '', position: '' }, 'Date: ____________________'),
  ];
}

/** The lost ranges with their route, pad, quantity, registered series (ATP) and the invoice a pad was on. */
function lostForms(pdf: Pdf, notice: NoticeOfLoss): void {
  const quantity = notice.lines.reduce((sum, line) => sum + line.qty, 0);
  sectionTitle(pdf, 'Inclusive serial numbers');
  table(
    pdf,
    [
      { label: 'Company - Route - TIN' },
      { label: 'Pad', width: 38, align: 'right' },
      { label: 'Numbers', width: 100 },
      { label: 'Quantity', width: 50, align: 'right' },
      { label: 'Registered series (ATP)', width: 130 },
      { label: 'In transit on', width: 72 },
    ],
    notice.lines.map((line) => [
      pdfText(line.route),
      String(line.padNumber),
      range(line.from, line.to),
      String(line.qty),
      pdfText(line.atp),
      line.invoice,
    ]),
    { caption: 'Inclusive serial numbers', totals: ['Total', '', '', String(quantity), '', ''] },
  );
  for (const note of notice.transitNotes) {
    pdf.doc.y += 4;
    paragraph(pdf, pdfText(note), { size: 9 });
  }
}

/** The papers attached, by kind, or that there are none; without an affidavit, the reason the approver gave. */
function papers(pdf: Pdf, notice: NoticeOfLoss): void {
  sectionTitle(pdf, 'Papers attached');
  if (notice.papers.length === 0) paragraph(pdf, 'No papers attached.', { size: 9 });
  else {
    table(
      pdf,
      [{ label: 'Kind', width: 150 }, { label: 'File' }, { label: 'Date', width: 120 }],
      notice.papers.map((paper) => [paper.kind, pdfText(paper.fileName), paper.date]),
    );
  }
  if (notice.noAffidavitReason !== null) {
    pdf.doc.y += 4;
    paragraph(pdf, pdfText(`No affidavit of loss attached. Reason given on confirmation: ${notice.noAffidavitReason}`), { size: 9 });
  }
}

/**
 * docs/design.md §9 Notice of Loss: the operator's letterhead, the kind of forms, the quantity, the inclusive serial
 * numbers with the ATP they were printed under, the place and approximate date of the loss (COA Circular 84-233), the
 * invoice a pad was travelling on, the papers attached and who reported, confirmed and signs it; portrait A4.
 */
export function renderNoticeOfLossPdf(notice: NoticeOfLoss): Promise<Buffer> {
  const pdf = new Pdf({
    size: 'A4',
    margins: { top: 40, bottom: 40, left: 44, right: 44 },
    headerHeight: LETTERHEAD_HEIGHT + 14,
    footerGap: 16,
    info: { title: `Notice of Loss ${notice.number}`, subject: 'Notice of Loss of Accountable Forms', createdAt: notice.confirmedAt },
  });
  const at = (when: Date) => documentTimeText(when, notice.timeZone);
  letterheadOnEveryPage(pdf, notice.operator, { reference: `Notice No. ${notice.number}`, title: 'Notice of Loss of Accountable Forms' });
  pageFooters(pdf, `Notice of Loss ${notice.number}`, { size: 7.5, ruled: true });
  pdf.addPage();
  documentTitle(pdf, 'NOTICE OF LOSS OF ACCOUNTABLE FORMS', `Notice No. ${notice.number}  |  Issued ${at(notice.confirmedAt)}`);
  const quantity = notice.lines.reduce((sum, line) => sum + line.qty, 0);
  keyValues(
    pdf,
    [
      { label: 'Kind of forms', value: notice.formKind, wide: true },
      { label: 'Quantity', value: `${quantity} ${quantity === 1 ? 'form' : 'forms'}` },
      { label: 'Place of loss', value: pdfText(notice.place) },
      { label: 'Date and time of loss', value: `About ${at(notice.occurredAt)}`, wide: true },
    ],
    { labelWidth: 110 },
  );
  lostForms(pdf, notice);
  sectionTitle(pdf, 'Circumstances');
  paragraph(pdf, pdfText(notice.circumstances), { size: 9 });
  papers(pdf, notice);
  const slots = signatureSlots(notice);
  const options = { gutter: 24, space: 40 };
  pdf.doc.y += 8;
  pdf.font('regular', 9.5);
  pdf.ensureSpace(pdf.textHeight(DECLARATION, pdf.width) + signaturesHeight(pdf, slots, options));
  paragraph(pdf, DECLARATION, { size: 9.5 });
  signatures(pdf, slots, options);
  return pdf.finish();
}
