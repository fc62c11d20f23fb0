import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { dayText, dayTimeText } from '../../shared/format.ts';
import { cellsOf, headersOf, sheetCellOf, type ListColumn } from '../../shared/list-columns.ts';
import { XLSX_CONTENT_TYPE } from '../../shared/schemas/responses.ts';
import type { TestApp } from './test-app.ts';

type Headers = Record<string, string>;

/** A spreadsheet cell as the screens word it: a date cell's zone-less day (and time) as dayText (dayTimeText) writes it. */
const wordedCell = (value: ExcelJS.CellValue, numFmt: string | undefined): string => {
  if (value instanceof Date) return numFmt?.includes('hh') ? dayTimeText(value, 'UTC') : dayText(value, 'UTC');
  return String(value ?? '');
};

/** The cells of an exported file (header line first), read back as a spreadsheet program would. */
export async function readExport(body: Buffer, format: 'csv' | 'xlsx'): Promise<string[][]> {
  if (format === 'csv') {
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // -- csv-parse without `columns` answers rows of strings.
    return parse(body.subarray(3).toString('utf8'), { relax_column_count: false }) as string[][];
  }
  const workbook = new ExcelJS.Workbook();
  // -- the export is a Buffer; exceljs wants an ArrayBuffer and reads a Buffer alike.
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    rows.push(
      Array.from({ length: sheet.columnCount }, (_, i) => {
        const cell = row.getCell(i + 1);
        return wordedCell(cell.value, cell.numFmt);
      }),
    );
  });
  return rows;
}

/**
 * Every page of a JSON list, as the screen's columns word its rows, or (`as` sheet) as the .xlsx holds them: a date
 * column its date, where the screen may word it otherwise (Expected Return "14 days").
 */
export async function pagesAsCells<Row>(
  t: TestApp,
  url: string,
  headers: Headers,
  columns: ListColumn<Row>[],
  as: 'screen' | 'sheet' = 'screen',
): Promise<string[][]> {
  const worded = (row: Row) =>
    as === 'screen'
      ? cellsOf(columns, row).map(String)
      : columns.map((column) => {
          const cell = sheetCellOf(column, row);
          return wordedCell(cell, column.type === 'datetime' ? 'hh' : undefined);
        });
  const cells: string[][] = [headersOf(columns)];
  for (let page = 1; ; page += 1) {
    const res = await t.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}page=${page}&per_page=10`, headers });
    expect(res.statusCode, res.body).toBe(200);
    // -- the list route's answer; its response schema fixes this shape.
    const body = res.json() as { data: Row[]; last_page: number };
    cells.push(...body.data.map(worded));
    if (page >= body.last_page) return cells;
  }
}

/** The export of a list in one format: checks it is an attachment of the right type and reads its cells. */
export async function exportCells(t: TestApp, url: string, headers: Headers, format: 'csv' | 'xlsx'): Promise<string[][]> {
  const res = await t.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}format=${format}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe(format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE);
  expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="[a-z0-9-]+\\.${format}"$`));
  return readExport(res.rawPayload, format);
}
