import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { dateInZone } from '../src/shared/format.ts';
import { PHONE, SHOTS, adminApi, apiAs, createRoute, createUser, headOffice, uiLogin, watchConsole } from './support.ts';

/** Clicks Export and one format, and reads the downloaded file's cells (header line first). */
async function exportAs(page: Page, format: 'CSV' | 'Excel (.xlsx)'): Promise<string[][]> {
  await page.getByRole('button', { name: 'Export' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: format }).click()]);
  return readDownload(download);
}

async function readDownload(download: Download): Promise<string[][]> {
  const bytes = readFileSync(await download.path());
  if (download.suggestedFilename().endsWith('.csv')) {
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return parse(bytes.subarray(3).toString('utf8')) as string[][];
  }
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: string[][] = [];
  const sheet = workbook.worksheets[0];
  sheet.eachRow((row) => rows.push(Array.from({ length: sheet.columnCount }, (_, i) => String(row.getCell(i + 1).value ?? ''))));
  return rows;
}

test.describe('Export, Held by and invoice numbers (docs/design.md §10)', () => {
  test('when a custodian exports the filtered Inventories, then the CSV and .xlsx hold every pad of the route with the Held by column', async ({
    page,
    request,
  }) => {
    const admin = await adminApi(request);
    const route = await createRoute(admin);
    const custodian = await createUser(admin, { role_id: 3, first_name: 'Celia', last_name: 'Custodian' });
    const asCustodian = await apiAs(request, custodian.email, custodian.password);
    const first = 7_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    await asCustodian.post('add-pad', { route_id: route.id, series_from: first, series_to: first + 599 });
    const office = await headOffice(admin);
    const consoleErrors = watchConsole(page);

    await uiLogin(page, custodian.email, custodian.password);
    await page.goto(`/pads?route=${route.id}`);
    await expect(page.getByRole('columnheader', { name: 'Held by', exact: true })).toBeVisible();
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: `${first + 550}-${first + 599}` })
        .getByText(office.name),
    ).toBeVisible();
    const csv = await exportAs(page, 'CSV');
    expect(csv[0]).toEqual(['Route', 'Pad Number', 'Series Number', 'Next', 'Pad Status', 'Issuance Status', 'Held by', 'Remarks']);
    expect(csv).toHaveLength(13);
    expect(csv.slice(1).map((row) => row[1])).toEqual(['12', '11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);
    expect(new Set(csv.slice(1).map((row) => row[6]))).toEqual(new Set([office.name]));
    const xlsx = await exportAs(page, 'Excel (.xlsx)');
    expect(xlsx).toEqual(csv);
    await page.screenshot({ path: `${SHOTS}/exports-inventories-1280.png` });
    expect(consoleErrors).toEqual([]);
  });

  test('when a ticketing officer opens Inventories, then Held by starts on "My pads"; All pads shows who holds the rest', async ({
    page,
    request,
  }) => {
    const admin = await adminApi(request);
    const route = await createRoute(admin);
    const custodian = await createUser(admin, { role_id: 3 });
    const asCustodian = await apiAs(request, custodian.email, custodian.password);
    const first = 8_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    await asCustodian.post('add-pad', { route_id: route.id, series_from: first, series_to: first + 49 });
    const officer = await createUser(admin, { role_id: 7, first_name: 'Tessa', last_name: 'Teller' });
    const office = await headOffice(admin);

    await page.setViewportSize(PHONE);
    await uiLogin(page, officer.email, officer.password);
    await page.goto(`/pads?route=${route.id}`);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByRole('combobox', { name: 'Held by' })).toHaveValue('My pads');
    await expect(page.getByText('No pads')).toBeVisible();
    await page.getByRole('combobox', { name: 'Held by' }).click();
    await page.getByRole('option', { name: 'All pads' }).click();
    const card = page.getByRole('listitem').filter({ hasText: `${first}-${first + 49}` });
    await expect(card.getByText(office.name)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/exports-held-by-390.png`, fullPage: true });
  });

  test('when an admin searches Transactions for "#N", then invoice N alone is listed with its No.; the export reads back the same row', async ({
    page,
    request,
  }) => {
    const admin = await adminApi(request);
    const route = await createRoute(admin);
    const officer = await createUser(admin, { role_id: 7 });
    const asOfficer = await apiAs(request, officer.email, officer.password);
    const { data } = await asOfficer.post<{ data: { id: number } }>('create-request-invoice', { route_id: route.id, pads: 2 });
    await asOfficer.post('create-request-invoice', { route_id: route.id, pads: 1 });

    await uiLogin(page, 'admin@padtrack.test', 'Admin@12345');
    await page.goto('/invoices');
    await expect(page.getByRole('columnheader', { name: 'No.', exact: true })).toBeVisible();
    await page.getByPlaceholder('Search by branch name or pad number').fill(`#${data.id}`);
    const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole('cell').first()).toHaveText(String(data.id));
    const csv = await exportAs(page, 'CSV');
    expect(csv).toHaveLength(2);
    expect(csv[0].slice(0, 3)).toEqual(['No.', 'Transaction Type', 'Pads']);
    expect(csv[1].slice(0, 3)).toEqual([String(data.id), 'Request', '2']);
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Excel (.xlsx)' }).click()]);
    /* The installation's APP_TIMEZONE is the default, Asia/Manila: the file is named with its date, not UTC's. */
    expect(download.suggestedFilename()).toBe(`transactions-${dateInZone(new Date(), 'Asia/Manila')}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(2).getCell(1).value).toBe(data.id);
    expect(sheet.getRow(2).getCell(8).type).toBe(ExcelJS.ValueType.Date);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(workbook.getWorksheet('Filter')?.getRow(2).values).toEqual([undefined, 'Search', `#${data.id}`]);
    await page.screenshot({ path: `${SHOTS}/exports-transactions-number-1280.png` });

    await page.setViewportSize(PHONE);
    await expect(page.getByText(`Request #${data.id}`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/exports-transactions-number-390.png`, fullPage: true });
  });
});
