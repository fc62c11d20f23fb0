import PDFDocument from 'pdfkit';
import { RAAF_CERTIFICATION_TEXT, type Raaf } from '../../../shared/schemas/ledger.ts';
import { pdfText } from './text.ts';

export interface RaafDocument {
  raaf: Raaf;
  /** Set when the report is being certified: its number and the signing instant. */
  certificate: { number: string; certifiedAt: Date } | null;
  timeZone: string;
  generatedAt: Date;
}

const PAGE = { width: 841.89, height: 595.28 };
const MARGIN = { left: 36, right: 36, top: 32, bottom: 36 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const BOTTOM = PAGE.height - MARGIN.bottom - 14;
const INK = '#1a1a1a';
const MUTED = '#5b6470';
const RULE = '#c9ced6';
const ACCENT = '#1f3a5f';
const SHADE = '#eef1f5';
const ROUTE_WIDTH = 138;
const QTY_WIDTH = 34;
const NUMBER_WIDTH = (CONTENT_WIDTH - ROUTE_WIDTH - 4 * QTY_WIDTH) / 8;
const GROUP_WIDTH = QTY_WIDTH + 2 * NUMBER_WIDTH;
const ROW_HEIGHT = 13;
const BODY_TOP = MARGIN.top + 52;

/** The pdfkit internals the fast paths need: the current font's resource name, ascender, size and reference, and the page's fonts. */
interface PdfFontState {
  _font: { id: string; ascender: number; ref(): unknown };
  _fontSize: number;
  page: { fonts: Record<string, unknown>; height: number };
}

/**
 * Draws once, then replays the drawing's operators (and registers its fonts) on every later call: each page
 * of a long RAAF starts with the same header, and drawing it afresh through pdfkit is most of a page's cost.
 */
function replayed(doc: PDFKit.PDFDocument, draw: () => void): () => void {
  const state = doc as unknown as PdfFontState;
  let recorded: { content: string; fonts: Record<string, unknown>; x: number; y: number } | null = null;
  return () => {
    if (recorded) {
      doc.addContent(recorded.content);
      Object.assign(state.page.fonts, recorded.fonts);
      doc.x = recorded.x;
      doc.y = recorded.y;
      return;
    }
    const writes: string[] = [];
    const addContent = doc.addContent.bind(doc);
    doc.addContent = (data: string) => {
      writes.push(data);
      return addContent(data);
    };
    try {
      draw();
    } finally {
      doc.addContent = addContent;
    }
    recorded = { content: writes.join('\n'), fonts: { ...state.page.fonts }, x: doc.x, y: doc.y };
  };
}

const qtyText = new Intl.NumberFormat('en-US').format;

/**
 * The table's number cells as raw text operators, one block per page. A consolidated RAAF has tens of
 * thousands of range lines, and pdfkit's text() (line wrapper, kerning, its own transforms per call) costs
 * about fifteen times as much per cell. Cells hold digits and commas only and are right-aligned by the
 * font's widths; add() refuses one too wide for its cell, for the caller to draw with an ellipsis.
 */
class NumberCells {
  private readonly state: PdfFontState;
  private readonly digit: number;
  private readonly comma: number;
  private readonly ascent: number;
  private readonly xs = new Map<number, string>();
  private parts: string[] = [];

  /** Call with the cells' font and size current. */
  constructor(private readonly doc: PDFKit.PDFDocument) {
    this.state = doc as unknown as PdfFontState;
    this.digit = doc.widthOfString('0');
    this.comma = doc.widthOfString(',');
    this.ascent = (this.state._font.ascender / 1000) * this.state._fontSize;
  }

  add(text: string, right: number, width: number, top: number): boolean {
    const key = right * 64 + text.length;
    let x = this.xs.get(key);
    if (x === undefined) {
      let textWidth = 0;
      for (let i = 0; i < text.length; i += 1) textWidth += text.charCodeAt(i) === 44 ? this.comma : this.digit;
      if (textWidth > width) return false;
      x = (right - textWidth).toFixed(2);
      this.xs.set(key, x);
    }
    this.parts.push(`1 0 0 1 ${x} ${(this.state.page.height - top - this.ascent).toFixed(2)} Tm (${text}) Tj`);
    return true;
  }

  /** Writes the page's cells; call with the cells' font and colour current, before the page changes. */
  flush(): void {
    if (this.parts.length === 0) return;
    const { _font: font, _fontSize: size, page } = this.state;
    if (page.fonts[font.id] == null) page.fonts[font.id] = font.ref();
    this.doc.addContent(`q 1 0 0 -1 0 ${page.height.toFixed(2)} cm BT /${font.id} ${size.toFixed(2)} Tf\n${this.parts.join('\n')}\nET Q`);
    this.parts = [];
  }
}

const monthTitle = (month: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

const stamp = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(instant)
    .replace(',', '');

/**
 * Draws a RAAF in the COA layout (Appendix 67): title, "For the Month of …", the accountable officer,
 * the four column groups with Qty / From / To per route and range, totals, remarks, the certification
 * text and the signature lines, on landscape A4 pages with "Page X of Y".
 */
export function renderRaafPdf(input: RaafDocument): Promise<Buffer> {
  const { raaf, certificate } = input;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    info: {
      Title: `RAAF ${raaf.month} ${pdfText(raaf.holder.name)}`,
      Author: pdfText(raaf.holder.name),
      Subject: 'Report of Accountability for Accountable Forms',
      Creator: 'PadTrack',
      Producer: 'PadTrack',
      CreationDate: input.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const font = (bold: boolean, size: number, color = INK) => doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).fillColor(color);
  const cell = (text: string, x: number, y: number, width: number, align: 'left' | 'right' | 'center' = 'left') =>
    doc.text(text, x + 2, y + 3, { width: width - 4, align, lineBreak: false, ellipsis: true });

  const tableHeader = replayed(doc, () => {
    const y = BODY_TOP;
    doc.rect(MARGIN.left, y, CONTENT_WIDTH, ROW_HEIGHT * 2).fill(SHADE);
    font(true, 7.5, ACCENT);
    cell('Company - Route - TIN', MARGIN.left, y + ROW_HEIGHT / 2, ROUTE_WIDTH);
    ['Beginning Balance', 'Receipt', 'Issued', 'Ending Balance'].forEach((label, i) => {
      const x = MARGIN.left + ROUTE_WIDTH + i * GROUP_WIDTH;
      cell(label, x, y, GROUP_WIDTH, 'center');
      cell('Qty', x, y + ROW_HEIGHT, QTY_WIDTH, 'right');
      cell('From', x + QTY_WIDTH, y + ROW_HEIGHT, NUMBER_WIDTH, 'right');
      cell('To', x + QTY_WIDTH + NUMBER_WIDTH, y + ROW_HEIGHT, NUMBER_WIDTH, 'right');
      doc.moveTo(x, y).lineTo(x, y + ROW_HEIGHT * 2).lineWidth(0.5).strokeColor(RULE).stroke();
    });
    doc.y = y + ROW_HEIGHT * 2;
  });

  const forTheMonth = `For the Month of ${monthTitle(raaf.month)}`;
  const pageHeader = replayed(doc, () => {
    font(true, 12, ACCENT);
    doc.text('REPORT OF ACCOUNTABILITY FOR ACCOUNTABLE FORMS', MARGIN.left, MARGIN.top, { width: CONTENT_WIDTH, align: 'center' });
    font(false, 9.5);
    doc.text(forTheMonth, MARGIN.left, MARGIN.top + 16, { width: CONTENT_WIDTH, align: 'center' });
    font(false, 8.5, MUTED);
    const holderLine = `Accountable ${raaf.holder.type === 'user' ? 'Officer' : 'Office'}: ${pdfText(raaf.holder.name)}${raaf.holder.branch && raaf.holder.type === 'user' ? `   Branch: ${pdfText(raaf.holder.branch.name)}` : ''}`;
    doc.text(holderLine, MARGIN.left, MARGIN.top + 32, { width: CONTENT_WIDTH / 2, lineBreak: false });
    doc.text(certificate ? `Certificate No. ${certificate.number}` : 'Not certified', MARGIN.left, MARGIN.top + 32, { width: CONTENT_WIDTH, align: 'right', lineBreak: false });
    doc.moveTo(MARGIN.left, MARGIN.top + 46).lineTo(PAGE.width - MARGIN.right, MARGIN.top + 46).lineWidth(1).strokeColor(ACCENT).stroke();
    doc.x = MARGIN.left;
    doc.y = BODY_TOP;
  });
  doc.on('pageAdded', pageHeader);
  doc.addPage();
  tableHeader();
  font(false, 7.5);
  const numbers = new NumberCells(doc);

  for (const row of raaf.rows) {
    const groups = [row.beginning, row.receipt, row.issued, row.ending];
    const height = Math.max(1, ...groups.map((g) => g.ranges.length));
    for (let i = 0; i < height; i += 1) {
      if (doc.y + ROW_HEIGHT > BOTTOM) {
        font(false, 7.5);
        numbers.flush();
        doc.addPage();
        tableHeader();
      }
      const y = doc.y;
      if (i === 0) {
        font(true, 7.5);
        cell(pdfText(`${row.route.company} - ${row.route.name} - ${row.route.tin}`), MARGIN.left, y, ROUTE_WIDTH);
      }
      const at = (text: string, x: number, width: number) => {
        if (!numbers.add(text, x + width - 2, width - 4, y + 3)) {
          font(false, 7.5);
          cell(text, x, y, width, 'right');
        }
      };
      for (let gi = 0; gi < groups.length; gi += 1) {
        const x = MARGIN.left + ROUTE_WIDTH + gi * GROUP_WIDTH;
        const range = groups[gi].ranges[i];
        if (range) {
          at(qtyText(range[1] - range[0] + 1), x, QTY_WIDTH);
          at(String(range[0]), x + QTY_WIDTH, NUMBER_WIDTH);
          at(String(range[1]), x + QTY_WIDTH + NUMBER_WIDTH, NUMBER_WIDTH);
        } else if (i === 0) {
          at('0', x, QTY_WIDTH);
        }
      }
      doc.y = y + ROW_HEIGHT;
    }
    doc.moveTo(MARGIN.left, doc.y).lineTo(PAGE.width - MARGIN.right, doc.y).lineWidth(0.5).strokeColor(RULE).stroke();
  }
  font(false, 7.5);
  numbers.flush();
  if (raaf.rows.length === 0) {
    font(false, 8, MUTED);
    doc.text('No accountable forms held during the month.', MARGIN.left + 2, doc.y + 3);
    doc.y += 4;
  }
  const totalsY = doc.y;
  doc.rect(MARGIN.left, totalsY, CONTENT_WIDTH, ROW_HEIGHT).fill(SHADE);
  font(true, 7.5);
  cell('Total', MARGIN.left, totalsY, ROUTE_WIDTH);
  [raaf.totals.beginning, raaf.totals.receipt, raaf.totals.issued, raaf.totals.ending].forEach((qty, i) => {
    cell(qtyText(qty), MARGIN.left + ROUTE_WIDTH + i * GROUP_WIDTH, totalsY, QTY_WIDTH, 'right');
  });
  doc.y = totalsY + ROW_HEIGHT + 10;

  const paragraph = (text: string, bold = false, size = 8) => {
    font(bold, size, bold ? ACCENT : INK);
    const h = doc.heightOfString(text, { width: CONTENT_WIDTH });
    if (doc.y + h > BOTTOM) doc.addPage();
    doc.text(text, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
  };
  paragraph('Remarks', true, 9);
  const remarks = raaf.rows.flatMap((row) => {
    const k = row.issued.by_kind;
    const lines = row.remarks.map((remark) => `${row.route.name}: ${remark}`);
    if (row.issued.qty > 0) lines.unshift(`${row.route.name}: issued ${row.issued.qty} (used ${k.used}, cancelled ${k.cancelled}, lost ${k.lost}, transferred ${k.transferred})`);
    return lines;
  });
  for (const remark of remarks.length ? remarks : ['None.']) paragraph(`- ${pdfText(remark)}`);
  doc.y += 12;
  paragraph('CERTIFICATION', true, 9);
  paragraph(RAAF_CERTIFICATION_TEXT, false, 8.5);
  if (doc.y + 70 > BOTTOM) doc.addPage();
  const signY = doc.y + 36;
  const half = CONTENT_WIDTH / 2;
  doc.moveTo(MARGIN.left, signY).lineTo(MARGIN.left + half - 40, signY).lineWidth(0.7).strokeColor(INK).stroke();
  doc.moveTo(MARGIN.left + half + 40, signY).lineTo(PAGE.width - MARGIN.right, signY).stroke();
  font(true, 8.5);
  doc.text(pdfText(raaf.holder.name), MARGIN.left, signY + 4, { width: half - 40, align: 'center' });
  doc.text('Accounting', MARGIN.left + half + 40, signY + 4, { width: half - 40, align: 'center' });
  font(false, 7.5, MUTED);
  doc.text(
    certificate ? `Certified ${stamp(certificate.certifiedAt, input.timeZone)} (${input.timeZone})` : 'Signature over printed name / Date',
    MARGIN.left,
    signY + 16,
    { width: half - 40, align: 'center' },
  );
  doc.text('Reviewed by / Date', MARGIN.left + half + 40, signY + 16, { width: half - 40, align: 'center' });

  const range = doc.bufferedPageRange();
  const generated = `Generated ${stamp(input.generatedAt, input.timeZone)} by PadTrack`;
  for (let i = 0; i < range.count; i += 1) {
    doc.switchToPage(range.start + i);
    font(false, 7, MUTED);
    doc.text(generated, MARGIN.left, PAGE.height - MARGIN.bottom, { lineBreak: false });
    const pageNo = `Page ${i + 1} of ${range.count}`;
    doc.text(pageNo, MARGIN.left + CONTENT_WIDTH - doc.widthOfString(pageNo), PAGE.height - MARGIN.bottom, { lineBreak: false });
  }
  doc.end();
  return done;
}
