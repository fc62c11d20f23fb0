import type { IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import { Pdf } from './document.ts';
import { LETTERHEAD_HEIGHT, letterheadOnEveryPage } from './letterhead.ts';
import { keyValues, pageFooters, paragraph, sectionTitle, signatures, signaturesHeight, table, type Signature } from './draw.ts';
import { pdfText } from './text.ts';

/** Someone the certificate names under a signature line: a name (blank for the signer to write) and a position. */
export interface CertificatePerson {
  name: string;
  position: string;
}

export interface CountCertificate {
  id: number;
  status: 'open' | 'closed';
  holder: string;
  counter: CertificatePerson;
  /** Who signs for the holder: the one who signed off, else the holder counted, else the branch's officer by position. */
  signer: CertificatePerson;
  /** Times with their zone (documentTimeText). */
  startedAt: string;
  closedAt: string | null;
  signedOffAt: string | null;
  printedAt: string;
  signaturePng: Buffer | null;
  pads: Array<{ route: string; padNumber: number; series: string; state: string; firstUnused: string; books: string }>;
  variances: Array<{ pad: string; kind: string; detail: string; resolution: string }>;
  /** The operator as the certificate prints it (settings' read-model). */
  operator: IdentitySnapshot;
}

const SIGNATURES = { gutter: 40, space: 40 };
/** Room for the holder's drawn signature above their line. */
const DRAWN = { width: 180, height: 60 };

/** The counter's and the holder's signature lines, each with the name, the position and when they signed. */
function slots(c: CountCertificate): Signature[] {
  const slot = (caption: string, who: CertificatePerson, at: string | null): Signature => ({
    lines: [
      { text: caption, muted: true },
      { text: pdfText(who.name) || 'Name: ____________________', weight: 'bold' },
      { text: pdfText(who.position) || 'Position: ____________________' },
      { text: at ?? 'Date and time: ______________' },
    ],
  });
  return [slot('Counted by', c.counter, c.closedAt), slot('Holder', c.signer, c.signedOffAt)];
}

/** docs/design.md §9 count certificate: who counted whom and when, every pad counted, each variance and its resolution. */
export function renderCountCertificatePdf(c: CountCertificate): Promise<Buffer> {
  const pdf = new Pdf({
    size: 'A4',
    margins: { top: 36, bottom: 36, left: 40, right: 40 },
    headerHeight: LETTERHEAD_HEIGHT + 12,
    footerGap: 16,
    info: { title: `Count certificate ${c.id}` },
  });
  letterheadOnEveryPage(pdf, c.operator, { reference: `Count #${c.id}`, title: 'Physical count certificate' });
  pageFooters(pdf, `Count #${c.id}, printed ${c.printedAt}`, { size: 7.5, ruled: true });
  pdf.addPage();
  pdf.font('bold', 16);
  pdf.doc.text(c.status === 'closed' ? 'Physical Count Certificate' : 'Physical Count (open, not yet certified)', pdf.left, pdf.doc.y, {
    width: pdf.width,
  });
  pdf.doc.y += 8;
  const who = (person: CertificatePerson) => pdfText([person.name, person.position].filter(Boolean).join(', '));
  keyValues(pdf, [
    { label: 'Counted', value: pdfText(c.holder) },
    { label: 'Counted by', value: who(c.counter) },
    { label: 'Started', value: c.startedAt },
    { label: 'Closed', value: c.closedAt ?? 'Open' },
    { label: 'Holder sign-off', value: c.signedOffAt ? `${who(c.signer)}, ${c.signedOffAt}` : 'Not signed off', wide: true },
    { label: 'Pads counted', value: String(c.pads.length) },
    { label: 'Variances', value: String(c.variances.length) },
  ]);
  const signed = slots(c);
  const tail = signaturesHeight(pdf, signed, SIGNATURES) + (c.signaturePng ? DRAWN.height + 4 : 0);
  countTables(pdf, c, tail);
  countSignatures(pdf, c, signed);
  return pdf.finish();
}

/** The pads counted and the variances with their resolution, one table each; the last keeps `tail` room for the signatures. */
function countTables(pdf: Pdf, c: CountCertificate, tail: number): void {
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
    const none = 'No variances: the count agrees with the books.';
    pdf.font('regular', 9);
    pdf.ensureSpace(pdf.textHeight(none, pdf.width) + tail);
    paragraph(pdf, none, { size: 9 });
  } else {
    table(
      pdf,
      [{ label: 'Pad', width: 110 }, { label: 'Variance', width: 110 }, { label: 'Detail' }, { label: 'Resolution', width: 150 }],
      c.variances.map((v) => [pdfText(v.pad), v.kind, pdfText(v.detail), pdfText(v.resolution)]),
      { caption: 'Variances', keepWithLast: tail },
    );
  }
}

/** The holder's drawn signature, if any, above the holder's line, and the counter's and the holder's signature lines. */
function countSignatures(pdf: Pdf, c: CountCertificate, signed: Signature[]): void {
  const space = c.signaturePng ? DRAWN.height + 4 : SIGNATURES.space;
  pdf.ensureSpace(signaturesHeight(pdf, signed, { ...SIGNATURES, space }));
  if (c.signaturePng) {
    const slotWidth = (pdf.width - SIGNATURES.gutter) / 2;
    const top = pdf.doc.y;
    pdf.doc.image(c.signaturePng, pdf.left + slotWidth + SIGNATURES.gutter, top, { fit: [DRAWN.width, DRAWN.height] });
    pdf.doc.y = top;
    pdf.forgetStyle();
  }
  signatures(pdf, signed, { ...SIGNATURES, space });
}
