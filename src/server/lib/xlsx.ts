import type { Writable } from 'node:stream';
import { startsLikeFormula } from './csv.ts';
import { ZipWriter, type ZipEntryWriter } from './zip.ts';

/** A cell as the export hands it over: text, a number, or a zone-less date (its UTC fields are the day and time shown). */
export type SheetValue = string | number | Date;

/** How a date column reads, as the screens word a date ("05 Nov 2026") and a time ("05 Nov 2026 17:30"). */
export const DATE_FORMATS = { date: 'dd mmm yyyy', datetime: 'dd mmm yyyy hh:mm' } as const;
export type DateKind = keyof typeof DATE_FORMATS;

/** One sheet: its name, each column's width (characters) and date kind, and whether its first row is a frozen, filterable header. */
export interface SheetSpec {
  name: string;
  widths: number[];
  dates?: Array<DateKind | undefined>;
  header?: boolean;
}

/** The cell styles of styles.xml, by position: plain, bold, date, date and time. */
const STYLE = { bold: 1, date: 2, datetime: 3 } as const;
/** Text written as XML leaves out what XML 1.0 cannot hold (control characters other than tab, line feed, return). */
const NOT_XML = /[^\t\n\r\u0020-\u007e\u0080-\uffff]/g;
const XML_SPECIAL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string) => text.replace(NOT_XML, '').replace(XML_SPECIAL, (c) => ENTITIES[c]);
/** Excel's serial day of 1970-01-01 (its epoch is 1899-12-30). */
const UNIX_EPOCH_SERIAL = 25569;
const DAY_MS = 86_400_000;
const MAX_SHEET_NAME = 31;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** "A", "B", … "Z", "AA": a column's letters from its 1-based number. */
function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * One cell's XML. Text is a `str` cell, as ExcelJS wrote it; text that reads like a formula is an inline string
 * instead, the one cell type that is a string by definition, so no spreadsheet runs it.
 */
function cellXml(ref: string, value: SheetValue, dateKind: DateKind | undefined, bold: boolean): string {
  const style = bold ? ` s="${STYLE.bold}"` : '';
  if (typeof value === 'number') return `<c r="${ref}"${style}><v>${value}</v></c>`;
  if (value instanceof Date)
    return `<c r="${ref}" s="${STYLE[dateKind ?? 'date']}"><v>${UNIX_EPOCH_SERIAL + value.getTime() / DAY_MS}</v></c>`;
  if (startsLikeFormula(value)) {
    const space = /^\s|\n|\s$/.test(value) ? ' xml:space="preserve"' : '';
    return `<c r="${ref}"${style} t="inlineStr"><is><r><t${space}>${escapeXml(value)}</t></r></is></c>`;
  }
  return `<c r="${ref}"${style} t="str"><v>${escapeXml(value)}</v></c>`;
}

/** A sheet being written: rows go in order, the first `boldCells` cells of a row in bold. */
export interface SheetWriter {
  /** Adds a row to the sheet's pending XML. */
  add(cells: SheetValue[], boldCells?: number): void;
  /** Writes the pending XML out, waiting for the download. */
  flush(): Promise<void>;
  /** Ends the sheet (and its filter, which spans the rows written). */
  close(): Promise<void>;
}

const STYLES_XML = `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><numFmts count="2"><numFmt numFmtId="164" formatCode="${DATE_FORMATS.date}"/><numFmt numFmtId="165" formatCode="${DATE_FORMATS.datetime}"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/**
 * An .xlsx written to a stream as its rows come (docs/design.md §10): each sheet's XML goes row by row, a few KB at a
 * time, into the zip's deflater, and every write waits for the download, so neither a sheet nor the file is ever whole
 * in memory. Strings are written in the cells (no shared-strings table to keep until the end).
 */
export class XlsxWriter {
  private readonly zip: ZipWriter;
  private readonly sheets: string[] = [];
  private entry: ZipEntryWriter | null = null;

  constructor(
    out: Writable,
    private readonly createdAt: Date,
  ) {
    this.zip = new ZipWriter(out, createdAt);
  }

  /** Starts a sheet; a header sheet gets a frozen first row and a filter over every row. One sheet at a time. */
  async sheet(spec: SheetSpec): Promise<SheetWriter> {
    this.sheets.push(spec.name.slice(0, MAX_SHEET_NAME));
    const letters = spec.widths.map((_, i) => columnLetters(i + 1));
    const entry = await this.zip.open(`xl/worksheets/sheet${this.sheets.length}.xml`);
    this.entry = entry;
    const pane = spec.header
      ? '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/>'
      : '';
    const cols = spec.widths.map((width, i) => `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`).join('');
    let xml = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`;
    let count = 0;
    return {
      add: (cells, boldCells = 0) => {
        count += 1;
        xml += `<row r="${count}">${cells.map((cell, i) => cellXml(`${letters[i]}${count}`, cell, spec.dates?.[i], i < boldCells)).join('')}</row>`;
      },
      flush: async () => {
        const text = xml;
        xml = '';
        await entry.write(text);
      },
      close: async () => {
        xml += '</sheetData>';
        if (spec.header) xml += `<autoFilter ref="A1:${letters[letters.length - 1] ?? 'A'}${Math.max(count, 1)}"/>`;
        await entry.write(`${xml}<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`);
        await entry.close();
        this.entry = null;
      },
    };
  }

  /** Frees the deflater of a sheet left open by a failure; the file stays unfinished. */
  abort(): void {
    this.entry?.abort();
  }

  /** Writes the workbook's parts that name its sheets, and ends the file. */
  async finish(): Promise<void> {
    const add = (name: string, xml: string) => this.zip.add(name, `${XML_HEAD}${xml}`);
    const sheetTypes = this.sheets
      .map(
        (_, i) =>
          `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join('');
    await add(
      '[Content_Types].xml',
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheetTypes}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    );
    await add(
      '_rels/.rels',
      `<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="${PACKAGE_REL_NS}/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    );
    const created = `${this.createdAt.toISOString().slice(0, 19)}Z`;
    await add(
      'docProps/core.xml',
      `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>PadTrack</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${created}</dcterms:modified></cp:coreProperties>`,
    );
    const sheets = this.sheets.map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 2}"/>`).join('');
    await add('xl/workbook.xml', `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheets}</sheets></workbook>`);
    const sheetRels = this.sheets
      .map((_, i) => `<Relationship Id="rId${i + 2}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('');
    await add(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/styles" Target="styles.xml"/>${sheetRels}</Relationships>`,
    );
    await this.zip.add('xl/styles.xml', STYLES_XML);
    await this.zip.finish();
  }
}
