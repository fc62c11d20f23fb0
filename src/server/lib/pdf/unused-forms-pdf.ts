import { numberRanges } from '../../../shared/format.ts';
import { FORM_TYPES } from '../../../shared/lookups.ts';
import { NO_IDENTITY, type IdentitySnapshot, type Signatory } from '../../../shared/schemas/operator-identity.ts';
import type { UnusedForms } from '../../../shared/schemas/registered-series.ts';
import { newPdfDocument } from './document.ts';
import { pdfText } from './text.ts';

const MARGIN = 40;
const INK = '#1a1a1a';
const MUTED = '#5b6470';
const ACCENT = '#1f3a5f';

const operatorParticulars = (operator: IdentitySnapshot) =>
  [pdfText(operator.tradeName), operator.tin ? `TIN ${operator.tin}` : '', pdfText(operator.address)].filter(Boolean).join('  |  ');

/** docs/design.md §10: the inventory of unused forms as of a date, per establishment and registered series; portrait A4. */
export function renderUnusedFormsPdf(report: UnusedForms, generatedAt: Date, operator: IdentitySnapshot = NO_IDENTITY): Promise<Buffer> {
  const doc = newPdfDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: `Inventory of unused forms as of ${report.date}`, Creator: 'PadTrack', Producer: 'PadTrack', CreationDate: generatedAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const font = (bold: boolean, size: number, color = INK) =>
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(size)
      .fillColor(color);

  if (operator.registeredName) {
    font(true, 11).text(pdfText(operator.registeredName), { align: 'center', width });
    font(false, 8, MUTED).text(operatorParticulars(operator), { align: 'center', width }).moveDown(0.6);
  }
  font(true, 15, ACCENT).text('INVENTORY OF UNUSED ACCOUNTABLE FORMS', { align: 'center', width });
  font(false, 10, MUTED).text(`As of the end of ${report.date}   ·   Total unused: ${report.total}`, { align: 'center', width });
  doc.moveDown(1);
  for (const establishment of report.establishments) {
    font(true, 12, ACCENT).text(pdfText(`${establishment.branch?.name ?? 'No establishment'} — ${establishment.qty} unused`), { width });
    doc.moveDown(0.3);
    for (const series of establishment.series) {
      const ref = series.registered_series;
      const head = ref ? `${FORM_TYPES[ref.form_type]} · ATP ${ref.atp_number} of ${ref.atp_date}` : 'Not inside any registered series';
      font(true, 10).text(pdfText(`${series.route.company} – ${series.route.name} (TIN ${series.route.tin}) · ${head}`), { width });
      font(false, 10).text(pdfText(`Quantity ${series.qty}: ${numberRanges(series.ranges, ', ')}`), { width, indent: 12 });
      for (const holder of series.holders) {
        font(false, 9, holder.outside_establishment ? '#9a3412' : MUTED).text(
          pdfText(
            `Held by ${holder.holder.name}${holder.holder.branch ? ` (${holder.holder.branch})` : ''}: ${holder.qty} — ${numberRanges(holder.ranges, ', ')}${holder.outside_establishment ? '  [held outside its establishment]' : ''}`,
          ),
          { width, indent: 24 },
        );
      }
      doc.moveDown(0.4);
    }
    doc.moveDown(0.5);
  }
  if (report.in_transit.length > 0) {
    font(true, 12, ACCENT).text('In transit at the end of the day', { width });
    for (const invoice of report.in_transit) {
      font(false, 10).text(
        pdfText(
          `Invoice #${invoice.invoice_id}${invoice.courier ? ` with ${invoice.courier}` : ''}: ${invoice.pads.map((pad) => `pad ${pad.number} ${pad.route} ${pad.series_number}`).join('; ')}`,
        ),
        { width, indent: 12 },
      );
    }
  }
  certifiedBy(doc, width, operator.signatories.unused_forms ?? null);
  doc.end();
  return done;
}

/**
 * The operator's signatory for this inventory (Settings) certifying it under a signature line, name and position, or
 * the line left for a hand-written name; kept whole on one page.
 */
function certifiedBy(doc: PDFKit.PDFDocument, width: number, signer: Signatory | null): void {
  const slot = width / 2;
  if (doc.y + 96 > doc.page.height - MARGIN) doc.addPage();
  doc.moveDown(1.5);
  doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('Certified true and correct:', MARGIN, doc.y, { width });
  const lineY = doc.y + 32;
  doc
    .moveTo(MARGIN, lineY)
    .lineTo(MARGIN + slot, lineY)
    .lineWidth(0.7)
    .strokeColor(INK)
    .stroke();
  doc.y = lineY + 4;
  if (signer) {
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text(pdfText(signer.name), MARGIN, doc.y, { width: slot });
    doc.font('Helvetica').fontSize(9).text(pdfText(signer.position), MARGIN, doc.y, { width: slot });
  }
  doc.font('Helvetica').fontSize(8).fillColor(MUTED).text('Signature over printed name / Date', MARGIN, doc.y, { width: slot });
}
