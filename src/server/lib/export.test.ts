import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fullName } from '../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../shared/lookups.ts';
import {
  BRANCH_LIST_COLUMNS,
  COMPANY_LIST_COLUMNS,
  LOCATION_LIST_COLUMNS,
  ROUTE_LIST_COLUMNS,
  USER_LIST_COLUMNS,
  invoiceListColumns,
  reportListColumns,
  type ListColumn,
} from '../../shared/list-columns.ts';
import { XLSX_CONTENT_TYPE } from '../../shared/schemas/responses.ts';
import { exportCells, pagesAsCells } from '../test/export.ts';
import {
  buildIssuedInvoice,
  buildPad,
  buildReport,
  createBranch,
  createCompany,
  createLocation,
  createRoute,
  createUser,
  signedIn,
} from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { inflateEntry, zipEntries } from './zip.ts';

/** OWASP CSV injection: every character a spreadsheet starts a formula or a DDE call with. */
const FORMULA_PREFIXES = ['=', '+', '-', '@', '\t', '\r'];

let t: TestApp;
let admin: Record<string, string>;
let adminName: string;

beforeAll(async () => {
  t = await createTestApp({ APP_TIMEZONE: 'Asia/Manila' });
  const signed = await signedIn(t, { role_id: 1 });
  admin = signed.headers;
  adminName = fullName(signed.user);
});
afterAll(async () => {
  await t.close();
});

async function expectExportEqualsPages<Row>(url: string, columns: ListColumn<Row>[], rows: number, headers = admin) {
  const screen = await pagesAsCells(t, url, headers, columns);
  expect(screen).toHaveLength(rows + 1);
  expect(await exportCells(t, url, headers, 'csv')).toEqual(screen);
  expect(await exportCells(t, url, headers, 'xlsx')).toEqual(await pagesAsCells(t, url, headers, columns, 'sheet'));
}

/** A list's .xlsx export asked for at `at` (the server's clock), read back with ExcelJS. */
async function workbookAt(url: string, at: string) {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(at) });
  try {
    const res = await t.app.inject({ method: 'GET', url: `${url}&format=xlsx`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    return { workbook, fileName: res.headers['content-disposition'] };
  } finally {
    vi.useRealTimers();
  }
}

describe('list exports (docs/design.md §10)', () => {
  it('when Transactions are filtered by status across three pages, then the CSV and .xlsx hold those rows only, with No. first', async () => {
    const route = await createRoute(t.db, { name: `Export Route ${Date.now()}` });
    for (let i = 0; i < 22; i += 1) await buildIssuedInvoice(t.db, { route, padCount: 1 });
    await buildIssuedInvoice(t.db, { route, padCount: 1, status: INVOICE_STATUS.IN_TRANSIT, acceptedAt: null });
    const columns = invoiceListColumns(t.ctx.config.timeZone, 'Transaction Type', true);
    const url = `/api/get-invoices?invoice_status=${INVOICE_STATUS.COMPLETED}&search=${encodeURIComponent(route.name)}`;
    await expectExportEqualsPages(url, columns, 22);
    const cells = await exportCells(t, url, admin, 'csv');
    expect(cells[0].slice(0, 2)).toEqual(['No.', 'Transaction Type']);
    expect(cells.slice(1).every((row) => row[6] === 'Completed')).toBe(true);
    const inTransit = `/api/get-in-transit-invoices?search=${encodeURIComponent(route.name)}`;
    await expectExportEqualsPages(inTransit, invoiceListColumns(t.ctx.config.timeZone, 'Invoice Type', false), 1);
  });

  it('when Transactions are exported as .xlsx at 23:30 UTC in Manila, then dates are Date cells of the Manila day, numbers are numbers, the header is frozen and filterable, widths follow the content, a Filter sheet says what made the file, and the file is named with the Manila date', async () => {
    const route = await createRoute(t.db, { name: `Sheet Route ${Date.now()} ${'Long Stretch Between Two Ports '.repeat(2)}` });
    const late = new Date('2026-11-05T20:00:00Z');
    await buildIssuedInvoice(t.db, { route, padCount: 1, createdAt: late, expectedReturnDate: '2026-12-31' });
    await buildIssuedInvoice(t.db, { route, padCount: 2, createdAt: late, expectedReturnDate: null });
    const url = `/api/get-invoices?invoice_status=${INVOICE_STATUS.COMPLETED}&search=${encodeURIComponent(route.name)}&sort=pads&order=asc`;
    const { workbook, fileName } = await workbookAt(url, '2026-11-28T23:30:00Z');

    expect(fileName).toBe('attachment; filename="transactions-2026-11-29.xlsx"');
    const sheet = workbook.getWorksheet('Transactions');
    if (!sheet) throw new Error('the workbook has no Transactions sheet');
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual(['No.', 'Transaction Type', 'Pads', 'Route', 'By', 'To', 'Status', 'Date', 'Expected Return', 'Assigned To']);
    const [first, second] = [sheet.getRow(2), sheet.getRow(3)];
    for (const column of [1, 3]) expect(first.getCell(column).type).toBe(ExcelJS.ValueType.Number);
    expect(first.getCell(3).value).toBe(1);
    expect(first.getCell(8).type).toBe(ExcelJS.ValueType.Date);
    expect(first.getCell(8).value).toEqual(new Date('2026-11-06T00:00:00Z'));
    expect(first.getCell(8).numFmt).toBe('dd mmm yyyy');
    expect(first.getCell(9).type).toBe(ExcelJS.ValueType.Date);
    expect(first.getCell(9).value).toEqual(new Date('2026-12-31T00:00:00Z'));
    expect(second.getCell(9).value).toBe('-');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:J3');
    const width = (column: number) => sheet.getColumn(column).width ?? 0;
    expect(width(4)).toBe(60);
    expect(width(8)).toBe('dd mmm yyyy'.length + 2);
    expect(width(3)).toBe(8);

    const filter = workbook.getWorksheet('Filter');
    if (!filter) throw new Error('the workbook has no Filter sheet');
    const lines = filter.getSheetValues().flatMap((row) => (Array.isArray(row) ? [row.slice(1)] : []));
    expect(lines).toEqual([
      ['List', 'Transactions'],
      ['Search', route.name.trim()],
      ['Status', 'Completed'],
      ['Sorted by', 'Pads, ascending'],
      ['Rows', 2],
      ['Exported at', '29 Nov 2026 07:30 Manila time (GMT+08:00)'],
      ['Exported by', adminName],
    ]);
  });

  it('when a requester exports Transactions, then only the invoices they may see are in the file', async () => {
    const own = await buildIssuedInvoice(t.db, { padCount: 1 });
    await buildIssuedInvoice(t.db, { padCount: 1 });
    const requester = await signedIn(t, { role_id: 7, branch_id: own.toBranch.id });
    const mine = await buildIssuedInvoice(t.db, { padCount: 1, toBranch: own.toBranch, requester: requester.user });
    const cells = await exportCells(t, `/api/get-invoices?invoice_type=${INVOICE_TYPE.ISSUED}`, requester.headers, 'csv');
    const screen = await pagesAsCells(
      t,
      `/api/get-invoices?invoice_type=${INVOICE_TYPE.ISSUED}`,
      requester.headers,
      invoiceListColumns(t.ctx.config.timeZone, 'Transaction Type', true),
    );
    expect(cells).toEqual(screen);
    expect(cells.map((row) => row[0])).toContain(String(mine.invoice.id));
  });

  it('when Users, Companies, Routes, Branches and Locations are searched across pages, then each export equals its pages', async () => {
    const tag = `Xport${Date.now() % 100000}`;
    const location = await createLocation(t.db, { name: `${tag} Port` });
    const company = await createCompany(t.db, { name: `${tag} Lines` });
    for (let i = 0; i < 12; i += 1) {
      await createLocation(t.db, { name: `${tag} Location ${i}` });
      await createCompany(t.db, { name: `${tag} Company ${i}` });
      await createRoute(t.db, { company_id: company.id, name: `${tag} Route ${i}` });
      await createBranch(t.db, { name: `${tag} Branch ${i}`, company_id: company.id, location_id: location.id });
      await createUser(t.db, { first_name: tag, last_name: `Staff`, role_id: 7 });
    }
    await expectExportEqualsPages(`/api/get-users?search=${tag}`, USER_LIST_COLUMNS, 12);
    await expectExportEqualsPages(`/api/get-companies-with-search?search=${tag}`, COMPANY_LIST_COLUMNS, 13);
    await expectExportEqualsPages(`/api/get-routes-with-search?search=${tag}&sort=name&order=asc`, ROUTE_LIST_COLUMNS, 12);
    await expectExportEqualsPages(`/api/get-branches-with-search?search=${tag}`, BRANCH_LIST_COLUMNS, 12);
    await expectExportEqualsPages(`/api/get-locations-with-search?search=${tag}`, LOCATION_LIST_COLUMNS, 13);
  });

  it('when saved Reports are searched across pages, then the export equals the pages with the Reports columns', async () => {
    const generator = await createUser(t.db, { first_name: 'Reina', last_name: 'Reporter' });
    for (let i = 0; i < 13; i += 1)
      await buildReport(t.db, generator.id, { number: `RPT-XP-${String(i).padStart(3, '0')}`, total_invoice: i });
    await expectExportEqualsPages('/api/reports?search=RPT-XP', reportListColumns(t.ctx.config.timeZone), 13);
    const cells = await exportCells(t, '/api/reports?search=RPT-XP&sort=number&order=asc', admin, 'csv');
    expect(cells[0]).toEqual(['Report No.', 'Total Invoice', 'Generated by', 'Date']);
    expect(cells[1].slice(0, 3)).toEqual(['RPT-XP-000', '0', 'Reina Reporter']);
  });

  it('when a first name, pad remarks, a location, company or route name begins like a formula, then every CSV cell of it starts with a quote', async () => {
    const tag = `Inject${Date.now() % 100000}`;
    const payload = (prefix: string) => `${prefix}HYPERLINK("http://evil.test/${tag}","x")`;
    const company = await createCompany(t.db, { name: `${tag} Lines` });
    const route = await createRoute(t.db, { company_id: company.id, name: `${tag} Route` });
    for (const prefix of FORMULA_PREFIXES) {
      await createUser(t.db, { first_name: payload(prefix), last_name: tag, role_id: 7 });
      await buildPad(t.db, { route_id: route.id, remarks: payload(prefix) });
      await createLocation(t.db, { name: payload(prefix) });
      await createCompany(t.db, { name: payload(prefix) });
      await createRoute(t.db, { company_id: company.id, name: payload(prefix) });
    }
    const lists = [
      `/api/get-users?search=${tag}`,
      `/api/get-pads?route_id=${route.id}`,
      `/api/get-locations-with-search?search=${tag}`,
      `/api/get-companies-with-search?search=${tag}`,
      `/api/get-routes-with-search?search=${tag}`,
    ];
    for (const url of lists) {
      const res = await t.app.inject({ method: 'GET', url: `${url}&format=csv`, headers: admin });
      expect(res.statusCode, url).toBe(200);
      for (const prefix of FORMULA_PREFIXES)
        expect(res.body, `${url} ${JSON.stringify(prefix)}`).toContain(`"'${payload(prefix).replaceAll('"', '""')}"`);
      const cells = (await exportCells(t, url, admin, 'csv')).flat().filter((cell) => cell.includes('evil.test'));
      expect(cells.sort(), url).toEqual(FORMULA_PREFIXES.map((prefix) => `'${payload(prefix)}`).sort());
    }
    const stored = (await pagesAsCells(t, `/api/get-users?search=${tag}`, admin, USER_LIST_COLUMNS)).slice(1).map((row) => row[0]);
    expect(stored.sort()).toEqual(FORMULA_PREFIXES.map(payload).sort());
  });

  it('when such a text is exported as .xlsx, then it is an inline string cell holding the text unchanged, never a formula', async () => {
    const tag = `Sheet${Date.now() % 100000}`;
    const payload = (prefix: string) => `${prefix}HYPERLINK("http://evil.test/${tag}","x")`;
    for (const prefix of FORMULA_PREFIXES) await createLocation(t.db, { name: payload(prefix) });
    await createLocation(t.db, { name: `-${tag}` });
    const res = await t.app.inject({ method: 'GET', url: `/api/get-locations-with-search?search=${tag}&format=xlsx`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    const zip = res.rawPayload;
    const sheet = zipEntries(zip).find((entry) => entry.name === 'xl/worksheets/sheet1.xml');
    if (!sheet) throw new Error('the workbook has no sheet1.xml');
    const chunks: Buffer[] = [];
    await inflateEntry(zip, sheet, (chunk) => chunks.push(chunk));
    const xml = Buffer.concat(chunks).toString('utf8');
    expect(xml).not.toMatch(/<f[ >]/);
    expect(xml.match(/t="inlineStr"/g)).toHaveLength(FORMULA_PREFIXES.length + 1);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(zip as unknown as ArrayBuffer);
    const sheetRead = workbook.worksheets[0];
    const read = Array.from({ length: sheetRead.rowCount - 1 }, (_, i) => sheetRead.getCell(i + 2, 1));
    expect(read.every((cell) => cell.formula === undefined && cell.type === ExcelJS.ValueType.RichText)).toBe(true);
    // XML reads a bare carriage return as a line feed, so the text that began with one comes back beginning with \n.
    const expected = [...FORMULA_PREFIXES.map(payload), `-${tag}`].map((text) => text.replace(/^\r/, '\n'));
    expect(read.map((cell) => cell.text).sort()).toEqual(expected.sort());
  });

  it('when a role without the Users screen asks for its export, then 403 and no file', async () => {
    const staff = await signedIn(t, { role_id: 7 });
    const res = await t.app.inject({ method: 'GET', url: '/api/get-users?format=csv', headers: staff.headers });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-disposition']).toBeUndefined();
  });
});
