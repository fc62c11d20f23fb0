import { describe, expect, it } from 'vitest';
import type { Raaf, RaafRouteRow } from '../../../shared/schemas/ledger.ts';
import { operatorShortName, type IdentitySnapshot, type Signatory } from '../../../shared/schemas/operator-identity.ts';
import { drawnWithLayout, layoutFaults, printedWords } from '../../test/pdf-layout.ts';
import { qrPng } from '../qr.ts';
import { renderBadgePdf } from './badge-pdf.ts';
import { renderCountCertificatePdf } from './count-certificate-pdf.ts';
import { renderNoticeOfLossPdf } from './notice-of-loss-pdf.ts';
import { renderPadLabelsPdf } from './pad-labels-pdf.ts';
import { renderRaafPdf, type RaafDocument } from './raaf-pdf.ts';
import { renderReportPdf, type ReportDocument } from './report-pdf.ts';
import { renderTransmittalSlipPdf } from './transmittal-slip-pdf.ts';
import { renderUnusedFormsPdf } from './unused-forms-pdf.ts';
import { renderPaperUseSummaryPdf } from './paper-use-summary-pdf.ts';

/** Thirty characters without a space: a line wrapper can only break it inside the word. */
const TOKEN = 'NorthernMindanaoInterIslandXY';
const COMPANY = `Ocean Fast Ferries and Inter-Island Shipping Lines Incorporated ${TOKEN}`;
const ROUTE = `Manila - Iloilo - Bacolod - Dumaguete via ${TOKEN} Northern Leg`;
const BRANCH = `Iloilo Port Regional Distribution and Ticketing Office ${TOKEN}`;
const PERSON = `Maria Clara Santos-Villanueva de los Reyes y Concepcion ${TOKEN}`;
const signatory = (role: string): Signatory => ({
  name: `${PERSON} ${role}`,
  position: `${role} and Officer-in-Charge of Accountable Forms ${TOKEN} Head Office`,
});
const REMARK = `Returned late because the vessel was held at the pier by the coast guard for ${TOKEN} inspection of every cabin`;
const OPERATOR: IdentitySnapshot = {
  registeredName: COMPANY,
  tradeName: `${TOKEN} Fast Craft Services of the Western Visayas`,
  tin: '004-512-889-000',
  address: `Pier 4 North Harbor ${TOKEN}, Tondo, Manila 1012, Metro Manila, Philippines`,
  logo: null,
  signatories: {
    raaf: signatory('Chief Accountant'),
    report: signatory('Comptroller'),
    unused_forms: signatory('Treasurer'),
    paper_use_summary: signatory('Branch Accountant'),
  },
};
const AT = new Date('2026-10-15T03:04:05Z');

const ranges = (count: number, start: number): Array<[number, number]> =>
  Array.from({ length: count }, (_, i) => [start + i * 100 + 1, start + i * 100 + 50]);

function routeRow(index: number, lines: number, company = COMPANY, name = `${ROUTE} ${index}`): RaafRouteRow {
  const group = (offset: number) => ({ qty: lines * 50, ranges: ranges(lines, offset + index * 10000) });
  return {
    route: { id: index + 1, name, tin: `004-512-889-${String(index).padStart(3, '0')}`, company },
    beginning: group(100000),
    receipt: group(2000000),
    issued: { ...group(30000000), by_kind: { used: 40, cancelled: 5, lost: 3, transferred: 2 } },
    ending: { qty: 0, ranges: [] },
    remarks: [REMARK, `Transferred to ${PERSON} (${BRANCH}) on invoice #${1000 + index}`],
  };
}

function raafOf(
  name: string,
  type: 'user' | 'branch',
  rows: RaafRouteRow[],
  certificate: RaafDocument['certificate'] = null,
  summary = false,
): RaafDocument {
  const raaf: Raaf = {
    month: '2026-10',
    holder: { type, id: 1, name, branch: { id: 1, name: BRANCH } },
    rows,
    totals: { beginning: 1234, receipt: 5678, issued: 910, ending: 0 },
    balanced: true,
    in_transit: [],
    certificate: null,
  };
  return { raaf, certificate, timeZone: 'Asia/Manila', generatedAt: AT, operator: OPERATOR, summary };
}

const manyRoutes = (count: number, lines: (i: number) => number) => Array.from({ length: count }, (_, i) => routeRow(i, lines(i)));

function report(number: string | null): ReportDocument {
  return {
    number,
    generatedAt: AT,
    generatedBy: { name: PERSON, role: `Accounting ${TOKEN}` },
    remarks: `${REMARK}. ${REMARK}.`,
    periodFrom: '2026-10-01',
    periodTo: '2026-10-31',
    timeZone: 'Asia/Manila',
    operator: OPERATOR,
    invoices: Array.from({ length: 9 }, (_, i) => ({
      id: 500 + i,
      status: `Completed ${TOKEN}`,
      route: `${COMPANY} - ${ROUTE} - 004-512-889-00${i % 3}`,
      from_branch: `Head Office ${TOKEN}`,
      to_branch: BRANCH,
      receiving_user: PERSON,
      courier: `${PERSON} Jr.`,
      issued_at: AT,
      accepted_at: AT,
      expected_return_date: '2026-11-30',
      pads: Array.from({ length: 3 + ((i * 11) % 30) }, (_, p) => ({
        number: 1000 + p,
        series_from: p * 50 + 1,
        series_to: p * 50 + 50,
        pad_status: p % 4 === 0 ? `Issued and returned ${TOKEN}` : 'Issued',
      })),
    })),
  };
}

const raafPdf = (
  name: string,
  type: 'user' | 'branch',
  rows: RaafRouteRow[],
  certificate: RaafDocument['certificate'] = null,
  summary = false,
) => renderRaafPdf(raafOf(name, type, rows, certificate, summary)).finish();

/** Every kind of PDF PadTrack prints, drawn with long text in each column that takes a name or a remark; `pages` when its size is fixed. */
const documents: Array<{ kind: string; draw: () => Promise<Buffer>; pages?: number }> = [
  {
    kind: 'RAAF of a holder',
    draw: () =>
      raafPdf(
        PERSON,
        'user',
        manyRoutes(12, (i) => [1, 2, 5, 9][i % 4]),
      ),
  },
  {
    kind: 'RAAF branch roll-up',
    draw: () =>
      raafPdf(
        `${BRANCH} (branch roll-up: stock and staff)`,
        'branch',
        manyRoutes(30, (i) => 1 + (i % 3)),
        null,
        true,
      ),
  },
  {
    kind: 'consolidated RAAF',
    draw: () =>
      raafPdf(
        'All holders (consolidated)',
        'branch',
        manyRoutes(20, (i) => (i === 3 ? 70 : 1 + (i % 6))),
        null,
        true,
      ),
  },
  {
    kind: 'certified RAAF copy',
    draw: () =>
      raafPdf(
        PERSON,
        'user',
        manyRoutes(6, (i) => (i % 2) + 1),
        { number: 'RAAF-2026-10-0042', certifiedAt: AT },
      ),
  },
  { kind: 'report preview', draw: () => renderReportPdf(report(null)).finish() },
  { kind: 'saved report', draw: () => renderReportPdf(report('RPT-2026-0007')).finish() },
  { kind: 'Notice of Loss', draw: noticeOfLoss },
  { kind: 'count certificate', draw: countCertificate },
  { kind: 'transmittal slip', draw: transmittalSlip },
  { kind: 'pad labels (A4)', draw: async () => renderPadLabelsPdf(await labels(), 'a4', operatorShortName(OPERATOR)), pages: 1 },
  { kind: 'pad labels (4x6)', draw: async () => renderPadLabelsPdf(await labels(), '4x6', operatorShortName(OPERATOR)), pages: 7 },
  { kind: 'badge', draw: badge, pages: 1 },
  { kind: 'inventory of unused forms', draw: () => renderUnusedFormsPdf(unusedForms(), AT, OPERATOR) },
  { kind: 'summary list of paper used', draw: () => renderPaperUseSummaryPdf(paperUseSummary(), AT, OPERATOR, 'Asia/Manila') },
];

describe('PDF layout', () => {
  it.each(documents)(
    'when the $kind holds long names and words, then no word overlaps another, leaves the page or its cell, or hides under a fill',
    async ({ draw, pages }) => {
      const { pdf, marks } = await drawnWithLayout(draw);

      expect(marks.some((mark) => mark.kind === 'text')).toBe(true);
      expect(layoutFaults(pdf, marks)).toEqual([]);
      if (pages !== undefined) expect(printedWords(pdf)).toHaveLength(pages);
    },
  );

  it('when "Company - Route - TIN" wraps over a route of one range line before the Total row, then both of its lines are printed clear of the Total row', async () => {
    const row = routeRow(1, 1, 'Ocean Fast Ferries Inc.', 'Manila - Iloilo');
    row.route.tin = '004-512-889-001';
    const { pdf, marks } = await drawnWithLayout(() => raafPdf(PERSON, 'user', [row]));

    expect(layoutFaults(pdf, marks)).toEqual([]);
    const route = marks.find((mark) => mark.kind === 'cell' && mark.text === 'Ocean Fast Ferries Inc. - Manila - Iloilo - 004-512-889-001');
    const total = marks.find((mark) => mark.kind === 'cell' && mark.text === 'Total');
    expect(route && total && total.y - route.y).toBeGreaterThanOrEqual(route?.height ?? Infinity);
  });

  it('when the last pad table ends anywhere on a page, then the report signature lines share their page with its last rows', async () => {
    for (let pads = 20; pads <= 70; pads += 2) {
      const input = { ...report('RPT-2026-0008'), invoices: report(null).invoices.slice(0, 1) };
      input.invoices[0] = { ...input.invoices[0], pads: padRows(pads) };
      const { marks } = await drawnWithLayout(() => renderReportPdf(input).finish());

      const lastPage = Math.max(...marks.map((mark) => mark.page));
      expect(
        marks.some((mark) => mark.page === lastPage && mark.kind === 'cell' && /^\d+$/.test(mark.text)),
        `${pads} pads`,
      ).toBe(true);
    }
  });
});

function padRows(count: number): ReportDocument['invoices'][number]['pads'] {
  return Array.from({ length: count }, (_, p) => ({
    number: 1000 + p,
    series_from: p * 50 + 1,
    series_to: p * 50 + 50,
    pad_status: 'Issued',
  }));
}

async function noticeOfLoss(): Promise<Buffer> {
  return renderNoticeOfLossPdf({
    number: 'NL-2026-0003',
    formKind: 'Official Receipt / Invoice',
    operator: OPERATOR,
    signatory: { name: PERSON, position: `Head of Accountable Forms ${TOKEN}` },
    lines: [1, 2, 3].map((i) => ({
      route: `${COMPANY} - ${ROUTE} - 004-512-889-001`,
      padNumber: 1000 + i,
      from: i * 50 + 1,
      to: i * 50 + 50,
      qty: 50,
      atp: `ATP ${TOKEN}-2026`,
      invoice: `Turnover #12 ${TOKEN}`,
    })),
    transitNotes: [`Pad 1001 was on Turnover #12 in transit with ${PERSON} when it was lost.`],
    place: `${BRANCH}, ${ROUTE}`,
    occurredAt: AT,
    circumstances: `${REMARK}. ${REMARK}.`,
    reportedBy: { name: PERSON, position: `Branch custodian ${TOKEN}` },
    reportedAt: AT,
    confirmedBy: { name: `${PERSON} II`, position: `Accounting supervisor ${TOKEN}` },
    confirmedAt: AT,
    papers: [{ kind: `Affidavit of loss ${TOKEN}`, fileName: `${TOKEN}${TOKEN}.pdf`, date: '2026-10-16' }],
    noAffidavitReason: null,
    timeZone: 'Asia/Manila',
  });
}

async function countCertificate(): Promise<Buffer> {
  return renderCountCertificatePdf({
    id: 7,
    status: 'closed',
    holder: `${PERSON} (${BRANCH})`,
    counter: { name: `${PERSON} III`, position: `Internal auditor ${TOKEN}` },
    signer: { name: PERSON, position: `Branch custodian ${TOKEN}` },
    startedAt: '15 Oct 2026 11:04 (Asia/Manila)',
    closedAt: '15 Oct 2026 12:30 (Asia/Manila)',
    signedOffAt: '15 Oct 2026 12:31 (Asia/Manila)',
    printedAt: '15 Oct 2026 12:40 (Asia/Manila)',
    signaturePng: null,
    pads: Array.from({ length: 40 }, (_, i) => ({
      route: `${COMPANY} - ${ROUTE}`,
      padNumber: 1000 + i,
      series: `${i * 50 + 1}-${i * 50 + 50}`,
      state: `Counted whole ${TOKEN}`,
      firstUnused: String(i * 50 + 7),
      books: String(i * 50 + 7),
    })),
    variances: [{ pad: `Pad 1003 ${TOKEN}`, kind: `Missing ${TOKEN}`, detail: REMARK, resolution: `${REMARK} ${TOKEN}` }],
    operator: OPERATOR,
  });
}

async function transmittalSlip(): Promise<Buffer> {
  const person = (name: string) => ({ name, position: `Branch custodian ${TOKEN}`, at: '15 Oct 2026 11:04 (Asia/Manila)' });
  const pad = (i: number) => ({ route: `${COMPANY} - ${ROUTE}`, number: 1000 + i, series: `${i * 50 + 1}-${i * 50 + 50}`, qty: 50 });
  return renderTransmittalSlipPdf({
    invoiceId: 12,
    type: 'Transfer',
    status: 'In transit',
    from: BRANCH,
    to: `${BRANCH} South`,
    requestedBy: PERSON,
    createdAt: '15 Oct 2026 11:04 (Asia/Manila)',
    printedAt: '15 Oct 2026 11:05 (Asia/Manila)',
    released: person(PERSON),
    carried: person(`${PERSON} Jr.`),
    received: person(`${PERSON} III`),
    pads: Array.from({ length: 14 }, (_, i) => pad(i)),
    lostOnTheWay: [{ ...pad(20), leftAt: '16 Oct 2026 09:00 (Asia/Manila)' }],
    qrPng: await qrPng('invoice 12'),
    operator: OPERATOR,
  });
}

async function badge(): Promise<Buffer> {
  return renderBadgePdf({
    operator: operatorShortName(OPERATOR),
    name: PERSON,
    role: `Courier ${TOKEN}`,
    branch: BRANCH,
    qrPng: await qrPng('badge'),
  });
}

async function labels() {
  const png = await qrPng('PL1.1.signature');
  return Array.from({ length: 7 }, (_, i) => ({
    route: `${COMPANY} - ${ROUTE}`,
    padNumber: 1000 + i,
    series: `${i * 50 + 1}-${i * 50 + 50}`,
    code: `PL1.${i}.${TOKEN}`,
    qrPng: png,
  }));
}

function unusedForms(): Parameters<typeof renderUnusedFormsPdf>[0] {
  const route = (i: number) => ({ id: i, name: `${ROUTE} ${i}`, tin: `004-512-889-00${i}`, company: COMPANY });
  const holder = (i: number) => ({ type: 'user' as const, id: i, name: `${PERSON} ${i}`, branch: `${BRANCH} ${i}` });
  const atp = { id: 1, atp_number: `OCN-2024-${TOKEN}`, atp_date: '2024-05-02', form_type: 'converted_receipt' as const };
  const series = (i: number) => ({
    registered_series: i % 3 === 2 ? null : { ...atp, id: i },
    role: i % 3 === 2 ? null : ('contingency' as const),
    route: route(i),
    qty: 50 * (1 + (i % 4)) * 6,
    ranges: ranges(6 * (1 + (i % 4)), 1000 * i),
    holders: Array.from({ length: 1 + (i % 4) }, (_, h) => ({
      holder: holder(h),
      qty: 300,
      ranges: ranges(6, 1000 * i + 600 * h),
      outside_establishment: h % 2 === 1,
    })),
  });
  return {
    date: '2026-10-31',
    total: 12000,
    establishments: [1, 2].map((b) => ({
      branch: { id: b, name: `${BRANCH} ${b}` },
      qty: 6000,
      series: Array.from({ length: 8 }, (_, i) => series(b * 10 + i)),
    })),
    in_transit: [12, 13].map((id) => ({
      invoice_id: id,
      courier: PERSON,
      pads: Array.from({ length: 3 }, (_, p) => ({
        id: p,
        number: 1001 + p,
        route: `${COMPANY} - ${ROUTE}`,
        series_number: `${TOKEN}${p}`,
      })),
    })),
  };
}

function paperUseSummary(): Parameters<typeof renderPaperUseSummaryPdf>[0] {
  const person = (i: number) => ({ id: i, name: `${PERSON} ${i}` });
  const range = (i: number) => ({
    route: { id: i, name: `${ROUTE} ${i}` },
    pad: { id: i, number: 1000 + i },
    from: 1000001 + i * 50,
    to: 1000050 + i * 50,
    qty: 50,
    used_at: '2027-01-05T01:30:00.000Z',
    holder: i % 2 === 0 ? person(i) : null,
  });
  const outage = (id: number, open: boolean) => ({
    id,
    starts_at: '2027-01-05T01:00:00.000Z',
    ends_at: open ? null : '2027-01-05T09:00:00.000Z',
    cause: 'network' as const,
    cause_label: `Network or internet down ${TOKEN}`,
    details: REMARK,
    notice_reference: `NOTICE-${TOKEN}`,
    declared_by: person(id),
    ranges: Array.from({ length: 12 }, (_, i) => range(id * 20 + i)),
    qty: 600,
    replacements: Array.from({ length: 40 }, (_, n) => ({
      paper_number: 1000001 + n,
      route: { id: 1, name: ROUTE },
      einvoice_number: `EI-${TOKEN}-${n}`,
      transmitted_on: '2027-01-06',
    })),
    pending: 560,
  });
  return {
    establishment: {
      branch: { id: 1, name: BRANCH },
      bir_branch_code: '00012',
      covered: true,
      e_invoicing_since: '2027-01-01',
      permit_reference: `PTU-${TOKEN}-2026-000123`,
      invoicing_system: `Ocean Fast Ferries E-Invoicing and Point-of-Sale Suite ${TOKEN}`,
    },
    period: { from: '2027-01-01', to: '2027-01-31', time_zone: 'Asia/Manila' },
    outages: [outage(1, false), outage(2, true)],
    exceptions: Array.from({ length: 10 }, (_, i) => ({
      ...range(100 + i),
      id: i,
      state: (['open', 'justified', 'rejected'] as const)[i % 3],
      reason_code: i % 3 === 0 ? null : 'other',
      reason_label: i % 3 === 0 ? null : `Other reason ${TOKEN}`,
      reason_text: i % 3 === 0 ? null : REMARK,
      decided_by: i % 3 === 0 ? null : person(i),
      decided_at: i % 3 === 0 ? null : '2027-01-07T02:00:00.000Z',
    })),
    totals: { outage_numbers: 1200, exception_numbers: 500, total: 1700, ledger_used: 1700, matches: true },
  };
}
