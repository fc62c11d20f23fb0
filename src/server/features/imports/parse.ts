import { isUtf8 } from 'node:buffer';
import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import {
  IMPORT_MSG,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_LINE_CHARS,
  MAX_IMPORT_ROWS,
  MAX_IMPORT_UNPACKED_BYTES,
  MAX_IMPORT_ZIP_ENTRIES,
} from '../../../shared/schemas/imports.ts';
import { csvText } from '../../lib/csv.ts';
import { loadExcel } from '../../lib/export.ts';
import { inflateEntry, zipEntries, ZipProblem } from '../../lib/zip.ts';

/** One data row of an import file: its line (1 is the header) and its cells by column name. */
export interface FileRow {
  line: number;
  cells: Record<string, string>;
}

export interface ReadFile {
  header: string[];
  rows: FileRow[];
}

/** The problem that makes a whole file unreadable, reported in column "file" on the line it was found (else line 1). */
export class FileProblem extends Error {
  constructor(
    message: string,
    readonly line = 1,
  ) {
    super(message);
  }
}

const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const LINE_FEED = 0x0a;

const isXlsx = (fileName: string, content: Buffer) => fileName.toLowerCase().endsWith('.xlsx') || content.subarray(0, 4).equals(XLSX_MAGIC);

type Table = Array<{ line: number; values: string[] }>;

/** Checks a line as it is read, so the reading stops at the first line beyond a limit instead of holding them all. */
function keep(table: Table, line: number, values: string[]): void {
  if (values.length > MAX_IMPORT_COLUMNS) throw new FileProblem(IMPORT_MSG.tooManyColumns(line), line);
  if (table.length > MAX_IMPORT_ROWS) throw new FileProblem(IMPORT_MSG.tooManyRows, line);
  table.push({ line, values });
}

function toRows(table: Table): ReadFile {
  const [head, ...body] = table;
  if (!head) throw new FileProblem(IMPORT_MSG.empty);
  const header = head.values.map((value) => value.trim().toLowerCase());
  const rows = body
    .filter((row) => row.values.some((value) => value.trim() !== ''))
    .map((row) => ({
      line: row.line,
      cells: Object.fromEntries(header.map((name, i) => [name, (row.values[i] ?? '').trim()])),
    }));
  if (rows.length === 0) throw new FileProblem(IMPORT_MSG.empty);
  return { header, rows };
}

/** A CSV must be UTF-8 (with or without BOM); otherwise the first line holding other bytes is named. */
function assertUtf8(content: Buffer): void {
  if (isUtf8(content)) return;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let start = 0, line = 1; start <= content.length; line += 1) {
    const end = content.indexOf(LINE_FEED, start);
    const stop = end === -1 ? content.length : end;
    try {
      decoder.decode(content.subarray(start, stop));
    } catch {
      throw new FileProblem(IMPORT_MSG.notUtf8(line), line);
    }
    start = stop + 1;
  }
}

async function readCsv(content: Buffer): Promise<ReadFile> {
  assertUtf8(content);
  const parser = Readable.from([content]).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, max_record_size: MAX_IMPORT_LINE_CHARS }),
  );
  const table: Table = [];
  try {
    // -- csv-parse's stream yields `{ record, info }` with `info: true`, which its types do not follow.
    for await (const entry of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>)
      keep(table, entry.info.lines, entry.record);
  } catch (error) {
    if (error instanceof FileProblem) throw error;
    throw new FileProblem(IMPORT_MSG.unreadable(error instanceof Error ? error.message : String(error)));
  } finally {
    parser.destroy();
  }
  return toRows(table);
}

/**
 * Before any XML is read: the zip's directory must add up to at most MAX_IMPORT_UNPACKED_BYTES, and every entry must
 * inflate to no more than it declares (checked by inflating it into nothing, one chunk at a time), so a zip bomb is
 * refused having cost a pass of the inflater and no memory. Answers the names of the workbook's parts.
 */
async function assertXlsxBounded(content: Buffer): Promise<Set<string>> {
  try {
    const entries = zipEntries(content);
    if (entries.length > MAX_IMPORT_ZIP_ENTRIES) throw new FileProblem(IMPORT_MSG.tooManyParts);
    const unpacked = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    if (unpacked > MAX_IMPORT_UNPACKED_BYTES) throw new FileProblem(IMPORT_MSG.unpackedTooLarge(unpacked));
    for (const entry of entries) await inflateEntry(content, entry);
    return new Set(entries.map((entry) => entry.name));
  } catch (error) {
    if (error instanceof ZipProblem) throw new FileProblem(IMPORT_MSG.unreadable(error.message));
    throw error;
  }
}

/**
 * ExcelJS's streaming reader (through unzipper 0.10) now and then ends its walk of the zip early: about 1 read in 300 of
 * the same file sees the first worksheet and none of the parts after it. The sheet is then read without the workbook
 * (a TypeError) or, where the shared strings come after the sheets as Excel writes them, with its texts missing. A read
 * is trusted only when the reader has seen the workbook and the shared strings the zip holds, and is tried again
 * otherwise.
 */
const XLSX_READ_TRIES = 4;

/** The first worksheet, streamed row by row (docs/design.md §1), or null when the reader skipped a part it needs. */
async function readFirstSheet(content: Buffer, parts: Set<string>): Promise<Table | null> {
  const { default: ExcelJS } = await loadExcel();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([content]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const seen = new Set<string>();
  // -- WorkbookReader is an EventEmitter (its 'entry' events are in ExcelJS's README); its types leave that out.
  (reader as unknown as EventEmitter).on('entry', (entry: { type: string }) => seen.add(entry.type));
  const complete = () => seen.has('workbook') && (seen.has('shared-strings') || !parts.has('xl/sharedStrings.xml'));
  const table: Table = [];
  try {
    for await (const sheet of reader) {
      if (!complete()) return null;
      for await (const row of sheet) {
        if (row.cellCount > MAX_IMPORT_COLUMNS) throw new FileProblem(IMPORT_MSG.tooManyColumns(row.number), row.number);
        const values: string[] = [];
        for (let column = 1; column <= row.cellCount; column += 1) values.push(row.getCell(column).text ?? '');
        keep(table, row.number, values);
      }
      break;
    }
  } catch (error) {
    if (error instanceof FileProblem) throw error;
    if (!complete()) return null;
    throw new FileProblem(IMPORT_MSG.unreadable(error instanceof Error ? error.message : String(error)));
  }
  return table;
}

/** The first worksheet of an .xlsx within the bounds, read again when the streaming reader skipped a part. */
async function readXlsx(content: Buffer): Promise<ReadFile> {
  const parts = await assertXlsxBounded(content);
  for (let tries = 1; tries <= XLSX_READ_TRIES; tries += 1) {
    const table = await readFirstSheet(content, parts);
    if (table) return toRows(table);
  }
  throw new FileProblem(IMPORT_MSG.unreadable('its workbook part could not be read'));
}

/**
 * docs/design.md §10: a CSV (UTF-8, with or without BOM) or the first sheet of an .xlsx, told apart by name or content,
 * read within MAX_IMPORT_ROWS rows of MAX_IMPORT_COLUMNS columns (and an .xlsx within MAX_IMPORT_UNPACKED_BYTES).
 */
export async function readImportFile(fileName: string, content: Buffer): Promise<ReadFile> {
  if (isXlsx(fileName, content)) return readXlsx(content);
  if (content.includes(0)) throw new FileProblem(IMPORT_MSG.fileType);
  return readCsv(content);
}

/** The template of a kind as CSV: UTF-8 with BOM, the header and one sample row (RFC 4180 quoting). */
export const templateCsv = (columns: readonly string[], sample: readonly string[]): string => csvText([columns, sample], { bom: true });
