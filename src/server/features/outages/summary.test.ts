import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { SERIES_ROLE_LABELS } from '../../../shared/schemas/registered-series.ts';
import { SUMMARY_MSG, type PaperUseSummary } from '../../../shared/schemas/paper-use-summary.ts';
import { XLSX_CONTENT_TYPE } from '../../../shared/schemas/responses.ts';
import { buildPad, createBranch, createRoute, signedIn, type PadRow } from '../../test/factories.ts';
import { readExport } from '../../test/export.ts';
import { apiCalls } from '../../test/inject.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { usedNumbersAt } from '../ledger/read-model.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let covered: number;
let other: number;
const people: Record<'accounting' | 'auditor' | 'custodian' | 'head' | 'supervisor' | 'holder' | 'otherHead', Who> = {} as never;
let route: { id: number; name: string };
let first: PadRow;
let second: PadRow;
let outageId: number;
let openOutageId: number;

const PERIOD = 'from=2026-09-20&to=2026-10-31';
const { call, ok, at } = apiCalls(() => t);

async function person(role: number, branchId: number, name: { first_name: string; last_name: string }): Promise<Who> {
  const session = await signedIn(t, { role_id: role, branch_id: branchId, ...name });
  return { id: session.user.id, headers: session.headers };
}

/** A registered series of the covered establishment with its role set through the role change. */
async function seriesOf(routeId: number, from: number, to: number, role: string) {
  const series = await ok(
    call(people.accounting, 'POST', '/api/registered-series', {
      route_id: routeId,
      branch_id: covered,
      form_type: role === 'converted' ? 'converted_receipt' : 'invoice',
      atp_number: `OCN-${from}`,
      atp_date: '2026-01-05',
      printer: 'Mindoro Press',
      delivery_date: null,
      series_from: from,
      series_to: to,
      remarks: null,
    }),
    201,
  );
  await ok(call(people.accounting, 'PUT', `/api/registered-series/${series.data.id}/role`, { role, reason: 'Set for go-live' }));
}

const use = (pad: PadRow, from: number, to: number, when: string) => {
  at(when);
  return ok(call(people.holder, 'POST', `/api/pads/${pad.id}/usage`, { from, to }));
};

/** Unmarks numbers on the pad's grid (Edit Pad), as a holder corrects a number marked used by mistake. */
async function unmark(pad: PadRow, numbers: number[]) {
  const current = (await ok(call(people.holder, 'GET', `/api/get-pad/${pad.id}`))).data as {
    number: number;
    pad_status_id: number;
    issuance_status_id: number;
    remarks: string | null;
    series: Array<{ number: number; status: number }>;
  };
  await ok(
    call(people.holder, 'PUT', `/api/update-pad/${pad.id}`, {
      number: current.number,
      pad_status_id: current.pad_status_id,
      issuance_status_id: current.issuance_status_id,
      remarks: current.remarks,
      series: current.series.map((entry) => ({ number: entry.number, status: numbers.includes(entry.number) ? 1 : entry.status })),
    }),
  );
}

const summaryOf = async (who: Who): Promise<PaperUseSummary> =>
  (await ok(call(who, 'GET', `/api/paper-use?branch_id=${covered}&${PERIOD}`))).data;

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  covered = (await createBranch(t.db, { name: 'Calapan Port' })).id;
  other = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  people.accounting = await person(ROLE.ACCOUNTING, headOffice.id, { first_name: 'Carla', last_name: 'Reyes' });
  people.auditor = await person(ROLE.AUDITOR, headOffice.id, { first_name: 'Dante', last_name: 'Lim' });
  people.custodian = await person(ROLE.CUSTODIAN, headOffice.id, { first_name: 'Ester', last_name: 'Go' });
  people.head = await person(ROLE.BRANCH_HEAD, covered, { first_name: 'Hector', last_name: 'Ramos' });
  people.supervisor = await person(ROLE.SUPERVISOR, covered, { first_name: 'Sara', last_name: 'Uy' });
  people.holder = await person(ROLE.TICKETING_OFFICER, covered, { first_name: 'Ana', last_name: 'Cruz' });
  people.otherHead = await person(ROLE.BRANCH_HEAD, other, { first_name: 'Oscar', last_name: 'Tan' });
  await ok(
    call(people.accounting, 'PUT', `/api/branches/${covered}/e-invoicing`, {
      bir_branch_code: '00012',
      covered: true,
      e_invoicing_since: '2026-10-01',
      permit_reference: 'PTU-2026-0001',
      invoicing_system: 'EIS Cloud',
    }),
  );
  route = await createRoute(t.db, { name: 'Calapan - Batangas', tin: '000-111-222' });
  const held = { route_id: route.id, size: 50, heldBy: { userId: people.holder.id, branchId: covered } };
  first = await buildPad(t.db, { ...held, series_from: 7001, series_to: 7050 });
  second = await buildPad(t.db, { ...held, series_from: 7051, series_to: 7100 });
  await seriesOf(route.id, 7001, 7100, 'contingency');
  /* Before go-live: in the ledger, not a paper use, and before the summary counts. */
  await use(second, 7051, 7052, '2026-09-25T10:00:00+08:00');
  t.ctx.ledgerClock = undefined;
  outageId = (
    await ok(
      call(people.head, 'POST', '/api/outages', {
        branch_id: covered,
        starts_at: '2026-10-05T08:00:00+08:00',
        ends_at: '2026-10-05T14:00:00+08:00',
        cause: 'network',
        notice_reference: 'EIS-INC-0042',
      }),
      201,
    )
  ).data.id;
  openOutageId = (
    await ok(call(people.head, 'POST', '/api/outages', { branch_id: covered, starts_at: '2026-10-20T08:00:00+08:00', cause: 'power' }), 201)
  ).data.id;
  await use(first, 7001, 7004, '2026-10-05T10:00:00+08:00');
  await use(first, 7005, 7006, '2026-10-05T16:00:00+08:00');
  await unmark(first, [7006]);
  await use(second, 7053, 7055, '2026-10-07T09:00:00+08:00');
  t.ctx.ledgerClock = undefined;
  const exceptions = await ok(call(people.accounting, 'GET', `/api/paper-use-exceptions?branch_id=${covered}&state=open`));
  const later = exceptions.data.find((row: { number_from: number }) => row.number_from === 7053);
  await ok(
    call(people.accounting, 'POST', `/api/paper-use-exceptions/${later.id}/decision`, {
      decision: 'justified',
      reason_code: 'outage_not_declared',
      reason_text: 'The network was down; the outage was not declared',
    }),
  );
  await ok(
    call(people.supervisor, 'POST', `/api/outages/${outageId}/replacements`, {
      items: [{ paper_number: 7001, einvoice_number: 'EI-0000101', transmitted_on: '2026-10-06' }],
    }),
    201,
  );
});

afterAll(async () => {
  expect(t.documentViolations).toEqual([]);
  await t.close();
});

describe('summary list of paper used beside e-invoicing (issue 38)', () => {
  it("when paper was used in and outside outages, then the summary lists each outage, the exceptions with their decisions, and totals that equal the ledger's", async () => {
    const summary = await summaryOf(people.auditor);
    expect(summary.establishment).toEqual({
      branch: { id: covered, name: 'Calapan Port' },
      bir_branch_code: '00012',
      covered: true,
      e_invoicing_since: '2026-10-01',
      permit_reference: 'PTU-2026-0001',
      invoicing_system: 'EIS Cloud',
    });
    expect(summary.period).toEqual({ from: '2026-09-20', to: '2026-10-31', time_zone: 'Asia/Manila' });
    expect(summary.outages).toMatchObject([
      {
        id: outageId,
        starts_at: '2026-10-05T00:00:00.000Z',
        ends_at: '2026-10-05T06:00:00.000Z',
        cause: 'network',
        cause_label: 'Network or internet down',
        notice_reference: 'EIS-INC-0042',
        declared_by: { id: people.head.id, name: 'Hector Ramos' },
        ranges: [{ route: { id: route.id, name: 'Calapan - Batangas' }, pad: { id: first.id }, from: 7001, to: 7004, qty: 4 }],
        qty: 4,
        replacements: [{ paper_number: 7001, einvoice_number: 'EI-0000101', transmitted_on: '2026-10-06' }],
        pending: 3,
      },
      { id: openOutageId, ends_at: null, cause_label: 'Power interruption', ranges: [], qty: 0, replacements: [], pending: 0 },
    ]);
    expect(summary.exceptions).toMatchObject([
      { from: 7005, to: 7005, qty: 1, state: 'open', holder: { name: 'Ana Cruz' }, decided_by: null },
      {
        from: 7053,
        to: 7055,
        qty: 3,
        state: 'justified',
        reason_code: 'outage_not_declared',
        reason_label: 'Outage happened but was not declared in time',
        reason_text: 'The network was down; the outage was not declared',
        decided_by: { id: people.accounting.id, name: 'Carla Reyes' },
      },
    ]);
    expect(summary.totals).toEqual({ outage_numbers: 4, exception_numbers: 4, total: 8, ledger_used: 8, matches: true });
    expect(await usedNumbersAt(t.db, covered, '2026-09-20', '2026-10-31')).toBe(10);
    expect(await usedNumbersAt(t.db, covered, '2026-10-05', '2026-10-05')).toBe(5);
  });

  it('when it is asked as PDF, CSV and .xlsx, then the PDF prints the outages, exceptions and the equality; the CSV and the .xlsx hold the same lines', async () => {
    const pdf = await call(people.head, 'GET', `/api/paper-use?branch_id=${covered}&${PERIOD}&format=pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^inline; filename="paper-use-summary-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const text = pdfToText(pdf.rawPayload).replace(/\s+/g, ' ');
    for (const words of [
      'SUMMARY LIST OF PAPER USED BESIDE E-INVOICING',
      'Calapan Port',
      '00012',
      'PTU-2026-0001',
      'EIS Cloud',
      `Outage #${outageId}: 05 Oct 2026 08:00 – 05 Oct 2026 14:00`,
      `Outage #${openOutageId}: 20 Oct 2026 08:00 – open`,
      'Network or internet down',
      'Hector Ramos',
      '7001-7004',
      '1 entered, 3 pending',
      '7001: EI-0000101 (06 Oct 2026)',
      'Awaiting decision',
      'Justified',
      'by Carla Reyes',
      "Outages 4 + exceptions 4 = 8 = the ledger's 8",
      'Certified true and correct:',
    ])
      expect(text).toContain(words);

    const files: Record<'csv' | 'xlsx', string[][]> = { csv: [], xlsx: [] };
    for (const format of ['csv', 'xlsx'] as const) {
      const res = await call(people.accounting, 'GET', `/api/paper-use?branch_id=${covered}&${PERIOD}&format=${format}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE);
      expect(res.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="paper-use-summary-\\d{4}-\\d{2}-\\d{2}\\.${format}"$`),
      );
      files[format] = await readExport(res.rawPayload, format);
    }
    expect(files.xlsx).toEqual(files.csv);
    const [header, ...lines] = files.csv;
    expect(header).toEqual([
      'Establishment',
      'Section',
      'Outage window',
      'Cause',
      'Declared by',
      'Route',
      'Pad',
      'From',
      'To',
      'Count',
      'Used at',
      'Holder',
      'Replacement e-invoices',
      'Pending',
      'State',
      'Decision reason',
      'Decided by',
    ]);
    const cells = (line: string[]) => Object.fromEntries(header.map((name, i) => [name, line[i]]));
    expect(lines.map((line) => [cells(line).Section, cells(line).From, cells(line).Count, cells(line).State])).toEqual([
      [`Outage #${outageId}`, '7001', '4', 'Linked'],
      [`Outage #${openOutageId}`, '', '', 'Linked'],
      ['Exception', '7005', '1', 'Open'],
      ['Exception', '7053', '3', 'Justified'],
      ['Total used during outages', '', '4', ''],
      ['Total exceptions', '', '4', ''],
      ['Total paper numbers used', '', '8', ''],
      ['Ledger: numbers used at the establishment', '', '8', ''],
    ]);
    expect(cells(lines[0])).toMatchObject({
      Establishment: 'Calapan Port (BIR branch 00012)',
      'Outage window': '05 Oct 2026 08:00 – 05 Oct 2026 14:00',
      Cause: 'Network or internet down',
      'Declared by': 'Hector Ramos',
      'Used at': '05 Oct 2026 10:00',
      Holder: 'Ana Cruz',
      'Replacement e-invoices': '7001: EI-0000101 (06 Oct 2026)',
      Pending: '3',
    });
    expect(cells(lines[3])).toMatchObject({
      'Decision reason': 'Outage happened but was not declared in time: The network was down; the outage was not declared',
    });
    expect(cells(lines[3])['Decided by']).toMatch(/^Carla Reyes, \d{2} \w{3} \d{4} \d{2}:\d{2}$/);
  });

  it('when someone outside the rules asks, then the Supervisor, another branch and role 7 are refused; a branch without e-invoicing details is a 422', async () => {
    expect((await summaryOf(people.head)).totals.total).toBe(8);
    expect((await summaryOf(people.accounting)).totals.total).toBe(8);
    for (const who of [people.supervisor, people.otherHead, people.holder])
      expect((await call(who, 'GET', `/api/paper-use?branch_id=${covered}&${PERIOD}`)).statusCode).toBe(403);
    const uncovered = await call(people.accounting, 'GET', `/api/paper-use?branch_id=${other}&${PERIOD}`);
    expect(uncovered.statusCode).toBe(422);
    expect(uncovered.json().message).toBe(SUMMARY_MSG.notEstablishment('Batangas Port'));
    const backwards = await call(people.accounting, 'GET', `/api/paper-use?branch_id=${covered}&from=2026-10-31&to=2026-10-01`);
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors.to).toEqual([SUMMARY_MSG.toBeforeFrom]);
  });
});

describe('the inventory of unused forms at go-live (issue 38)', () => {
  it("when booklets were delivered before go-live, then the inventory as of the go-live date lists each one's series with its role", async () => {
    const converted = await createRoute(t.db, { name: 'Calapan - Roxas', tin: '000-111-444' });
    await seriesOf(converted.id, 9001, 9100, 'converted');
    at('2026-09-28T09:00:00+08:00');
    await ok(call(people.custodian, 'POST', '/api/add-pad', { route_id: converted.id, series_from: 9001, series_to: 9050 }), 201);
    t.ctx.ledgerClock = undefined;
    const inventory = await ok(call(people.accounting, 'GET', `/api/unused-forms?date=2026-10-01&branch_id=${covered}`));
    const series = inventory.data.establishments[0].series.find((row: { route: { id: number } }) => row.route.id === converted.id);
    expect(series).toMatchObject({
      role: 'converted',
      qty: 50,
      registered_series: { atp_number: 'OCN-9001', form_type: 'converted_receipt' },
    });
    const csv = await call(people.accounting, 'GET', `/api/unused-forms?date=2026-10-01&branch_id=${covered}&format=csv`);
    const [header, ...rows] = await readExport(csv.rawPayload, 'csv');
    expect(header).toContain('Series role');
    expect(rows.map((row) => row[header.indexOf('Series role')])).toContain(SERIES_ROLE_LABELS.converted);
    const pdf = await call(people.accounting, 'GET', `/api/unused-forms?date=2026-10-01&branch_id=${covered}&format=pdf`);
    expect(pdfToText(pdf.rawPayload).replace(/\s+/g, ' ')).toContain(`Role: ${SERIES_ROLE_LABELS.converted}`);
  });
});
