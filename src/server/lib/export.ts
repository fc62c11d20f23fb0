import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { filterLines } from '../../shared/export-filter.ts';
import { dayTimeText, fullName, zonedFormat, zoneName } from '../../shared/format.ts';
import { cellsOf, exportFileName, headersOf, sheetCellOf, type ListColumn } from '../../shared/list-columns.ts';
import type { ExportFormat } from '../../shared/schemas/common.ts';
import { XLSX_CONTENT_TYPE } from '../../shared/schemas/responses.ts';
import type { AppContext } from '../context.ts';
import type { AuthUser } from './auth.ts';
import { CSV_BOM, csvLine } from './csv.ts';
import { DATE_FORMATS, XlsxWriter, type DateKind, type SheetWriter } from './xlsx.ts';
import { writeText, writeWithBackpressure } from './zip.ts';

/** ExcelJS (the imports read spreadsheets with it) takes a tenth of the server's start to load, so it loads with the first upload. */
export const loadExcel = () => import('exceljs');

/** Hands the rows of a list on, batch by batch, to `write`; resolves when every row has been written. */
export type RowSource<Row> = (write: (rows: Row[]) => Promise<void>) => Promise<void>;

const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

const dateKindOf = <Row>(column: ListColumn<Row>): DateKind | undefined =>
  column.type === 'date' || column.type === 'datetime' ? column.type : undefined;

/** A column's width in characters from its header and the first batch of rows, within MIN_WIDTH..MAX_WIDTH. */
function widthOf<Row>(column: ListColumn<Row>, rows: Row[]): number {
  const dateKind = dateKindOf(column);
  const lengths = rows.map((row) => {
    const cell = sheetCellOf(column, row);
    return cell instanceof Date && dateKind ? DATE_FORMATS[dateKind].length : String(cell).length;
  });
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, column.header.length + 2, ...lengths.map((length) => length + 2)));
}

/** Who exported which list when, as the Filter sheet of the file states it. */
export interface ExportMeta {
  title: string;
  filter: Array<[string, string]>;
  exportedAt: Date;
  timeZone: string;
  exportedBy: string;
}

const ZONE_OFFSET: Intl.DateTimeFormatOptions = { timeZoneName: 'longOffset' };

/** "29 Nov 2026 07:30 Manila time (GMT+08:00)": the export's time with its zone, as every printed time carries it. */
function zonedTime(at: Date, timeZone: string): string {
  const offset = zonedFormat('en-US', ZONE_OFFSET, timeZone)
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return `${dayTimeText(at, timeZone)} ${zoneName(timeZone)}${offset ? ` (${offset})` : ''}`;
}

/** Each batch becomes its text at once (its rows die young), which goes out a few KB at a time (lib/zip.ts writeText). */
async function writeCsv<Row>(out: Writable, columns: ListColumn<Row>[], source: RowSource<Row>): Promise<void> {
  const write = (piece: string) => writeWithBackpressure(out, piece);
  await write(`${CSV_BOM}${csvLine(headersOf(columns))}`);
  await source((rows) => writeText(write, rows.map((row) => csvLine(cellsOf(columns, row))).join('')));
  out.end();
}

/**
 * The .xlsx: typed cells (numbers, dates with a date format), widths measured on the header and the first batch,
 * a frozen, filterable header row, and the Filter sheet: the list, the filter that chose its rows, how many there
 * are, and who exported them when. The sheet is written row by row as the batches come (lib/xlsx.ts).
 */
async function writeXlsx<Row>(out: Writable, columns: ListColumn<Row>[], source: RowSource<Row>, meta: ExportMeta): Promise<void> {
  const workbook = new XlsxWriter(out, meta.exportedAt);
  try {
    let sheet: SheetWriter | null = null;
    const open = async (first: Row[]) => {
      const widths = columns.map((column) => widthOf(column, first));
      const opened = await workbook.sheet({ name: meta.title, widths, dates: columns.map(dateKindOf), header: true });
      opened.add(headersOf(columns), columns.length);
      return opened;
    };
    let rows = 0;
    await source(async (batch) => {
      sheet ??= await open(batch);
      for (const row of batch) sheet.add(columns.map((column) => sheetCellOf(column, row)));
      rows += batch.length;
      await sheet.flush();
    });
    sheet ??= await open([]);
    await sheet.close();
    const filter = await workbook.sheet({ name: 'Filter', widths: [16, 48] });
    const lines: Array<[string, string | number]> = [
      ['List', meta.title],
      ...meta.filter,
      ['Rows', rows],
      ['Exported at', zonedTime(meta.exportedAt, meta.timeZone)],
      ['Exported by', meta.exportedBy],
    ];
    for (const line of lines) filter.add(line, 1);
    await filter.close();
    await workbook.finish();
  } catch (error) {
    workbook.abort();
    throw error;
  }
}

/** Writes a list's file into `out` and ends it: in this process, or in an export worker (src/server/exports/worker.ts). */
export function writeExport<Row>(
  out: Writable,
  format: ExportFormat,
  columns: ListColumn<Row>[],
  source: RowSource<Row>,
  meta: ExportMeta,
): Promise<void> {
  return format === 'csv' ? writeCsv(out, columns, source) : writeXlsx(out, columns, source, meta);
}

/** A feature's list export: its name in src/server/exports/registry.ts, its file's name, its columns and its rows. */
interface ListExportSpec<Query, Row> {
  kind: string;
  fileBase: string;
  columns(timeZone: string): ListColumn<Row>[];
  /** The rows the actor may see for this query, as the list's screen shows them. */
  source(ctx: AppContext, actor: AuthUser, query: Query): RowSource<Row>;
}

/** A list export as the route and an export worker both use it, whatever its rows' type. */
export interface ListExport<Query> {
  readonly kind: string;
  readonly fileBase: string;
  filterLines(query: Record<string, unknown>, timeZone: string): Array<[string, string]>;
  write(out: Writable, format: ExportFormat, ctx: AppContext, actor: AuthUser, query: Query, meta: ExportMeta): Promise<void>;
}

/** One definition of a list's file, so the route's in-process path and an export worker cannot write different files. */
export const listExport = <Query, Row>(spec: ListExportSpec<Query, Row>): ListExport<Query> => ({
  kind: spec.kind,
  fileBase: spec.fileBase,
  filterLines: (query, timeZone) => filterLines(query, spec.columns(timeZone)),
  write: (out, format, ctx, actor, query, meta) =>
    writeExport(out, format, spec.columns(meta.timeZone), spec.source(ctx, actor, query), meta),
});

/** What an export worker is given: plain data only (the route validated `query` against its schema). */
export interface ExportJob {
  kind: string;
  format: ExportFormat;
  actor: AuthUser;
  query: unknown;
  meta: ExportMeta;
}

/** The export workers of an app on PostgreSQL (src/server/exports/workers.ts). */
export interface ExportWorkers {
  /** The file's bytes as a worker writes them; destroying the stream stops the worker. Null when all workers are busy. */
  start(job: ExportJob, log: FastifyBaseLogger): Readable | null;
}

export const EXPORTS_BUSY = 'Other exports are being prepared right now. Please try again in a minute.';
const EXPORTS_BUSY_RETRY_SECONDS = '30';

function attachment(reply: FastifyReply, format: ExportFormat, fileBase: string, exportedAt: Date, timeZone: string): FastifyReply {
  return reply
    .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${exportFileName(fileBase, exportedAt, timeZone, format)}"`)
    .header('cache-control', 'private, no-store');
}

function failed(log: FastifyBaseLogger, out: PassThrough, error: unknown): void {
  log.error({ err: error }, 'export failed');
  out.destroy(error instanceof Error ? error : new Error(String(error)));
}

/**
 * Answers a list's export as sendExport does. On PostgreSQL the file is written by a worker thread with a connection of
 * its own (src/server/exports/workers.ts), so what the export grew in the heap goes away with the worker instead of
 * staying in this process until V8's next full collection (issue 39); on PGlite's one in-process database it is written
 * here. When every worker is busy the answer is a 503 with Retry-After.
 */
export function sendListExport<Query>(
  reply: FastifyReply,
  ctx: AppContext,
  format: ExportFormat,
  list: ListExport<Query>,
  actor: AuthUser,
  query: Query,
): FastifyReply {
  const { timeZone } = ctx.config;
  const exportedAt = new Date();
  const meta: ExportMeta = {
    title: list.fileBase,
    // -- the route validated its query against its schema; the Filter sheet only words its fields.
    filter: list.filterLines(reply.request.query as Record<string, unknown>, timeZone),
    exportedAt,
    timeZone,
    exportedBy: fullName(actor),
  };
  let body: Readable;
  if (ctx.exportWorkers) {
    const written = ctx.exportWorkers.start({ kind: list.kind, format, actor, query, meta }, reply.log);
    if (!written) return reply.status(503).header('retry-after', EXPORTS_BUSY_RETRY_SECONDS).send({ message: EXPORTS_BUSY });
    body = written;
  } else {
    const out = new PassThrough();
    list.write(out, format, ctx, actor, query, meta).catch((error: unknown) => failed(reply.log, out, error));
    body = out;
  }
  return attachment(reply, format, list.fileBase, exportedAt, timeZone).send(body);
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
  writeExport(out, format, columns, source, meta).catch((error: unknown) => failed(reply.log, out, error));
  return attachment(reply, format, fileBase, exportedAt, timeZone).send(out);
}
