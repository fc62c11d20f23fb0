import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t, { role_id: 1 })).headers;
});
afterAll(async () => {
  await t.close();
});

async function expectExportEqualsPages<Row>(url: string, columns: ListColumn<Row>[], rows: number, headers = admin) {
  const screen = await pagesAsCells(t, url, headers, columns);
  expect(screen).toHaveLength(rows + 1);
  expect(await exportCells(t, url, headers, 'csv')).toEqual(screen);
  expect(await exportCells(t, url, headers, 'xlsx')).toEqual(screen);
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
