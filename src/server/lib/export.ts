import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { cellsOf, headersOf, type ListColumn } from '../../shared/list-columns.ts';
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
const xlsxCell = (value: string | number) =>
  typeof value === 'string' && startsLikeFormula(value) ? { richText: [{ text: value }] } : value;

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

async function writeXlsx<Row>(out: PassThrough, columns: ListColumn<Row>[], source: RowSource<Row>, sheetName: string): Promise<void> {
  const { default: ExcelJS } = await loadExcel();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow(headersOf(columns)).commit();
  await source(async (rows) => {
    for (const row of rows) sheet.addRow(cellsOf(columns, row).map(xlsxCell)).commit();
    if (out.writableNeedDrain) await once(out, 'drain');
  });
  sheet.commit();
  await workbook.commit();
}

/**
 * Answers a list's export (docs/design.md §10): every matching row, streamed as it is read (one batch in memory),
 * as a CSV (UTF-8 with BOM, RFC 4180) or .xlsx attachment with the screen's columns. A fault after the first
 * bytes can no longer change the status, so it cuts the download short instead of finishing a partial file.
 */
export function sendExport<Row>(
  reply: FastifyReply,
  format: ExportFormat,
  fileBase: string,
  columns: ListColumn<Row>[],
  source: RowSource<Row>,
): FastifyReply {
  const out = new PassThrough();
  const day = new Date().toISOString().slice(0, 10);
  const written = format === 'csv' ? writeCsv(out, columns, source) : writeXlsx(out, columns, source, fileBase);
  written.catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${fileBase.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-')}-${day}.${format}"`)
    .header('cache-control', 'private, no-store')
    .send(out);
}
