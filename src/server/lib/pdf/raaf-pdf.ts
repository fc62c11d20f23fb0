import { countText, dayTimeText, monthText } from '../../../shared/format.ts';
import type { IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import { RAAF_CERTIFICATION_TEXT, type Raaf, type RaafRouteRow } from '../../../shared/schemas/ledger.ts';
import { PALETTE, Pdf, type Align, type PdfSteps } from './document.ts';
import { pageFooters, paragraph, signatures, signaturesHeight, type Signature, type SignatureOptions } from './draw.ts';
import { FORM_HEADER_HEIGHT, formHeaderOnEveryPage, formLeftFits } from './letterhead.ts';
import { NumberCells } from './number-cells.ts';
import { TextLines } from './text-lines.ts';
import { pdfText } from './text.ts';

export interface RaafDocument {
  raaf: Raaf;
  /** Set when the report is being certified: its number and the signing instant. */
  certificate: { number: string; certifiedAt: Date } | null;
  timeZone: string;
  generatedAt: Date;
  /** The operator as the RAAF prints it; a certified copy keeps the PDF it printed. */
  operator: IdentitySnapshot;
  /** A branch roll-up or the consolidated report: its holders as one, so no one person signs as the accountable officer. */
  summary?: boolean;
}

const ROUTE_WIDTH = 138;
const QTY_WIDTH = 34;
const ROW_HEIGHT = 13;
const CELL_SIZE = 7.5;
const REMARK_SIZE = 8;
const GROUPS = ['Beginning Balance', 'Receipt', 'Issued', 'Ending Balance'];

/**
 * A RAAF in the COA layout (Appendix 67): title, "For the Month of …", the accountable officer, the four column
 * groups with Qty / From / To per route and range, totals, remarks, the certification text and the signature lines,
 * on landscape A4 pages with "Page X of Y". Nothing is drawn yet: finish() draws it whole, stream() page by page.
 */
export function renderRaafPdf(input: RaafDocument): Pdf {
  const { raaf, certificate, timeZone } = input;
  const pdf = new Pdf({
    size: 'A4',
    landscape: true,
    margins: { left: 36, right: 36, top: 32, bottom: 36 },
    headerHeight: FORM_HEADER_HEIGHT + 6,
    footerGap: 14,
    info: {
      title: `RAAF ${raaf.month} ${pdfText(raaf.holder.name)}`,
      author: pdfText(raaf.holder.name),
      subject: 'Report of Accountability for Accountable Forms',
      createdAt: input.generatedAt,
    },
  });
  const officer = raaf.holder.type === 'user';
  const branch = raaf.holder.branch && officer ? `   Branch: ${pdfText(raaf.holder.branch.name)}` : '';
  const header = {
    title: 'REPORT OF ACCOUNTABILITY FOR ACCOUNTABLE FORMS',
    subtitle: `For the Month of ${monthText(raaf.month)}`,
    left: `Accountable ${officer ? 'Officer' : 'Office'}: ${pdfText(raaf.holder.name)}${branch}`,
    right: certificate ? `Certificate No. ${certificate.number}` : 'Not certified',
  };
  formHeaderOnEveryPage(pdf, input.operator, header);
  pageFooters(pdf, `Generated ${dayTimeText(input.generatedAt, timeZone)} by PadTrack`, { size: 7 });
  pdf.addPage();
  return pdf.drawnBy(raafBody(pdf, input, formLeftFits(pdf, header) ? null : header.left));
}

/** `holderLine`: the accountable officer and branch in full, when too long for the page header, which cuts them short. */
function* raafBody(pdf: Pdf, input: RaafDocument, holderLine: string | null): PdfSteps {
  const { raaf } = input;
  yield* new RaafGrid(pdf).draw(raaf);
  if (holderLine) {
    paragraph(pdf, holderLine, { size: 8.5 });
    pdf.doc.y += 6;
  }
  pdf.ensureSpace(30);
  paragraph(pdf, 'Remarks', { heading: true, size: 9 });
  yield* remarks(pdf, remarkLines(raaf.rows));
  pdf.doc.y += 12;
  certification(pdf, signatureSlots(input), { gutter: 80, space: 36, align: 'center' });
}

/**
 * The remarks, each as paragraph() would place it: laid out by TextFit.wrap from cached glyph widths and written as
 * raw text lines (TextLines), a page's lines at once. A head office's month has thousands of remarks, which pdfkit's
 * line wrapper and text() would measure and kern one by one; a remark only that wrapper can break is drawn by paragraph().
 */
export function* remarks(pdf: Pdf, texts: string[]): PdfSteps {
  pdf.font('regular', REMARK_SIZE);
  const lineHeight = pdf.lineHeight();
  const lines = new TextLines(pdf.doc, lineHeight, (text, x, top) => pdf.mark('text', x, top, 0, 0, text));
  for (const remark of texts) {
    const text = `- ${pdfText(remark)}`;
    const wrapped = pdf.wrappedLines(text, pdf.width);
    if (!wrapped) {
      lines.flush();
      paragraph(pdf, text, { size: REMARK_SIZE });
      yield;
      continue;
    }
    const height = wrapped.length * lineHeight;
    if (pdf.doc.y + height > pdf.bodyBottom) {
      lines.flush();
      pdf.addPage();
    }
    const top = pdf.doc.y;
    for (let i = 0; i < wrapped.length; i += 1) lines.add(wrapped[i], pdf.left, top + i * lineHeight);
    pdf.doc.y = top + height;
    yield;
  }
  lines.flush();
  pdf.doc.x = pdf.left;
}

/**
 * The accountable officer's line (a summary's preparer, who is nobody in particular) and the operator's RAAF
 * signatory from Settings, who reviews and notes it; each line keeps its place when no one is named.
 */
function signatureSlots({ raaf, certificate, timeZone, operator, summary }: RaafDocument): Signature[] {
  const signed = certificate
    ? `Certified ${dayTimeText(certificate.certifiedAt, timeZone)} (${timeZone})`
    : 'Signature over printed name / Date';
  const reviewer = operator.signatories.raaf;
  const slot = (name: string, position: string, caption: string): Signature => ({
    lines: [
      { text: pdfText(name), weight: 'bold' },
      { text: pdfText(position), size: 8 },
      { text: caption, muted: true, size: 7.5 },
    ],
  });
  const officer = raaf.holder.type === 'user' ? 'Accountable Officer' : 'Accountable Office';
  return [
    summary ? slot('', 'Prepared by', signed) : slot(raaf.holder.name, officer, signed),
    slot(reviewer?.name ?? '', reviewer?.position ?? 'Accounting', 'Reviewed and noted by / Date'),
  ];
}

/** The certification text and the signature lines under it, moved together to the next page when they do not fit. */
function certification(pdf: Pdf, slots: Signature[], options: SignatureOptions): void {
  pdf.font('bold', 9);
  const heading = pdf.textHeight('CERTIFICATION', pdf.width);
  pdf.font('regular', 8.5);
  pdf.ensureSpace(heading + pdf.textHeight(RAAF_CERTIFICATION_TEXT, pdf.width) + signaturesHeight(pdf, slots, options));
  paragraph(pdf, 'CERTIFICATION', { heading: true, size: 9 });
  paragraph(pdf, RAAF_CERTIFICATION_TEXT, { size: 8.5 });
  signatures(pdf, slots, options);
}

function remarkLines(rows: RaafRouteRow[]): string[] {
  const lines = rows.flatMap((row) => {
    const k = row.issued.by_kind;
    const remarks = row.remarks.map((remark) => `${row.route.name}: ${remark}`);
    if (row.issued.qty > 0)
      remarks.unshift(
        `${row.route.name}: issued ${row.issued.qty} (used ${k.used}, cancelled ${k.cancelled}, lost ${k.lost}, transferred ${k.transferred})`,
      );
    return remarks;
  });
  return lines.length ? lines : ['None.'];
}

/** The RAAF's table: a route per row group, one line per range in each of the four column groups, and the totals. */
class RaafGrid {
  private readonly numberWidth: number;
  private readonly groupWidth: number;
  private readonly header: () => void;
  private numbers: NumberCells | null = null;

  constructor(private readonly pdf: Pdf) {
    this.numberWidth = (pdf.width - ROUTE_WIDTH - 4 * QTY_WIDTH) / 8;
    this.groupWidth = QTY_WIDTH + 2 * this.numberWidth;
    this.header = pdf.replayed(() => this.drawHeader());
  }

  /** Draws the table a route at a time; the last route keeps the Total row on its page. */
  *draw(raaf: Raaf): PdfSteps {
    const { pdf } = this;
    this.header();
    pdf.font('regular', CELL_SIZE);
    this.numbers = new NumberCells(pdf.doc, (text, x, y, width) => pdf.mark('text', x, y, width, ROW_HEIGHT, text));
    for (const [index, row] of raaf.rows.entries()) yield* this.routeRows(row, index === raaf.rows.length - 1 ? ROW_HEIGHT : 0);
    this.flushNumbers();
    if (raaf.rows.length === 0) {
      pdf.font('regular', 8, PALETTE.muted);
      pdf.doc.text('No accountable forms held during the month.', pdf.left + 2, pdf.doc.y + 3);
      pdf.doc.y += 4;
    }
    const y = pdf.doc.y;
    pdf.rect(pdf.left, y, pdf.width, ROW_HEIGHT, PALETTE.shade);
    pdf.font('bold', CELL_SIZE);
    this.cell('Total', pdf.left, y, ROUTE_WIDTH);
    const { beginning, receipt, issued, ending } = raaf.totals;
    [beginning, receipt, issued, ending].forEach((qty, i) => this.cell(countText(qty), this.groupX(i), y, QTY_WIDTH, 'right'));
    pdf.doc.y = y + ROW_HEIGHT + 10;
  }

  private drawHeader(): void {
    const { pdf } = this;
    const y = pdf.bodyTop;
    pdf.rect(pdf.left, y, pdf.width, ROW_HEIGHT * 2, PALETTE.shade);
    pdf.font('bold', CELL_SIZE, PALETTE.accent);
    this.cell('Company - Route - TIN', pdf.left, y + ROW_HEIGHT / 2, ROUTE_WIDTH);
    GROUPS.forEach((label, i) => {
      const x = this.groupX(i);
      this.cell(label, x, y, this.groupWidth, 'center');
      this.cell('Qty', x, y + ROW_HEIGHT, QTY_WIDTH, 'right');
      this.cell('From', x + QTY_WIDTH, y + ROW_HEIGHT, this.numberWidth, 'right');
      this.cell('To', x + QTY_WIDTH + this.numberWidth, y + ROW_HEIGHT, this.numberWidth, 'right');
      pdf.doc
        .moveTo(x, y)
        .lineTo(x, y + ROW_HEIGHT * 2)
        .lineWidth(0.5)
        .strokeColor(PALETTE.rule)
        .stroke();
    });
    pdf.doc.y = y + ROW_HEIGHT * 2;
  }

  /**
   * A route's row: its name wrapped in the first column beside one range per column group on each line, as tall as
   * the taller of the two. It moves whole to the next page when it does not fit; only a route longer than a page is
   * split, between lines, with its name again at the top of each part. `after` is kept free below its last part.
   */
  private *routeRows(row: RaafRouteRow, after: number): PdfSteps {
    const { pdf } = this;
    const name = pdfText(`${row.route.company} - ${row.route.name} - ${row.route.tin}`);
    pdf.font('bold', CELL_SIZE);
    const nameHeight = pdf.textHeight(name, ROUTE_WIDTH - 4) + 6;
    const groups = [row.beginning, row.receipt, row.issued, row.ending];
    const lines = Math.max(1, ...groups.map((group) => group.ranges.length));
    const pageRoom = pdf.bodyBottom - pdf.bodyTop - ROW_HEIGHT * 2;
    const partHeight = (count: number) => Math.max(count * ROW_HEIGHT, nameHeight);
    for (let line = 0; line < lines;) {
      const room = pdf.bodyBottom - pdf.doc.y;
      const rest = lines - line;
      const fresh = pdf.doc.y <= pdf.bodyTop + ROW_HEIGHT * 2;
      let count = rest;
      if (partHeight(rest) + after > room) {
        const fitting = Math.floor(room / ROW_HEIGHT);
        if (!fresh && (partHeight(rest) + after <= pageRoom || fitting * ROW_HEIGHT < nameHeight || fitting < 2)) {
          this.newPage();
          continue;
        }
        count = Math.max(1, Math.min(rest - 1, fitting));
      }
      this.routePart(name, partHeight(count), groups, line, line + count);
      line += count;
      if (line < lines) this.newPage();
      yield;
    }
  }

  /** Lines `from` to `to` of a route under its name, and the rule below them. */
  private routePart(name: string, height: number, groups: RaafRouteRow['beginning'][], from: number, to: number): void {
    const { pdf } = this;
    const top = pdf.doc.y;
    pdf.mark('cell', pdf.left, top, ROUTE_WIDTH, height, name);
    pdf.font('bold', CELL_SIZE);
    pdf.boxText(name, pdf.left + 2, top + 3, ROUTE_WIDTH - 4);
    for (let line = from; line < to; line += 1) {
      const y = top + (line - from) * ROW_HEIGHT;
      groups.forEach((group, i) => {
        const x = this.groupX(i);
        const range = group.ranges[line];
        if (range) {
          this.number(countText(range[1] - range[0] + 1), x, y, QTY_WIDTH);
          this.number(String(range[0]), x + QTY_WIDTH, y, this.numberWidth);
          this.number(String(range[1]), x + QTY_WIDTH + this.numberWidth, y, this.numberWidth);
        } else if (line === 0) {
          this.number('0', x, y, QTY_WIDTH);
        }
      });
    }
    pdf.doc.x = pdf.left;
    pdf.doc.y = top + height;
    pdf.hline(pdf.doc.y);
  }

  private newPage(): void {
    this.flushNumbers();
    this.pdf.addPage();
    this.header();
  }

  private number(text: string, x: number, y: number, width: number): void {
    this.pdf.mark('cell', x, y, width, ROW_HEIGHT, text);
    if (this.numbers?.add(text, x + width - 2, width - 4, y + 3)) return;
    this.pdf.font('regular', CELL_SIZE);
    this.cell(text, x, y, width, 'right');
  }

  private flushNumbers(): void {
    this.pdf.font('regular', CELL_SIZE);
    this.numbers?.flush();
  }

  private cell(text: string, x: number, y: number, width: number, align: Align = 'left'): void {
    this.pdf.mark('cell', x, y, width, ROW_HEIGHT, text);
    this.pdf.lineText(text, x + 2, y + 3, width - 4, align);
  }

  private groupX(index: number): number {
    return this.pdf.left + ROUTE_WIDTH + index * this.groupWidth;
  }
}
