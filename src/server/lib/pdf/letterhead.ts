import type { IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import { PALETTE, type Pdf, type Weight } from './document.ts';
import { pdfText } from './text.ts';

/** Points from the top margin to the letterhead's rule: a document's `headerHeight` is at least this plus a gap. */
export const LETTERHEAD_HEIGHT = 44;
/** Points from the top margin to the form header's rule. */
export const FORM_HEADER_HEIGHT = 64;

const LOGO_SIDE = 36;
const LOGO_GAP = 8;
const NAME_WRAPPED_SIZE = 8.5;

/** The document's reference and title in a letterhead's right column. */
export interface DocumentLine {
  reference: string;
  title: string;
}

export interface FormLines {
  title: string;
  subtitle: string;
  left: string;
  right: string;
}

const logoSource = (identity: IdentitySnapshot) => (identity.logo ? `data:image/png;base64,${identity.logo}` : null);

/** "TIN 004-512-889-000" and the address on one line, as the operator is named on a receipt. */
const particulars = (identity: IdentitySnapshot) =>
  [identity.tin ? `TIN ${identity.tin}` : '', pdfText(identity.address)].filter(Boolean).join('  |  ');

/**
 * One line of header text in `width`: the size shrinks to `minSize` before the line is cut with an ellipsis, so a
 * long registered name stays whole where it can and never runs under the column beside it.
 */
function fittedLine(
  pdf: Pdf,
  text: string,
  at: { x: number; y: number; width: number },
  style: { weight: Weight; size: number; minSize: number; color?: string; align?: 'left' | 'right' | 'center' },
): void {
  let size = style.size;
  pdf.font(style.weight, size, style.color);
  while (size > style.minSize && pdf.doc.widthOfString(text) > at.width) {
    size = Math.max(style.minSize, size - 0.5);
    pdf.font(style.weight, size, style.color);
  }
  pdf.lineText(text, at.x, at.y, at.width, style.align);
}

/** The registered name, shrunk to fit one line, or wrapped onto two at the smallest size; answers the height it took. */
function nameBlock(pdf: Pdf, name: string, at: { x: number; y: number; width: number }): number {
  let size = 12;
  pdf.font('bold', size, PALETTE.accent);
  while (size > 9 && pdf.doc.widthOfString(name) > at.width) {
    size -= 0.5;
    pdf.font('bold', size, PALETTE.accent);
  }
  if (pdf.doc.widthOfString(name) <= at.width) {
    pdf.lineText(name, at.x, at.y, at.width);
    return size;
  }
  pdf.font('bold', NAME_WRAPPED_SIZE, PALETTE.accent);
  const height = Math.min(pdf.textHeight(name, at.width), pdf.textHeight('X', at.width) * 2);
  pdf.doc.text(name, at.x, at.y, { width: at.width, height, ellipsis: true });
  return height;
}

function drawLogo(pdf: Pdf, src: string, x: number, y: number): void {
  pdf.doc.image(src, x, y, { fit: [LOGO_SIDE, LOGO_SIDE], align: 'center', valign: 'center' });
}

function letterheadText(pdf: Pdf, identity: IdentitySnapshot, document: DocumentLine): void {
  const { left, top, width } = pdf;
  const rightWidth = width * 0.36;
  const textLeft = left + (identity.logo ? LOGO_SIDE + LOGO_GAP : 0);
  const textWidth = width - rightWidth - (textLeft - left) - 12;
  if (identity.registeredName) {
    let y = top + nameBlock(pdf, pdfText(identity.registeredName), { x: textLeft, y: top, width: textWidth }) + 3;
    if (identity.tradeName) {
      fittedLine(pdf, pdfText(identity.tradeName), { x: textLeft, y, width: textWidth }, { weight: 'regular', size: 8.5, minSize: 7 });
      y += 11;
    }
    fittedLine(
      pdf,
      particulars(identity),
      { x: textLeft, y, width: textWidth },
      { weight: 'regular', size: 7.5, minSize: 6.5, color: PALETTE.muted },
    );
  } else {
    pdf.font('bold', 15, PALETTE.accent);
    pdf.doc.text('PadTrack', textLeft, top, { lineBreak: false });
    pdf.font('regular', 8.5, PALETTE.muted);
    pdf.doc.text('Receipt pad custody  |  Ferry operations', textLeft, top + 19, { lineBreak: false });
  }
  const rightX = left + width - rightWidth;
  fittedLine(
    pdf,
    document.reference,
    { x: rightX, y: top + 2, width: rightWidth },
    { weight: 'bold', size: 10, minSize: 8, align: 'right' },
  );
  fittedLine(
    pdf,
    document.title,
    { x: rightX, y: top + 17, width: rightWidth },
    { weight: 'regular', size: 8.5, minSize: 7, color: PALETTE.muted, align: 'right' },
  );
  pdf.hline(top + LETTERHEAD_HEIGHT, { color: PALETTE.accent, lineWidth: 1.2 });
}

/** The operator's letterhead on the current page: logo, registered and trade name, TIN and address; the document's reference and title on the right. */
export function letterhead(pdf: Pdf, identity: IdentitySnapshot, document: DocumentLine): void {
  letterheadText(pdf, identity, document);
  const logo = logoSource(identity);
  if (logo) drawLogo(pdf, logo, pdf.left, pdf.top);
}

/**
 * The letterhead on every page from now on. The text is recorded once and replayed; the logo, an image the replay
 * cannot carry, is placed on each page as it begins.
 */
export function letterheadOnEveryPage(pdf: Pdf, identity: IdentitySnapshot, document: DocumentLine): void {
  pdf.onEveryPage(() => letterheadText(pdf, identity, document));
  const logo = logoSource(identity);
  if (logo) pdf.everyPage(() => drawLogo(pdf, logo, pdf.left, pdf.top));
}

function formHeaderText(pdf: Pdf, identity: IdentitySnapshot, form: FormLines): void {
  const { doc, left, top, width } = pdf;
  const inset = identity.logo ? LOGO_SIDE + LOGO_GAP : 0;
  const centred = { x: left + inset, width: width - inset * 2 };
  const operator = pdfText(identity.registeredName) || 'PadTrack';
  const lines = [pdfText(identity.tradeName), particulars(identity)].filter(Boolean).join('  |  ');
  fittedLine(pdf, operator, { ...centred, y: top }, { weight: 'bold', size: 10, minSize: 7.5, color: PALETTE.ink, align: 'center' });
  if (lines)
    fittedLine(
      pdf,
      lines,
      { ...centred, y: top + 12 },
      { weight: 'regular', size: 7.5, minSize: 6.5, color: PALETTE.muted, align: 'center' },
    );
  fittedLine(
    pdf,
    form.title,
    { ...centred, y: top + 23 },
    { weight: 'bold', size: 12, minSize: 9, color: PALETTE.accent, align: 'center' },
  );
  fittedLine(pdf, form.subtitle, { ...centred, y: top + 38 }, { weight: 'regular', size: 9.5, minSize: 7.5, align: 'center' });
  fittedLine(pdf, form.left, { x: left, y: top + 51, width: formLeftWidth(pdf, form) }, { ...FORM_LINE, color: PALETTE.muted });
  pdf.font('regular', FORM_LINE.size, PALETTE.muted);
  pdf.lineText(form.right, left + width / 2 + 6, top + 51, width / 2 - 6, 'right');
  doc.x = left;
  pdf.hline(top + FORM_HEADER_HEIGHT, { color: PALETTE.accent, lineWidth: 1 });
}

const FORM_LINE = { weight: 'regular', size: 8.5, minSize: 7 } as const;

/** The room of the form header's left line (the accountable officer and branch): what the right line leaves of the body. */
function formLeftWidth(pdf: Pdf, form: FormLines): number {
  pdf.font('regular', FORM_LINE.size);
  return pdf.width - pdf.doc.widthOfString(form.right) - 12;
}

/** Whether the form header prints its left line whole, at its smallest size; when not, the document prints it in its body. */
export function formLeftFits(pdf: Pdf, form: FormLines): boolean {
  const width = formLeftWidth(pdf, form);
  pdf.font('regular', FORM_LINE.minSize);
  return pdf.doc.widthOfString(form.left) <= width;
}

/** A form's header on every page: the operator over the form's title and subtitle, centred, then its particulars left and right. */
export function formHeaderOnEveryPage(pdf: Pdf, identity: IdentitySnapshot, form: FormLines): void {
  pdf.onEveryPage(() => formHeaderText(pdf, identity, form));
  const logo = logoSource(identity);
  if (logo) pdf.everyPage(() => drawLogo(pdf, logo, pdf.left, pdf.top));
}
