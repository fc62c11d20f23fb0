import { parse } from 'csv-parse/sync';
import { IMPORT_MSG, MAX_IMPORT_ROWS } from '../../../shared/schemas/imports.ts';
import { loadExcel } from '../../lib/export.ts';

/** One data row of an import file: its line (1 is the header) and its cells by column name. */
export interface FileRow {
  line: number;
  cells: Record<string, string>;
}

export interface ReadFile {
  header: string[];
  rows: FileRow[];
}

/** The problem that makes a whole file unreadable (reported on line 1, column "file"). */
export class FileProblem extends Error {}

const XLSX_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const isXlsx = (fileName: string, content: Buffer) => fileName.toLowerCase().endsWith('.xlsx') || content.subarray(0, 4).equals(XLSX_MAGIC);

function toRows(table: Array<{ line: number; values: string[] }>): ReadFile {
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
  if (rows.length > MAX_IMPORT_ROWS) throw new FileProblem(IMPORT_MSG.tooManyRows);
  return { header, rows };
}

function readCsv(content: Buffer): ReadFile {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(content, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as typeof records;
  } catch (error) {
    throw new FileProblem(IMPORT_MSG.unreadable((error as Error).message));
  }
  return toRows(records.map((entry) => ({ line: entry.info.lines, values: entry.record })));
}

async function readXlsx(content: Buffer): Promise<ReadFile> {
  const { default: ExcelJS } = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch (error) {
    throw new FileProblem(IMPORT_MSG.unreadable((error as Error).message));
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new FileProblem(IMPORT_MSG.empty);
  const table: Array<{ line: number; values: string[] }> = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const values: string[] = [];
    for (let column = 1; column <= row.cellCount; column += 1) values.push(row.getCell(column).text ?? '');
    table.push({ line, values });
  });
  return toRows(table);
}

/** docs/design.md §10: a CSV (UTF-8, with or without BOM) or the first sheet of an .xlsx, told apart by name or content. */
export async function readImportFile(fileName: string, content: Buffer): Promise<ReadFile> {
  if (isXlsx(fileName, content)) return readXlsx(content);
  if (content.includes(0)) throw new FileProblem(IMPORT_MSG.fileType);
  return readCsv(content);
}

/** The template of a kind as CSV: UTF-8 with BOM, the header and one sample row (RFC 4180 quoting). */
export function templateCsv(columns: readonly string[], sample: readonly string[]): string {
  const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `\uFEFF${columns.map(quote).join(',')}\r\n${sample.map(quote).join(',')}\r\n`;
}
