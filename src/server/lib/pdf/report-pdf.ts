import PDFDocument from 'pdfkit';
import { seriesRange } from '../../../shared/format.ts';
import { pdfText } from './text.ts';

export interface ReportPad {
  number: number;
  series_from: number;
  series_to: number;
  pad_status: string;
}

export interface ReportInvoice {
  id: number;
  status: string;
  route: string;
  from_branch: string;
  to_branch: string;
  receiving_user: string;
  courier: string;
  issued_at: Date;
  accepted_at: Date | null;
  expected_return_date: string | null;
  pads: ReportPad[];
}

export interface ReportDocument {
  /** Null for a preview: the number is given only when the report is saved. */
  number: string | null;
  generatedAt: Date;
  generatedBy: { name: string; role: string | null };
  remarks: string | null;
  periodFrom: string | null;
  periodTo: string | null;
  timeZone: string;
  invoices: ReportInvoice[];
}

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { left: 48, right: 48, top: 40, bottom: 48 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const BODY_TOP = 92;
const BODY_BOTTOM = PAGE.height - MARGIN.bottom - 18;
const INK = '#1a1a1a';
const MUTED = '#5b6470';
const RULE = '#c9ced6';
const ACCENT = '#1f3a5f';
const SHADE = '#eef1f5';
const CELL_PAD = 4;
/** No Helvetica glyph is wider than this many ems ('@' is 1.015), so a string this short surely fits. */
const WIDEST_GLYPH_EM = 1.02;

const receiptsOf = (pad: ReportPad) => pad.series_to - pad.series_from + 1;
const count = (n: number) => n.toLocaleString('en-US');

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withTime}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
    });
    formatters.set(key, found);
  }
  return found;
}

function dateText(instant: Date | null, timeZone: string): string {
  return instant ? formatter(timeZone, false).format(instant) : '-';
}

const dateTimeText = (instant: Date, timeZone: string) => formatter(timeZone, true).format(instant).replace(',', '');

/** A calendar date (YYYY-MM-DD) as "05 Nov 2026"; no time zone applies to it. */
function calendarText(value: string | null): string {
  if (!value) return '-';
  return dateText(new Date(`${value.slice(0, 10)}T00:00:00Z`), 'UTC');
}

interface Column {
  label: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

/**
 * Draws the report of completed Issued invoices as an A4 PDF: a header on every page, the summary,
 * totals by route, one block per invoice with its pads and series ranges, the grand totals, a sign-off
 * block and "Page X of Y". Every user-supplied value is drawn as plain text.
 */
export function renderReportPdf(report: ReportDocument): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    compress: true,
    displayTitle: true,
    info: {
      Title: report.number ? `Report ${report.number}` : 'Report preview',
      Author: pdfText(report.generatedBy.name),
      Subject: 'Completed Issued invoices and their receipt pads',
      Creator: 'PadTrack',
      Producer: 'PadTrack',
      CreationDate: report.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const tz = report.timeZone;
  const numberText = report.number ?? 'PREVIEW (not saved)';
  const generatedText = `${dateTimeText(report.generatedAt, tz)} (${tz})`;
  const totalPads = report.invoices.reduce((sum, invoice) => sum + invoice.pads.length, 0);
  const totalReceipts = report.invoices.reduce((sum, invoice) => sum + invoice.pads.reduce((s, pad) => s + receiptsOf(pad), 0), 0);

  const state = { font: '', size: 0, color: '' };
  const forgetStyle = () => {
    state.font = '';
    state.size = 0;
    state.color = '';
  };
  /** Colour and font changes are only written when they change: thousands of cells share a few styles. */
  const fill = (color: string) => {
    if (state.color !== color) {
      doc.fillColor(color);
      state.color = color;
    }
  };
  const font = (weight: 'regular' | 'bold', size: number, color = INK) => {
    const name = weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica';
    if (state.font !== name) {
      doc.font(name);
      state.font = name;
    }
    if (state.size !== size) {
      doc.fontSize(size);
      state.size = size;
    }
    fill(color);
  };

  const pageHeader = () => {
    forgetStyle();
    font('bold', 15, ACCENT);
    doc.text('PadTrack', MARGIN.left, MARGIN.top, { lineBreak: false });
    font('regular', 8.5, MUTED);
    doc.text('Receipt pad custody  |  Ferry operations', MARGIN.left, MARGIN.top + 19, { lineBreak: false });
    font('bold', 10);
    doc.text(`Report No. ${numberText}`, MARGIN.left, MARGIN.top + 2, { width: CONTENT_WIDTH, align: 'right', lineBreak: false });
    font('regular', 8.5, MUTED);
    doc.text('Completed Issued Invoices Report', MARGIN.left, MARGIN.top + 19, { width: CONTENT_WIDTH, align: 'right', lineBreak: false });
    doc.moveTo(MARGIN.left, MARGIN.top + 36).lineTo(PAGE.width - MARGIN.right, MARGIN.top + 36).lineWidth(1.2).strokeColor(ACCENT).stroke();
    doc.x = MARGIN.left;
    doc.y = BODY_TOP;
  };
  doc.on('pageAdded', pageHeader);

  const ensureSpace = (height: number): boolean => {
    if (doc.y + height <= BODY_BOTTOM) return false;
    doc.addPage();
    return true;
  };

  const sectionTitle = (title: string) => {
    ensureSpace(60);
    doc.y += 6;
    font('bold', 11.5, ACCENT);
    doc.text(title, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
    doc.y += 4;
  };

  const lineHeights = new Map<string, number>();
  /** Height of a text block; a short one-line value skips the line wrapper, which dominates render time. */
  const textHeight = (text: string, width: number, size: number, bold: boolean) => {
    const key = `${size}|${bold}`;
    let line = lineHeights.get(key);
    if (line === undefined) {
      line = doc.heightOfString('Xg', { width: 1000 });
      lineHeights.set(key, line);
    }
    if (!text.includes('\n') && (text.length * size * WIDEST_GLYPH_EM <= width || doc.widthOfString(text) <= width)) return line;
    return doc.heightOfString(text, { width });
  };

  /** Draws a value in a box; one that fits on a line is placed directly, without the (slow) line wrapper. */
  const boxText = (text: string, x: number, y: number, width: number, size: number, align: 'left' | 'right' | 'center' = 'left') => {
    const single = !text.includes('\n') && (align === 'left' ? text.length * size * WIDEST_GLYPH_EM <= width : true);
    const textWidth = single && align !== 'left' ? doc.widthOfString(text) : 0;
    if (single && textWidth <= width) {
      const offset = align === 'right' ? width - textWidth : align === 'center' ? (width - textWidth) / 2 : 0;
      doc.text(text, x + offset, y, { lineBreak: false });
    } else {
      doc.text(text, x, y, { width, align });
    }
  };

  const rowHeight = (cells: string[], columns: Column[], size: number, bold: boolean) => {
    font(bold ? 'bold' : 'regular', size);
    return Math.max(...cells.map((cell, i) => textHeight(cell || ' ', columns[i].width - CELL_PAD * 2, size, bold))) + CELL_PAD * 2;
  };

  const drawRow = (
    cells: string[],
    columns: Column[],
    options: { header?: boolean; shade?: boolean; bold?: boolean; size?: number; height?: number } = {},
  ) => {
    const size = options.size ?? 8.5;
    const bold = Boolean(options.header || options.bold);
    const height = options.height ?? rowHeight(cells, columns, size, bold);
    const top = doc.y;
    if (options.header || options.shade) {
      fill(options.header ? SHADE : '#f7f8fa');
      doc.rect(MARGIN.left, top, CONTENT_WIDTH, height).fill();
    }
    font(bold ? 'bold' : 'regular', size, options.header ? MUTED : INK);
    let x = MARGIN.left;
    cells.forEach((cell, i) => {
      if (cell) boxText(cell, x + CELL_PAD, top + CELL_PAD, columns[i].width - CELL_PAD * 2, size, columns[i].align);
      x += columns[i].width;
    });
    doc.moveTo(MARGIN.left, top + height).lineTo(MARGIN.left + CONTENT_WIDTH, top + height).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.x = MARGIN.left;
    doc.y = top + height;
  };

  /** A table whose header repeats, marked "(continued)", when rows spill onto the next page. */
  const table = (columns: Column[], rows: string[][], options: { caption?: string; totals?: string[] } = {}) => {
    const header = columns.map((c) => c.label);
    const headerHeight = rowHeight(header, columns, 8, true);
    const drawHeader = (continued: boolean) => {
      if (options.caption && continued) {
        font('regular', 8, MUTED);
        doc.text(`${options.caption} (continued)`, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
        doc.y += 2;
      }
      drawRow(header, columns, { header: true, size: 8 });
    };
    ensureSpace(headerHeight + rowHeight(rows[0] ?? header, columns, 8.5, false));
    drawHeader(false);
    rows.forEach((row, index) => {
      const height = rowHeight(row, columns, 8.5, false);
      if (ensureSpace(height)) drawHeader(true);
      drawRow(row, columns, { shade: index % 2 === 1, height });
    });
    if (options.totals) {
      if (ensureSpace(rowHeight(options.totals, columns, 8.5, true))) drawHeader(true);
      drawRow(options.totals, columns, { bold: true });
    }
  };

  /** Label and value pairs laid out in two columns, or across the page when `wide`. */
  const fieldGrid = (fields: Array<{ label: string; value: string; wide?: boolean }>) => {
    const labelWidth = 92;
    const half = CONTENT_WIDTH / 2;
    const measure = (field: { value: string; wide?: boolean }) => {
      font('regular', 9);
      return textHeight(field.value || '-', (field.wide ? CONTENT_WIDTH : half) - labelWidth - 8, 9, false);
    };
    let i = 0;
    while (i < fields.length) {
      const left = fields[i];
      const right = !left.wide && fields[i + 1] && !fields[i + 1].wide ? fields[i + 1] : null;
      const height = Math.max(measure(left), right ? measure(right) : 0) + 5;
      ensureSpace(height);
      const top = doc.y;
      const drawField = (field: { label: string; value: string; wide?: boolean }, x: number) => {
        font('regular', 8.5, MUTED);
        doc.text(field.label, x, top, { width: labelWidth, lineBreak: false });
        font('regular', 9);
        boxText(field.value || '-', x + labelWidth, top, (field.wide ? CONTENT_WIDTH : half) - labelWidth - 8, 9);
      };
      drawField(left, MARGIN.left);
      if (right) drawField(right, MARGIN.left + half);
      doc.x = MARGIN.left;
      doc.y = top + height;
      i += right ? 2 : 1;
    }
  };

  doc.addPage();

  font('bold', 17);
  doc.text('Report of Completed Issued Invoices', MARGIN.left, doc.y, { width: CONTENT_WIDTH });
  font('regular', 9, MUTED);
  doc.text(
    'Receipt pads issued from the head office and accepted by the receiving user. Each invoice appears in one report only.',
    { width: CONTENT_WIDTH },
  );
  doc.y += 10;

  const period =
    report.periodFrom && report.periodTo ? `${calendarText(report.periodFrom)} to ${calendarText(report.periodTo)}` : '-';
  const generatedBy = pdfText(report.generatedBy.role ? `${report.generatedBy.name} (${report.generatedBy.role})` : report.generatedBy.name);
  fieldGrid([
    { label: 'Report No.', value: numberText },
    { label: 'Generated on', value: generatedText },
    { label: 'Period covered', value: period },
    { label: 'Generated by', value: generatedBy },
    { label: 'Invoices', value: count(report.invoices.length) },
    { label: 'Pads', value: count(totalPads) },
    { label: 'Receipt numbers', value: count(totalReceipts) },
    { label: 'Period basis', value: 'Date issued to date accepted' },
    { label: 'Remarks', value: pdfText(report.remarks) || 'None', wide: true },
  ]);

  sectionTitle('Summary by route');
  const byRoute = new Map<string, { invoices: number; pads: number; receipts: number }>();
  for (const invoice of report.invoices) {
    const entry = byRoute.get(invoice.route) ?? { invoices: 0, pads: 0, receipts: 0 };
    entry.invoices += 1;
    entry.pads += invoice.pads.length;
    entry.receipts += invoice.pads.reduce((s, pad) => s + receiptsOf(pad), 0);
    byRoute.set(invoice.route, entry);
  }
  const routeColumns: Column[] = [
    { label: 'Route (Company - Route - TIN)', width: CONTENT_WIDTH - 240 },
    { label: 'Invoices', width: 70, align: 'right' },
    { label: 'Pads', width: 70, align: 'right' },
    { label: 'Receipt numbers', width: 100, align: 'right' },
  ];
  table(
    routeColumns,
    [...byRoute.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, totals]) => [pdfText(route), count(totals.invoices), count(totals.pads), count(totals.receipts)]),
    { caption: 'Summary by route', totals: ['Total', count(report.invoices.length), count(totalPads), count(totalReceipts)] },
  );

  sectionTitle('Invoice details');
  const padColumns: Column[] = [
    { label: '#', width: 28, align: 'right' },
    { label: 'Pad No.', width: 58, align: 'right' },
    { label: 'Series range (from - to)', width: 170 },
    { label: 'Receipt numbers', width: 90, align: 'right' },
    { label: 'Pad status', width: CONTENT_WIDTH - 346 },
  ];
  for (const invoice of report.invoices) {
    ensureSpace(150);
    doc.y += 6;
    const barTop = doc.y;
    fill(ACCENT);
    doc.rect(MARGIN.left, barTop, CONTENT_WIDTH, 18).fill();
    font('bold', 9.5, '#ffffff');
    doc.text(`Invoice No. ${invoice.id}`, MARGIN.left + 6, barTop + 5, { lineBreak: false });
    doc.text(`Issued  |  ${pdfText(invoice.status)}`, MARGIN.left, barTop + 5, { width: CONTENT_WIDTH - 6, align: 'right', lineBreak: false });
    doc.x = MARGIN.left;
    doc.y = barTop + 24;
    const receipts = invoice.pads.reduce((s, pad) => s + receiptsOf(pad), 0);
    fieldGrid([
      { label: 'Route', value: pdfText(invoice.route), wide: true },
      { label: 'From branch', value: pdfText(invoice.from_branch) },
      { label: 'To branch', value: pdfText(invoice.to_branch) },
      { label: 'Receiving user', value: pdfText(invoice.receiving_user) },
      { label: 'Courier', value: pdfText(invoice.courier) },
      { label: 'Date issued', value: dateText(invoice.issued_at, tz) },
      { label: 'Accepted date', value: dateText(invoice.accepted_at, tz) },
      { label: 'Expected return', value: calendarText(invoice.expected_return_date) },
      { label: 'Pads / receipts', value: `${count(invoice.pads.length)} / ${count(receipts)}` },
    ]);
    doc.y += 2;
    table(
      padColumns,
      invoice.pads.map((pad, i) => [
        String(i + 1),
        String(pad.number),
        seriesRange(pad.series_from, pad.series_to),
        count(receiptsOf(pad)),
        pdfText(pad.pad_status),
      ]),
      { caption: `Invoice No. ${invoice.id} pads`, totals: ['', '', `${count(invoice.pads.length)} ${invoice.pads.length === 1 ? 'pad' : 'pads'}`, count(receipts), ''] },
    );
  }

  sectionTitle('Totals');
  fieldGrid([
    { label: 'Invoices', value: count(report.invoices.length) },
    { label: 'Pads', value: count(totalPads) },
    { label: 'Receipt numbers', value: count(totalReceipts) },
    { label: 'Routes', value: count(byRoute.size) },
  ]);

  ensureSpace(110);
  doc.y += 24;
  const signTop = doc.y;
  const slot = CONTENT_WIDTH / 3;
  const signers = [
    ['Prepared by', generatedBy],
    ['Checked by', ''],
    ['Approved by', ''],
  ];
  signers.forEach(([label, name], i) => {
    const x = MARGIN.left + slot * i;
    doc.moveTo(x + 4, signTop + 30).lineTo(x + slot - 14, signTop + 30).lineWidth(0.7).strokeColor(INK).stroke();
    font('regular', 8.5, MUTED);
    doc.text(label, x + 4, signTop + 34, { width: slot - 18 });
    if (name) {
      font('regular', 8.5);
      doc.text(name, x + 4, signTop + 46, { width: slot - 18 });
    }
    font('regular', 8.5, MUTED);
    doc.text('Date: ____________', x + 4, signTop + 64, { width: slot - 18, lineBreak: false });
  });

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    forgetStyle();
    doc.page.margins.bottom = 0;
    const footerY = PAGE.height - MARGIN.bottom;
    doc.moveTo(MARGIN.left, footerY - 6).lineTo(PAGE.width - MARGIN.right, footerY - 6).lineWidth(0.5).strokeColor(RULE).stroke();
    font('regular', 7.5, MUTED);
    const footerLeft = report.number
      ? `Report No. ${report.number}  |  Generated ${generatedText}`
      : `PREVIEW, not a saved report  |  Rendered ${generatedText}`;
    doc.text(footerLeft, MARGIN.left, footerY, { width: CONTENT_WIDTH - 90, lineBreak: false });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN.left, footerY, { width: CONTENT_WIDTH, align: 'right', lineBreak: false });
    if (!report.number) {
      doc.save();
      doc.rotate(-35, { origin: [PAGE.width / 2, PAGE.height / 2] });
      doc.font('Helvetica-Bold').fontSize(96).fillColor('#1f3a5f').fillOpacity(0.07);
      doc.text('PREVIEW', 0, PAGE.height / 2 - 48, { width: PAGE.width, align: 'center', lineBreak: false });
      doc.restore();
      forgetStyle();
    }
  }
  doc.end();
  return done;
}
