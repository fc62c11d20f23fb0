import { PALETTE, type Align, type Pdf, type Weight } from './document.ts';

const CELL_PAD = 4;
const BODY_SIZE = 8.5;

/** PadTrack's letterhead: the brand on the left, the document's reference and title on the right, over an accent rule. */
export function letterhead(pdf: Pdf, document: { reference: string; title: string }): void {
  const { doc, left, top, width } = pdf;
  pdf.font('bold', 15, PALETTE.accent);
  doc.text('PadTrack', left, top, { lineBreak: false });
  pdf.font('regular', 8.5, PALETTE.muted);
  doc.text('Receipt pad custody  |  Ferry operations', left, top + 19, { lineBreak: false });
  pdf.font('bold', 10);
  doc.text(document.reference, left, top + 2, { width, align: 'right', lineBreak: false });
  pdf.font('regular', 8.5, PALETTE.muted);
  doc.text(document.title, left, top + 19, { width, align: 'right', lineBreak: false });
  pdf.hline(top + 36, { color: PALETTE.accent, lineWidth: 1.2 });
}

/** A form's header: its title and subtitle centred, then a line of particulars on the left and right, over an accent rule. */
export function formHeader(pdf: Pdf, form: { title: string; subtitle: string; left: string; right: string }): void {
  const { doc, left, top, width } = pdf;
  pdf.font('bold', 12, PALETTE.accent);
  doc.text(form.title, left, top, { width, align: 'center' });
  pdf.font('regular', 9.5);
  doc.text(form.subtitle, left, top + 16, { width, align: 'center' });
  pdf.font('regular', 8.5, PALETTE.muted);
  doc.text(form.left, left, top + 32, { width: width / 2, lineBreak: false });
  doc.text(form.right, left, top + 32, { width, align: 'right', lineBreak: false });
  pdf.hline(top + 46, { color: PALETTE.accent, lineWidth: 1 });
}

/** Digits kept free after "Page N of " for the page count, which is written only when the document ends. */
const PAGE_COUNT_ROOM = '0000';

/**
 * Every page's footer: `text` on the left and "Page X of Y" on the right, under a thin rule when `ruled`. Set it
 * before the first page: each page then gets it as it begins, and Y is filled in when the document ends.
 */
export function pageFooters(pdf: Pdf, text: string, options: { size: number; ruled?: boolean }): void {
  const { doc, left, right, footerY } = pdf;
  pdf.everyPage((page) => {
    if (options.ruled) pdf.hline(footerY - 6);
    pdf.font('regular', options.size, PALETTE.muted);
    doc.text(text, left, footerY, { lineBreak: false });
    const countX = right - doc.widthOfString(PAGE_COUNT_ROOM);
    const pageOf = `Page ${page} of `;
    doc.text(pageOf, countX - doc.widthOfString(pageOf), footerY, { lineBreak: false });
    pdf.pageTotal(countX, footerY);
  });
}

/** Large faint diagonal text across every page, as on a draft; set before the first page, it is drawn as each page begins. */
export function watermark(pdf: Pdf, text: string): void {
  const { doc, pageWidth, pageHeight } = pdf;
  pdf.everyPage(() => {
    doc.save();
    doc.rotate(-35, { origin: [pageWidth / 2, pageHeight / 2] });
    doc.font('Helvetica-Bold').fontSize(96).fillColor(PALETTE.accent).fillOpacity(0.07);
    doc.text(text, 0, pageHeight / 2 - 48, { width: pageWidth, align: 'center', lineBreak: false });
    doc.restore();
  });
}

/** The document's title with a line saying what it holds. */
export function documentTitle(pdf: Pdf, title: string, lead: string): void {
  pdf.font('bold', 17);
  pdf.doc.text(title, pdf.left, pdf.doc.y, { width: pdf.width });
  pdf.font('regular', 9, PALETTE.muted);
  pdf.doc.text(lead, { width: pdf.width });
  pdf.doc.y += 10;
}

/** A section's title, moved to the next page when too little room is left for the section to start. */
export function sectionTitle(pdf: Pdf, title: string): void {
  pdf.ensureSpace(60);
  pdf.doc.y += 6;
  pdf.font('bold', 11.5, PALETTE.accent);
  pdf.doc.text(title, pdf.left, pdf.doc.y, { width: pdf.width });
  pdf.doc.y += 4;
}

/** A full-width accent band with white text on the left and the right, heading a block. */
export function band(pdf: Pdf, leftText: string, rightText: string): void {
  const { doc, left, width } = pdf;
  doc.y += 6;
  const top = doc.y;
  pdf.rect(left, top, width, 18, PALETTE.accent);
  pdf.font('bold', 9.5, PALETTE.white);
  doc.text(leftText, left + 6, top + 5, { lineBreak: false });
  doc.text(rightText, left, top + 5, { width: width - 6, align: 'right', lineBreak: false });
  doc.x = left;
  doc.y = top + 24;
}

/**
 * Body text across the page, moved whole to the next page when it does not fit; headings are bold in the accent colour.
 * A line that surely fits is measured without the line wrapper, and a short one placed without it: a long RAAF has
 * thousands of remark lines.
 */
export function paragraph(pdf: Pdf, text: string, options: { heading?: boolean; size?: number } = {}): void {
  pdf.font(options.heading ? 'bold' : 'regular', options.size ?? 8, options.heading ? PALETTE.accent : PALETTE.ink);
  const height = pdf.textHeight(text, pdf.width);
  pdf.ensureSpace(height);
  const top = pdf.doc.y;
  pdf.boxText(text, pdf.left, top, pdf.width);
  pdf.doc.x = pdf.left;
  pdf.doc.y = top + height;
}

export interface Field {
  label: string;
  /** Shown as "-" when empty. */
  value: string;
  /** Across the page rather than in one of two columns. */
  wide?: boolean;
}

/** Label and value pairs laid out in two columns (a `wide` one across the page); a pair never splits across pages. */
export function keyValues(pdf: Pdf, fields: Field[], options: { labelWidth?: number } = {}): void {
  const labelWidth = options.labelWidth ?? 92;
  const half = pdf.width / 2;
  const valueWidth = (field: Field) => (field.wide ? pdf.width : half) - labelWidth - 8;
  const measure = (field: Field) => {
    pdf.font('regular', 9);
    return pdf.textHeight(field.value || '-', valueWidth(field));
  };
  const draw = (field: Field, x: number, top: number) => {
    pdf.font('regular', 8.5, PALETTE.muted);
    pdf.doc.text(field.label, x, top, { width: labelWidth, lineBreak: false });
    pdf.font('regular', 9);
    pdf.boxText(field.value || '-', x + labelWidth, top, valueWidth(field));
  };
  for (let i = 0; i < fields.length;) {
    const first = fields[i];
    const second = !first.wide && fields[i + 1] && !fields[i + 1].wide ? fields[i + 1] : null;
    const height = Math.max(measure(first), second ? measure(second) : 0) + 5;
    pdf.ensureSpace(height);
    const top = pdf.doc.y;
    draw(first, pdf.left, top);
    if (second) draw(second, pdf.left + half, top);
    pdf.doc.x = pdf.left;
    pdf.doc.y = top + height;
    i += second ? 2 : 1;
  }
}

export interface Column {
  label: string;
  /** Points; a column without one takes what the others leave of the body's width. */
  width?: number;
  align?: Align;
}

interface RowStyle {
  weight: Weight;
  size: number;
  color: string;
  background?: string;
}

const HEADER_ROW: RowStyle = { weight: 'bold', size: 8, color: PALETTE.muted, background: PALETTE.shade };

/**
 * A table across the body: a shaded header row, cells that wrap within their column, alternate rows striped
 * and an optional bold totals row. No row splits across pages; after a page break the header is drawn again,
 * under "<caption> (continued)" when there is a caption.
 */
export function table(pdf: Pdf, columns: Column[], rows: string[][], options: { caption?: string; totals?: string[] } = {}): void {
  const fixed = columns.reduce((sum, column) => sum + (column.width ?? 0), 0);
  const grid = columns.map((column) => ({ width: column.width ?? pdf.width - fixed, align: column.align ?? 'left' }));
  const header = columns.map((column) => column.label);
  const body = (index: number): RowStyle => ({
    weight: 'regular',
    size: BODY_SIZE,
    color: PALETTE.ink,
    background: index % 2 === 1 ? PALETTE.stripe : undefined,
  });
  const drawHeader = (continued: boolean) => {
    if (options.caption && continued) {
      pdf.font('regular', 8, PALETTE.muted);
      pdf.doc.text(`${options.caption} (continued)`, pdf.left, pdf.doc.y, { width: pdf.width });
      pdf.doc.y += 2;
    }
    tableRow(pdf, header, grid, HEADER_ROW);
  };
  const keepTogether = (cells: string[], style: RowStyle) => {
    const height = rowHeight(pdf, cells, grid, style);
    if (pdf.ensureSpace(height)) drawHeader(true);
    tableRow(pdf, cells, grid, style, height);
  };
  pdf.ensureSpace(rowHeight(pdf, header, grid, HEADER_ROW) + rowHeight(pdf, rows[0] ?? header, grid, body(0)));
  drawHeader(false);
  rows.forEach((row, index) => keepTogether(row, body(index)));
  if (options.totals) keepTogether(options.totals, { weight: 'bold', size: BODY_SIZE, color: PALETTE.ink });
}

type Grid = Array<{ width: number; align: Align }>;

function rowHeight(pdf: Pdf, cells: string[], grid: Grid, style: RowStyle): number {
  pdf.font(style.weight, style.size);
  return Math.max(...cells.map((cell, i) => pdf.textHeight(cell || ' ', grid[i].width - CELL_PAD * 2))) + CELL_PAD * 2;
}

function tableRow(pdf: Pdf, cells: string[], grid: Grid, style: RowStyle, height = rowHeight(pdf, cells, grid, style)): void {
  const top = pdf.doc.y;
  if (style.background) pdf.rect(pdf.left, top, pdf.width, height, style.background);
  pdf.font(style.weight, style.size, style.color);
  let x = pdf.left;
  cells.forEach((cell, i) => {
    if (cell) pdf.boxText(cell, x + CELL_PAD, top + CELL_PAD, grid[i].width - CELL_PAD * 2, grid[i].align);
    x += grid[i].width;
  });
  pdf.hline(top + height);
  pdf.doc.x = pdf.left;
  pdf.doc.y = top + height;
}

export interface Signature {
  /** Lines under the signature line, each below the last; an empty one keeps its place. */
  lines: Array<{ text: string; weight?: Weight; muted?: boolean; size?: number; gap?: number }>;
}

/**
 * Signature lines side by side across the body, `gutter` apart, each with its captions below; kept together
 * on one page, `space` below what came before.
 */
export function signatures(pdf: Pdf, slots: Signature[], options: { gutter: number; space: number; align?: Align }): void {
  const { doc, left } = pdf;
  const slotWidth = (pdf.width - options.gutter * (slots.length - 1)) / slots.length;
  const lineCount = Math.max(...slots.map((slot) => slot.lines.length));
  pdf.ensureSpace(options.space + 16 * lineCount + 12);
  const lineY = doc.y + options.space;
  slots.forEach((slot, i) => {
    const x = left + i * (slotWidth + options.gutter);
    pdf.hline(lineY, { color: PALETTE.ink, lineWidth: 0.7, from: x, to: x + slotWidth });
    let y = lineY + 4;
    slot.lines.forEach((line, index) => {
      if (index > 0) y += line.gap ?? 12;
      if (!line.text) return;
      pdf.font(line.weight ?? 'regular', line.size ?? 8.5, line.muted ? PALETTE.muted : PALETTE.ink);
      doc.text(line.text, x, y, { width: slotWidth, align: options.align ?? 'left' });
    });
  });
}
