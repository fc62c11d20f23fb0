import { calendarDayText, countText, documentTimeText, numberRanges } from '../../../shared/format.ts';
import { FORM_TYPES } from '../../../shared/lookups.ts';
import { NO_IDENTITY, type IdentitySnapshot } from '../../../shared/schemas/operator-identity.ts';
import { SERIES_ROLE_LABELS, type UnusedForms } from '../../../shared/schemas/registered-series.ts';
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

type Establishment = UnusedForms['establishments'][number];
type Series = Establishment['series'][number];

/** The colour of a range held outside its establishment. */
const WARNING = '#9a3412';
const OUTSIDE = '[held outside its establishment]';
const CERTIFIED = 'Certified true and correct:';
const SIGNATURE: SignatureOptions = { gutter: 0, space: 30, slotWidth: 240 };

const counted = (n: number, noun: string) => `${countText(n)} ${n === 1 ? noun : `${noun}s`}`;

const SERIES_COLUMNS: Column[] = [
  { label: 'Registered series' },
  { label: 'Holder', width: 150 },
  { label: 'Qty', width: 44, align: 'right' },
  { label: 'Unused numbers', width: 150 },
];

const TRANSIT_COLUMNS: Column[] = [
  { label: 'Invoice', width: 52 },
  { label: 'Courier', width: 130 },
  { label: 'Pad', width: 44, align: 'right' },
  { label: 'Route' },
  { label: 'Series', width: 110 },
];

/** "Company - Route - TIN" over the ATP and the kind of form, or that the numbers lie outside every registered series. */
function seriesCell(series: Series): string {
  const route = [series.route.company, series.route.name, series.route.tin].filter(Boolean).join(' - ');
  const ref = series.registered_series;
  const registered = ref
    ? `ATP ${ref.atp_number} of ${calendarDayText(ref.atp_date)}\nForm: ${FORM_TYPES[ref.form_type]}${series.role ? `\nRole: ${SERIES_ROLE_LABELS[series.role]}` : ''}`
    : 'Not inside any registered series';
  return pdfText(`${route}\n${registered}`);
}

function holderCell(held: Series['holders'][number]): string {
  const name = held.holder.branch ? `${held.holder.name} (${held.holder.branch})` : held.holder.name;
  return pdfText(held.outside_establishment ? `${name}\n${OUTSIDE}` : name);
}

/**
 * A series' rows: one when a single holder holds all of it, else the series' whole quantity and ranges over a row per
 * holder; `outside` marks the rows of a holder outside the establishment.
 */
function seriesRows(series: Series): Array<{ cells: string[]; outside: boolean }> {
  const [only] = series.holders;
  if (series.holders.length === 1)
    return [
      {
        cells: [seriesCell(series), holderCell(only), countText(only.qty), numberRanges(only.ranges, ', ')],
        outside: only.outside_establishment,
      },
    ];
  return [
    { cells: [seriesCell(series), 'All holders', countText(series.qty), numberRanges(series.ranges, ', ')], outside: false },
    ...series.holders.map((held) => ({
      cells: ['', holderCell(held), countText(held.qty), numberRanges(held.ranges, ', ')],
      outside: held.outside_establishment,
    })),
  ];
}

/** One establishment's series and holders with its total; the last one keeps `tail` room for what follows. */
function establishmentTable(pdf: Pdf, establishment: Establishment, tail: number): void {
  const name = pdfText(establishment.branch?.name ?? 'No establishment');
  sectionTitle(pdf, name);
  const rows = establishment.series.flatMap(seriesRows);
  table(
    pdf,
    SERIES_COLUMNS,
    rows.map((row) => row.cells),
    {
      caption: name,
      totals: ['Total unused', '', countText(establishment.qty), ''],
      keepWithLast: tail,
      rowColor: (index) => (rows[index].outside ? WARNING : undefined),
    },
  );
}

/** The pads on the road at the end of the day, a row each with the invoice carrying it and its courier. */
function inTransitTable(pdf: Pdf, report: UnusedForms, tail: number): void {
  sectionTitle(pdf, 'In transit at the end of the day');
  table(
    pdf,
    TRANSIT_COLUMNS,
    report.in_transit.flatMap((invoice) =>
      invoice.pads.map((pad) => [
        `#${invoice.invoice_id}`,
        pdfText(invoice.courier) || '-',
        String(pad.number),
        pdfText(pad.route),
        pad.series_number,
      ]),
    ),
    { caption: 'In transit at the end of the day', keepWithLast: tail },
  );
}

/** The operator's signatory for this inventory (Settings), or the line left for a hand-written name. */
function certifier(operator: IdentitySnapshot): Signature[] {
  const signer = operator.signatories.unused_forms ?? null;
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

/** "Certified true and correct:" over the signature line, kept whole on one page. */
function certification(pdf: Pdf, slots: Signature[], height: number): void {
  pdf.ensureSpace(height);
  pdf.doc.y += 14;
  paragraph(pdf, CERTIFIED, { size: 9 });
  signatures(pdf, slots, SIGNATURE);
}

/**
 * docs/design.md §10: the inventory of unused forms at the end of a business day in APP_TIMEZONE (`timeZone`), per
 * establishment and registered series, each holder with the numbers they hold, then the pads in transit and the
 * operator's certification; portrait A4 under the operator's letterhead.
 */
export function renderUnusedFormsPdf(
  report: UnusedForms,
  generatedAt: Date,
  operator: IdentitySnapshot = NO_IDENTITY,
  timeZone = 'UTC',
): Promise<Buffer> {
  const day = calendarDayText(report.date);
  const pdf = new Pdf({
    size: 'A4',
    margins: { top: 40, bottom: 40, left: 40, right: 40 },
    headerHeight: LETTERHEAD_HEIGHT + 14,
    footerGap: 16,
    info: { title: `Inventory of unused forms as of ${day}`, subject: 'Inventory of unused accountable forms', createdAt: generatedAt },
  });
  letterheadOnEveryPage(pdf, operator, { reference: `As of ${day}`, title: 'Inventory of Unused Accountable Forms' });
  pageFooters(pdf, `Inventory of unused forms as of ${day}  |  Printed ${documentTimeText(generatedAt, timeZone)}`, {
    size: 7.5,
    ruled: true,
  });
  pdf.addPage();
  documentTitle(
    pdf,
    'INVENTORY OF UNUSED ACCOUNTABLE FORMS',
    'The unused numbers held at the end of the day, per establishment and registered series, with who holds them, and the pads in transit.',
  );
  const transitPads = report.in_transit.reduce((sum, invoice) => sum + invoice.pads.length, 0);
  keyValues(pdf, [
    { label: 'As of the end of', value: `${day} (${timeZone})` },
    { label: 'Total unused', value: countText(report.total) },
    { label: 'Establishments', value: countText(report.establishments.length) },
    { label: 'In transit', value: `${counted(transitPads, 'pad')} on ${counted(report.in_transit.length, 'invoice')}` },
  ]);
  const slots = certifier(operator);
  pdf.font('regular', 9);
  const tail = 14 + pdf.textHeight(CERTIFIED, pdf.width) + signaturesHeight(pdf, slots, SIGNATURE);
  if (report.establishments.length === 0) paragraph(pdf, 'No unused forms were held at the end of the day.', { size: 9 });
  report.establishments.forEach((establishment, index) =>
    establishmentTable(pdf, establishment, report.in_transit.length === 0 && index === report.establishments.length - 1 ? tail : 0),
  );
  if (report.in_transit.length > 0) inTransitTable(pdf, report, tail);
  certification(pdf, slots, tail);
  return pdf.finish();
}
