import { Pdf } from './document.ts';
import { keyValues, letterhead, pageFooters, sectionTitle, signatures, table } from './draw.ts';
import { pdfText } from './text.ts';

export interface CountCertificate {
  id: number;
  status: 'open' | 'closed';
  holder: string;
  counter: string;
  startedAt: string;
  closedAt: string | null;
  signedOff: string | null;
  signaturePng: Buffer | null;
  pads: Array<{ route: string; padNumber: number; series: string; state: string; firstUnused: string; books: string }>;
  variances: Array<{ pad: string; kind: string; detail: string; resolution: string }>;
}

/** docs/design.md §9 count certificate: who counted whom and when, every pad counted, each variance and its resolution. */
export function renderCountCertificatePdf(c: CountCertificate): Promise<Buffer> {
  const pdf = new Pdf({
    size: 'A4',
    margins: { top: 36, bottom: 36, left: 40, right: 40 },
    headerHeight: 48,
    footerGap: 16,
    info: { title: `Count certificate ${c.id}` },
  });
  pdf.onEveryPage(() => letterhead(pdf, { reference: `Count #${c.id}`, title: 'Physical count certificate' }));
  pageFooters(pdf, `PadTrack count #${c.id}`, { size: 7.5, ruled: true });
  pdf.addPage();
  pdf.font('bold', 16);
  pdf.doc.text(c.status === 'closed' ? 'Physical Count Certificate' : 'Physical Count (open, not yet certified)', pdf.left, pdf.doc.y, {
    width: pdf.width,
  });
  pdf.doc.y += 8;
  keyValues(pdf, [
    { label: 'Counted', value: pdfText(c.holder) },
    { label: 'Counted by', value: pdfText(c.counter) },
    { label: 'Started', value: c.startedAt },
    { label: 'Closed', value: c.closedAt ?? 'Open' },
    { label: 'Holder sign-off', value: pdfText(c.signedOff ?? 'Not signed off'), wide: true },
    { label: 'Pads counted', value: String(c.pads.length) },
    { label: 'Variances', value: String(c.variances.length) },
  ]);
  countTables(pdf, c);
  countSignatures(pdf, c);
  return pdf.finish();
}

/** The pads counted and the variances with their resolution, one table each. */
function countTables(pdf: Pdf, c: CountCertificate): void {
  sectionTitle(pdf, 'Pads counted');
  table(
    pdf,
    [
      { label: 'Route' },
      { label: 'Pad', width: 50, align: 'right' },
      { label: 'Series', width: 110 },
      { label: 'Counted', width: 120 },
      { label: 'First unused', width: 70, align: 'right' },
      { label: 'Books', width: 60, align: 'right' },
    ],
    c.pads.map((p) => [pdfText(p.route), String(p.padNumber), p.series, p.state, p.firstUnused, p.books]),
    { caption: 'Pads counted' },
  );
  sectionTitle(pdf, 'Variances and their resolution');
  if (c.variances.length === 0) {
    pdf.font('regular', 9);
    pdf.doc.text('No variances: the count agrees with the books.', pdf.left, pdf.doc.y, { width: pdf.width });
  } else {
    table(
      pdf,
      [{ label: 'Pad', width: 110 }, { label: 'Variance', width: 110 }, { label: 'Detail' }, { label: 'Resolution', width: 150 }],
      c.variances.map((v) => [pdfText(v.pad), v.kind, pdfText(v.detail), pdfText(v.resolution)]),
      { caption: 'Variances' },
    );
  }
}

/** The holder's drawn signature, if any, above the counter's and the holder's signature lines. */
function countSignatures(pdf: Pdf, c: CountCertificate): void {
  if (c.signaturePng) {
    pdf.ensureSpace(80);
    pdf.doc.y += 10;
    pdf.doc.image(c.signaturePng, pdf.left, pdf.doc.y, { fit: [180, 60] });
    pdf.doc.y += 62;
    pdf.forgetStyle();
  }
  signatures(
    pdf,
    [
      {
        lines: [
          { text: 'Counted by', muted: true },
          { text: pdfText(c.counter), weight: 'bold' },
        ],
      },
      {
        lines: [
          { text: 'Holder', muted: true },
          { text: pdfText(c.signedOff ?? c.holder), weight: 'bold' },
        ],
      },
    ],
    { gutter: 40, space: c.signaturePng ? 4 : 40 },
  );
}
