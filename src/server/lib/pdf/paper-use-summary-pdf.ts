import { calendarDayText, countText, dayTimeText, documentTimeText, numberRange } from '../../../shared/format.ts';
import { NO_IDENTITY, type IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import type { PaperUseSummary } from '../../../shared/schemas/paper-use-summary.ts';
import { Pdf } from './document.ts';
import {
  documentTitle,
  keyValues,
  pageFooters,
  paragraph,
  sectionTitle,
  signatures,
  signaturesHeight,
  table,
  type Column,
  type Signature,
  type SignatureOptions,
} from './draw.ts';
import { LETTERHEAD_HEIGHT, letterheadOnEveryPage } from './letterhead.ts';
import { pdfText } from './text.ts';

type Outage = PaperUseSummary['outages'][number];
type Exception = PaperUseSummary['exceptions'][number];

const CERTIFIED = 'Certified true and correct:';
const SIGNATURE: SignatureOptions = { gutter: 0, space: 30, slotWidth: 240 };
/** The colour of a totals line that does not equal the ledger. */
const WARNING = '#9a3412';

const RANGE_COLUMNS: Column[] = [
  { label: 'Route' },
  { label: 'Pad', width: 40, align: 'right' },
  { label: 'Numbers', width: 130 },
  { label: 'Count', width: 44, align: 'right' },
  { label: 'Used at', width: 92 },
  { label: 'Holder', width: 110 },
];

const EXCEPTION_COLUMNS: Column[] = [
  { label: 'Range' },
  { label: 'Used at', width: 80 },
  { label: 'Holder', width: 95 },
  { label: 'State', width: 56 },
  { label: 'Decision', width: 150 },
];

const STATE_TEXT: Record<Exception['state'], string> = { open: 'Open', justified: 'Justified', rejected: 'Rejected' };

const windowText = (outage: Outage, timeZone: string) =>
  `${dayTimeText(outage.starts_at, timeZone)} \u2013 ${outage.ends_at ? dayTimeText(outage.ends_at, timeZone) : 'open'}`;

/** The replacement e-invoices as "1000001: EI-0001 (06 Jan 2027)", several to a line. */
const replacementsText = (outage: Outage) =>
  outage.replacements.map((r) => `${r.paper_number}: ${pdfText(r.einvoice_number)} (${calendarDayText(r.transmitted_on)})`).join(', ');

function outageBlock(pdf: Pdf, outage: Outage, timeZone: string): void {
  const title = `Outage #${outage.id}: ${windowText(outage, timeZone)}`;
  sectionTitle(pdf, title);
  keyValues(pdf, [
    { label: 'Cause', value: pdfText(outage.cause_label) },
    { label: 'Declared by', value: pdfText(outage.declared_by.name) },
    { label: 'Notice reference', value: pdfText(outage.notice_reference) },
    { label: 'Paper numbers', value: countText(outage.qty) },
    ...(outage.details ? [{ label: 'Details', value: pdfText(outage.details), wide: true }] : []),
  ]);
  if (outage.ranges.length === 0) paragraph(pdf, 'No paper was used during this outage in the period.', { size: 8.5 });
  else
    table(
      pdf,
      RANGE_COLUMNS,
      outage.ranges.map((range) => [
        pdfText(range.route.name),
        String(range.pad.number),
        numberRange(range.from, range.to),
        countText(range.qty),
        dayTimeText(range.used_at, timeZone),
        pdfText(range.holder?.name) || 'Branch stock',
      ]),
      { caption: title, totals: ['Paper numbers used', '', '', countText(outage.qty), '', ''] },
    );
  const entered = outage.replacements.length;
  paragraph(
    pdf,
    `Replacement e-invoices: ${countText(entered)} entered, ${countText(outage.pending)} pending${entered > 0 ? ` \u2014 ${replacementsText(outage)}` : ''}`,
    { size: 8.5 },
  );
}

function exceptionsTable(pdf: Pdf, exceptions: Exception[], timeZone: string): void {
  sectionTitle(pdf, 'Exceptions: paper used outside every outage');
  if (exceptions.length === 0) {
    paragraph(pdf, 'No paper was used outside an outage in the period.', { size: 8.5 });
    return;
  }
  table(
    pdf,
    EXCEPTION_COLUMNS,
    exceptions.map((use) => [
      `${pdfText(use.route.name)}, pad ${use.pad.number}\n${numberRange(use.from, use.to)} (${countText(use.qty)})`,
      dayTimeText(use.used_at, timeZone),
      pdfText(use.holder?.name) || 'Branch stock',
      STATE_TEXT[use.state],
      use.decided_by
        ? pdfText(
            `${[use.reason_label, use.reason_text].filter(Boolean).join(': ')}\nby ${use.decided_by.name}, ${dayTimeText(use.decided_at, timeZone)}`,
          )
        : 'Awaiting decision',
    ]),
    { caption: 'Exceptions' },
  );
}

/** The operator's signatory for this list (Settings), or the line left for a hand-written name. */
function certifier(operator: IdentitySnapshot): Signature[] {
  const signer = operator.signatories.paper_use_summary ?? null;
  return [
    {
      lines: [
        { text: pdfText(signer?.name), weight: 'bold', size: 10 },
        { text: pdfText(signer?.position), size: 9 },
        { text: 'Signature over printed name / Date', muted: true, size: 8 },
      ],
    },
  ];
}

/** The totals set against the ledger, kept on a page with the certification that follows them. */
function totalsAndCertification(pdf: Pdf, totals: PaperUseSummary['totals'], slots: Signature[]): void {
  pdf.font('regular', 9);
  const tail = 14 + pdf.textHeight(CERTIFIED, pdf.width) + signaturesHeight(pdf, slots, SIGNATURE);
  const equation = `Outages ${countText(totals.outage_numbers)} + exceptions ${countText(totals.exception_numbers)} = ${countText(totals.total)}`;
  sectionTitle(pdf, 'Totals');
  table(
    pdf,
    [{ label: 'Paper numbers' }, { label: 'Count', width: 80, align: 'right' }],
    [
      ['Used during outages', countText(totals.outage_numbers)],
      ['Used outside every outage (exceptions)', countText(totals.exception_numbers)],
      ['Total paper numbers used', countText(totals.total)],
      ['Used at the establishment in the period, by the ledger', countText(totals.ledger_used)],
    ],
    {
      totals: [`${equation}${totals.matches ? ' = ' : ', NOT '}the ledger's ${countText(totals.ledger_used)}`, ''],
      keepWithLast: tail,
      rowColor: (index) => (index === 3 && !totals.matches ? WARNING : undefined),
    },
  );
  pdf.ensureSpace(tail);
  pdf.doc.y += 14;
  paragraph(pdf, CERTIFIED, { size: 9 });
  signatures(pdf, slots, SIGNATURE);
}

/**
 * Issue 38: the summary list of the paper an e-invoicing establishment used in a period — per outage its window, cause,
 * ranges and replacement e-invoices, then the exceptions with their decisions, and totals set against the ledger —
 * portrait A4 under the operator's letterhead, certified by the operator's signatory.
 */
export function renderPaperUseSummaryPdf(
  summary: PaperUseSummary,
  generatedAt: Date,
  operator: IdentitySnapshot = NO_IDENTITY,
  timeZone = 'UTC',
): Promise<Buffer> {
  const { establishment, period, totals } = summary;
  const periodText = `${calendarDayText(period.from)} to ${calendarDayText(period.to)}`;
  const pdf = new Pdf({
    size: 'A4',
    margins: { top: 40, bottom: 40, left: 40, right: 40 },
    headerHeight: LETTERHEAD_HEIGHT + 14,
    footerGap: 16,
    info: { title: `Summary list of paper used, ${periodText}`, subject: 'Paper used beside e-invoicing', createdAt: generatedAt },
  });
  letterheadOnEveryPage(pdf, operator, { reference: periodText, title: 'Summary List of Paper Used Beside E-invoicing' });
  pageFooters(pdf, `Summary list of paper used, ${periodText}  |  Printed ${documentTimeText(generatedAt, timeZone)}`, {
    size: 7.5,
    ruled: true,
  });
  pdf.addPage();
  documentTitle(
    pdf,
    'SUMMARY LIST OF PAPER USED BESIDE E-INVOICING',
    'Every paper number used at the establishment in the period: inside a declared outage, with the e-invoices that replaced it, or as an exception with its decision.',
  );
  keyValues(pdf, [
    { label: 'Establishment', value: pdfText(establishment.branch.name), wide: true },
    { label: 'BIR branch code', value: establishment.bir_branch_code },
    { label: 'E-invoicing since', value: calendarDayText(establishment.e_invoicing_since) },
    { label: 'Permit', value: pdfText(establishment.permit_reference) },
    { label: 'Invoicing system', value: pdfText(establishment.invoicing_system) },
    { label: 'Period', value: `${periodText} (${timeZone})`, wide: true },
  ]);
  if (summary.outages.length === 0) paragraph(pdf, 'No outage was declared in the period.', { size: 9 });
  for (const outage of summary.outages) outageBlock(pdf, outage, timeZone);
  exceptionsTable(pdf, summary.exceptions, timeZone);
  totalsAndCertification(pdf, totals, certifier(operator));
  return pdf.finish();
}
