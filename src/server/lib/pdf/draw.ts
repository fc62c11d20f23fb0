import { PALETTE, type Align, type Pdf, type Weight } from './document.ts';

const CELL_PAD = 4;
const BODY_SIZE = 8.5;

/** Digits kept free after "Page N of " for the page count, which is written only when the document ends. */
const PAGE_COUNT_ROOM = '0000';

/**
 * Every page's footer: `text` on the left and "Page X of Y" on the right, under a thin rule when `ruled`. Set it
 * before the first page: each page then gets it as it begins, and Y is filled in when the document ends.
 */
export function pageFooters(pdf: Pdf, text: string, options: { size: number; ruled?: boolean }): void {
  const { doc, left, right, footerY } = pdf;
  /* The same on every page: drawn once, then replayed; a long RAAF has a hundred pages of remarks. */
  const fixed = pdf.replayed(() => {
    if (options.ruled) pdf.hline(footerY - 6);
    pdf.font('regular', options.size, PALETTE.muted);
    doc.text(text, left, footerY, { lineBreak: false });
  });
  let countX: number | null = null;
  pdf.everyPage((page) => {
    fixed();
    pdf.font('regular', options.size, PALETTE.muted);
    countX ??= right - doc.widthOfString(PAGE_COUNT_ROOM);
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

/** A full-width accent band with white text on the left and the right, heading a block; text too long for its side is cut with an ellipsis. */
export function band(pdf: Pdf, leftText: string, rightText: string): void {
  const { doc, left, width } = pdf;
  doc.y += 6;
  const top = doc.y;
  pdf.rect(left, top, width, 18, PALETTE.accent);
  pdf.font('bold', 9.5, PALETTE.white);
  const leftWidth = Math.min(doc.widthOfString(leftText), width / 2 - 12);
  pdf.lineText(leftText, left + 6, top + 5, leftWidth);
  pdf.lineText(rightText, left + leftWidth + 18, top + 5, width - leftWidth - 24, 'right');
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
  const draw = (field: Field, x: number, top: number) => {
    pdf.font('regular', 8.5, PALETTE.muted);
    pdf.doc.text(field.label, x, top, { width: labelWidth - 4 });
    pdf.font('regular', 9);
    pdf.boxText(field.value || '-', x + labelWidth, top, valueWidth(field));
  };
  for (const { first, second, height } of fieldRows(pdf, fields, labelWidth)) {
    pdf.ensureSpace(height);
    const top = pdf.doc.y;
    draw(first, pdf.left, top);
    if (second) draw(second, pdf.left + half, top);
    pdf.doc.x = pdf.left;
    pdf.doc.y = top + height;
  }
}

/** The room keyValues() takes. */
export function keyValuesHeight(pdf: Pdf, fields: Field[], options: { labelWidth?: number } = {}): number {
  return fieldRows(pdf, fields, options.labelWidth ?? 92).reduce((sum, row) => sum + row.height, 0);
}

/** The pairs two to a line (a wide one alone), each line as tall as its tallest label or value. */
function fieldRows(pdf: Pdf, fields: Field[], labelWidth: number): Array<{ first: Field; second: Field | null; height: number }> {
  const half = pdf.width / 2;
  const measure = (field: Field) => {
    pdf.font('regular', 8.5);
    const label = pdf.textHeight(field.label, labelWidth - 4);
    pdf.font('regular', 9);
    return Math.max(label, pdf.textHeight(field.value || '-', (field.wide ? pdf.width : half) - labelWidth - 8));
  };
  const rows: Array<{ first: Field; second: Field | null; height: number }> = [];
  for (let i = 0; i < fields.length;) {
    const first = fields[i];
    const second = !first.wide && fields[i + 1] && !fields[i + 1].wide ? fields[i + 1] : null;
    rows.push({ first, second, height: Math.max(measure(first), second ? measure(second) : 0) + 5 });
    i += second ? 2 : 1;
  }
  return rows;
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

export interface TableOptions {
  /** Printed over the header again on each later page, as "<caption> (continued)". */
  caption?: string;
  /** A bold last row, kept on the page of the row before it. */
  totals?: string[];
  /** Room the block after the table needs (e.g. signatures()): the last row moves to the next page with it when it would be left alone. */
  keepWithLast?: number;
  /** A body row's text colour (e.g. a warning) instead of the ink. */
  rowColor?: (index: number) => string | undefined;
}

/**
 * A table across the body: a shaded header row, cells that wrap (and break a word too long for the column) within
 * their column, a row as tall as its tallest cell, alternate rows striped and an optional bold totals row. A row never
 * splits: one that does not fit moves whole to the next page, where the header is drawn again, under
 * "<caption> (continued)" when there is a caption; the last row and the totals stay together.
 */
export function table(pdf: Pdf, columns: Column[], rows: string[][], options: TableOptions = {}): void {
  const fixed = columns.reduce((sum, column) => sum + (column.width ?? 0), 0);
  const grid = columns.map((column) => ({ width: column.width ?? pdf.width - fixed, align: column.align ?? 'left' }));
  const header = columns.map((column) => column.label);
  const body = (index: number): RowStyle => ({
    weight: 'regular',
    size: BODY_SIZE,
    color: options.rowColor?.(index) ?? PALETTE.ink,
    background: index % 2 === 1 ? PALETTE.stripe : undefined,
  });
  const totals: RowStyle = { weight: 'bold', size: BODY_SIZE, color: PALETTE.ink };
  const drawHeader = (continued: boolean) => {
    if (options.caption && continued) {
      pdf.font('regular', 8, PALETTE.muted);
      pdf.doc.text(`${options.caption} (continued)`, pdf.left, pdf.doc.y, { width: pdf.width });
      pdf.doc.y += 2;
    }
    tableRow(pdf, header, grid, HEADER_ROW);
  };
  const totalsHeight = options.totals ? rowHeight(pdf, options.totals, grid, totals) : 0;
  const keepTogether = (cells: string[], style: RowStyle, after: number) => {
    const height = rowHeight(pdf, cells, grid, style);
    if (pdf.ensureSpace(height + after)) drawHeader(true);
    tableRow(pdf, cells, grid, style, height);
  };
  const tail = totalsHeight + (options.keepWithLast ?? 0);
  const first = rows.length > 0 ? rowHeight(pdf, rows[0], grid, body(0)) : 0;
  /* The header never stays behind alone: it starts on a page with room for the first row (and the tail, when that row is the last). */
  pdf.ensureSpace(rowHeight(pdf, header, grid, HEADER_ROW) + first + (rows.length <= 1 ? fitting(pdf, tail) : 0));
  drawHeader(false);
  rows.forEach((row, index) => keepTogether(row, body(index), index === rows.length - 1 ? fitting(pdf, tail) : 0));
  if (options.totals) keepTogether(options.totals, totals, rows.length === 0 ? fitting(pdf, options.keepWithLast ?? 0) : 0);
}

/** Room to keep below a row for what follows it, or none when even a fresh page could not hold both. */
function fitting(pdf: Pdf, after: number): number {
  return after <= (pdf.bodyBottom - pdf.bodyTop) / 2 ? after : 0;
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
    pdf.mark('cell', x, top, grid[i].width, height, cell);
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

export interface SignatureOptions {
  gutter: number;
  space: number;
  align?: Align;
  /** Each slot's width, from the left; by default the slots share the body's width. */
  slotWidth?: number;
}

const slotWidthOf = (pdf: Pdf, count: number, options: SignatureOptions) =>
  options.slotWidth ?? (pdf.width - options.gutter * (count - 1)) / count;

/** The room signatures() takes, with its captions wrapped in their slots: give it to table() as keepWithLast. */
export function signaturesHeight(pdf: Pdf, slots: Signature[], options: SignatureOptions): number {
  const slotWidth = slotWidthOf(pdf, slots.length, options);
  return options.space + Math.max(...slots.map((slot) => captionTops(pdf, slot, slotWidth).bottom)) + 4;
}

/** Each caption's top below the signature line, a wrapped one pushing the next down, and where the last ends. */
function captionTops(pdf: Pdf, slot: Signature, width: number): { tops: number[]; bottom: number } {
  const tops: number[] = [];
  let y = 4;
  let previous = 0;
  slot.lines.forEach((line, index) => {
    if (index > 0) y += Math.max(line.gap ?? 12, previous);
    tops.push(y);
    pdf.font(line.weight ?? 'regular', line.size ?? 8.5);
    previous = line.text ? pdf.textHeight(line.text, width) : 0;
  });
  return { tops, bottom: y + Math.max(previous, 12) };
}

/**
 * Signature lines side by side across the body, `gutter` apart, each with its captions below (a long one wrapped in
 * its slot); kept together on one page, `space` below what came before.
 */
export function signatures(pdf: Pdf, slots: Signature[], options: SignatureOptions): void {
  const { doc, left } = pdf;
  const slotWidth = slotWidthOf(pdf, slots.length, options);
  pdf.ensureSpace(signaturesHeight(pdf, slots, options));
  const lineY = doc.y + options.space;
  let bottom = lineY;
  slots.forEach((slot, i) => {
    const x = left + i * (slotWidth + options.gutter);
    pdf.hline(lineY, { color: PALETTE.ink, lineWidth: 0.7, from: x, to: x + slotWidth });
    const { tops, bottom: slotBottom } = captionTops(pdf, slot, slotWidth);
    bottom = Math.max(bottom, lineY + slotBottom);
    slot.lines.forEach((line, index) => {
      if (!line.text) return;
      pdf.font(line.weight ?? 'regular', line.size ?? 8.5, line.muted ? PALETTE.muted : PALETTE.ink);
      doc.text(line.text, x, lineY + tops[index], { width: slotWidth, align: options.align ?? 'left' });
    });
  });
  doc.x = left;
  doc.y = bottom;
}
