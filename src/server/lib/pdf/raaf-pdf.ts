import { countText, dayTimeText, monthText } from '../../../shared/format.ts';
import { RAAF_CERTIFICATION_TEXT, type Raaf, type RaafRouteRow } from '../../../shared/schemas/ledger.ts';
import { PALETTE, Pdf, type Align, type PdfSteps } from './document.ts';
import { formHeader, pageFooters, paragraph, signatures } from './draw.ts';
import { NumberCells } from './number-cells.ts';
import { pdfText } from './text.ts';

export interface RaafDocument {
  raaf: Raaf;
  /** Set when the report is being certified: its number and the signing instant. */
  certificate: { number: string; certifiedAt: Date } | null;
  timeZone: string;
  generatedAt: Date;
}

const ROUTE_WIDTH = 138;
const QTY_WIDTH = 34;
const ROW_HEIGHT = 13;
const CELL_SIZE = 7.5;
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
    headerHeight: 52,
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
  pdf.onEveryPage(() =>
    formHeader(pdf, {
      title: 'REPORT OF ACCOUNTABILITY FOR ACCOUNTABLE FORMS',
      subtitle: `For the Month of ${monthText(raaf.month)}`,
      left: `Accountable ${officer ? 'Officer' : 'Office'}: ${pdfText(raaf.holder.name)}${branch}`,
      right: certificate ? `Certificate No. ${certificate.number}` : 'Not certified',
    }),
  );
  pageFooters(pdf, `Generated ${dayTimeText(input.generatedAt, timeZone)} by PadTrack`, { size: 7 });
  pdf.addPage();
  return pdf.drawnBy(raafBody(pdf, input));
}

function* raafBody(pdf: Pdf, { raaf, certificate, timeZone }: RaafDocument): PdfSteps {
  yield* new RaafGrid(pdf).draw(raaf);
  paragraph(pdf, 'Remarks', { heading: true, size: 9 });
  for (const remark of remarkLines(raaf.rows)) {
    paragraph(pdf, `- ${pdfText(remark)}`);
    yield;
  }
  pdf.doc.y += 12;
  paragraph(pdf, 'CERTIFICATION', { heading: true, size: 9 });
  paragraph(pdf, RAAF_CERTIFICATION_TEXT, { size: 8.5 });
  const signed = certificate
    ? `Certified ${dayTimeText(certificate.certifiedAt, timeZone)} (${timeZone})`
    : 'Signature over printed name / Date';
  signatures(
    pdf,
    [
      {
        lines: [
          { text: pdfText(raaf.holder.name), weight: 'bold' },
          { text: signed, muted: true, size: 7.5 },
        ],
      },
      {
        lines: [
          { text: 'Accounting', weight: 'bold' },
          { text: 'Reviewed by / Date', muted: true, size: 7.5 },
        ],
      },
    ],
    { gutter: 80, space: 36, align: 'center' },
  );
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

  /** Draws the table a line at a time. */
  *draw(raaf: Raaf): PdfSteps {
    const { pdf } = this;
    this.header();
    pdf.font('regular', CELL_SIZE);
    this.numbers = new NumberCells(pdf.doc);
    for (const row of raaf.rows) {
      yield* this.routeRows(row);
      pdf.hline(pdf.doc.y);
    }
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

  /** A route's lines: its name on the first, then one range per column group on each. */
  private *routeRows(row: RaafRouteRow): PdfSteps {
    const { pdf } = this;
    const groups = [row.beginning, row.receipt, row.issued, row.ending];
    const lines = Math.max(1, ...groups.map((group) => group.ranges.length));
    for (let line = 0; line < lines; line += 1) {
      if (pdf.doc.y + ROW_HEIGHT > pdf.bodyBottom) {
        this.flushNumbers();
        pdf.addPage();
        this.header();
      }
      const y = pdf.doc.y;
      if (line === 0) {
        pdf.font('bold', CELL_SIZE);
        this.cell(pdfText(`${row.route.company} - ${row.route.name} - ${row.route.tin}`), pdf.left, y, ROUTE_WIDTH);
      }
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
      pdf.doc.y = y + ROW_HEIGHT;
      yield;
    }
  }

  private number(text: string, x: number, y: number, width: number): void {
    if (this.numbers?.add(text, x + width - 2, width - 4, y + 3)) return;
    this.pdf.font('regular', CELL_SIZE);
    this.cell(text, x, y, width, 'right');
  }

  private flushNumbers(): void {
    this.pdf.font('regular', CELL_SIZE);
    this.numbers?.flush();
  }

  private cell(text: string, x: number, y: number, width: number, align: Align = 'left'): void {
    this.pdf.lineText(text, x + 2, y + 3, width - 4, align);
  }

  private groupX(index: number): number {
    return this.pdf.left + ROUTE_WIDTH + index * this.groupWidth;
  }
}
