import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { filterLines } from '../../shared/export-filter.ts';
import { dayTimeText, fullName, zoneName } from '../../shared/format.ts';
import { cellsOf, exportFileName, headersOf, sheetCellOf, type CellType, type ListColumn } from '../../shared/list-columns.ts';
import type { ExportFormat } from '../../shared/schemas/common.ts';
import { XLSX_CONTENT_TYPE } from '../../shared/schemas/responses.ts';
import { CSV_BOM, csvLine, startsLikeFormula } from './csv.ts';

/** ExcelJS takes a tenth of the server's start to load, so it loads with the first spreadsheet rather than at start. */
export const loadExcel = () => import('exceljs');

/** Hands the rows of a list on, batch by batch, to `write`; resolves when every row has been written. */
export type RowSource<Row> = (write: (rows: Row[]) => Promise<void>) => Promise<void>;

/**
 * ExcelJS writes a text cell as `t="str"` (a formula's text result); text that reads like a formula is written as an
 * inline string instead, the one cell type that is a string by definition, so no spreadsheet runs it.
 */
const xlsxCell = (value: string | number | Date) =>
  typeof value === 'string' && startsLikeFormula(value) ? { richText: [{ text: value }] } : value;

/** How a date cell reads, as the screens word a date ("05 Nov 2026") and a time ("05 Nov 2026 17:30"). */
const DATE_FORMATS: Partial<Record<CellType, string>> = { date: 'dd mmm yyyy', datetime: 'dd mmm yyyy hh:mm' };
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

/** A column's width in characters from its header and the first batch of rows, within MIN_WIDTH..MAX_WIDTH. */
function widthOf<Row>(column: ListColumn<Row>, rows: Row[]): number {
  const dateFormat = DATE_FORMATS[column.type ?? 'text'];
  const lengths = rows.map((row) => {
    const cell = sheetCellOf(column, row);
    return cell instanceof Date && dateFormat ? dateFormat.length : String(cell).length;
  });
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, column.header.length + 2, ...lengths.map((length) => length + 2)));
}

/** Who exported which list when, as the Filter sheet of the file states it. */
interface ExportMeta {
  title: string;
  filter: Array<[string, string]>;
  exportedAt: Date;
  timeZone: string;
  exportedBy: string;
}

/** "29 Nov 2026 07:30 Manila time (GMT+08:00)": the export's time with its zone, as every printed time carries it. */
function zonedTime(at: Date, timeZone: string): string {
  const offset = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return `${dayTimeText(at, timeZone)} ${zoneName(timeZone)}${offset ? ` (${offset})` : ''}`;
}

/** Writes to the stream, waiting while its buffer is full, so a slow download holds back the database cursor. */
async function writeChunk(out: PassThrough, chunk: string | Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

async function writeCsv<Row>(out: PassThrough, columns: ListColumn<Row>[], source: RowSource<Row>): Promise<void> {
  await writeChunk(out, `${CSV_BOM}${csvLine(headersOf(columns))}`);
  await source(async (rows) => {
    await writeChunk(out, rows.map((row) => csvLine(cellsOf(columns, row))).join(''));
  });
  out.end();
}

type Workbook = InstanceType<Awaited<ReturnType<typeof loadExcel>>['default']['stream']['xlsx']['WorkbookWriter']>;

/** The second sheet: the list, the filter that chose its rows, how many there are, and who exported them when. */
function writeFilterSheet(workbook: Workbook, meta: ExportMeta, rows: number): void {
  const sheet = workbook.addWorksheet('Filter');
  sheet.columns = [{ width: 16 }, { width: 48 }];
  const lines: Array<[string, string | number]> = [
    ['List', meta.title],
    ...meta.filter,
    ['Rows', rows],
    ['Exported at', zonedTime(meta.exportedAt, meta.timeZone)],
    ['Exported by', meta.exportedBy],
  ];
  for (const [label, value] of lines) {
    const row = sheet.addRow([label, xlsxCell(value)]);
    row.getCell(1).font = { bold: true };
    row.commit();
  }
  sheet.commit();
}

/**
 * The .xlsx: typed cells (numbers, dates with a date format), widths measured on the header and the first batch,
 * a frozen, filterable header row, and the Filter sheet. Rows are still written batch by batch.
 */
async function writeXlsx<Row>(out: PassThrough, columns: ListColumn<Row>[], source: RowSource<Row>, meta: ExportMeta): Promise<void> {
  const { default: ExcelJS } = await loadExcel();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(meta.title, { views: [{ state: 'frozen', ySplit: 1 }] });
  let rows = 0;
  let started = false;
  const start = (first: Row[]) => {
    sheet.columns = columns.map((column) => ({ width: widthOf(column, first) }));
    const header = sheet.addRow(headersOf(columns));
    header.font = { bold: true };
    header.commit();
    started = true;
  };
  await source(async (batch) => {
    if (!started) start(batch);
    for (const row of batch) {
      const line = sheet.addRow(columns.map((column) => xlsxCell(sheetCellOf(column, row))));
      columns.forEach((column, i) => {
        const format = DATE_FORMATS[column.type ?? 'text'];
        if (format && line.getCell(i + 1).value instanceof Date) line.getCell(i + 1).numFmt = format;
      });
      line.commit();
    }
    rows += batch.length;
    if (out.writableNeedDrain) await once(out, 'drain');
  });
  if (!started) start([]);
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: rows + 1, column: columns.length } };
  sheet.commit();
  writeFilterSheet(workbook, meta, rows);
  await workbook.commit();
}

/**
 * Answers a list's export (docs/design.md §10): every matching row, streamed as it is read (one batch in memory),
 * as a CSV (UTF-8 with BOM, RFC 4180) or .xlsx attachment with the screen's columns, named with APP_TIMEZONE's
 * date. A fault after the first bytes can no longer change the status, so it cuts the download short instead of
 * finishing a partial file.
 */
export function sendExport<Row>(
  reply: FastifyReply,
  timeZone: string,
  format: ExportFormat,
  fileBase: string,
  columns: ListColumn<Row>[],
  source: RowSource<Row>,
): FastifyReply {
  const out = new PassThrough();
  const exportedAt = new Date();
  const { request } = reply;
  const meta: ExportMeta = {
    title: fileBase,
    // -- the route validated its query against its schema; the Filter sheet only words its fields.
    filter: filterLines(request.query as Record<string, unknown>, columns),
    exportedAt,
    timeZone,
    exportedBy: request.user ? fullName(request.user) : '-',
  };
  const written = format === 'csv' ? writeCsv(out, columns, source) : writeXlsx(out, columns, source, meta);
  written.catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${exportFileName(fileBase, exportedAt, timeZone, format)}"`)
    .header('cache-control', 'private, no-store')
    .send(out);
}
