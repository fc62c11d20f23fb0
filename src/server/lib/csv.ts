/** A cell a spreadsheet reads as a formula or a DDE call starts so (OWASP "CSV Injection"): = + - @, tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text a spreadsheet reads as a plain number (or the lone "-" of an empty column) runs nothing, so it is left as it is. */
const INERT = /^(-|[+-]?\d+(\.\d+)?)$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** The byte-order mark that tells spreadsheet programs a CSV is UTF-8. */
export const CSV_BOM = '\uFEFF';

/** True when a text would run as a formula in a spreadsheet; the .xlsx writer stores such text as an explicit string. */
export const startsLikeFormula = (text: string): boolean => FORMULA_START.test(text) && !INERT.test(text);

/**
 * One CSV cell (RFC 4180, quotes doubled), the only CSV encoding of the server: every export, the RAAF, the unused-forms
 * inventory and the import templates write through it, so user-typed text (a name, remarks) never runs as a formula in
 * the spreadsheet that opens the file. Such text gets a leading `'` and quotes; a number stays a number, negative too.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  if (startsLikeFormula(value)) return `"'${value.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One CSV line, CRLF-terminated as RFC 4180 writes it. */
export const csvLine = (cells: ReadonlyArray<string | number>): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A whole CSV file, optionally with the UTF-8 byte-order mark first. */
export const csvText = (lines: ReadonlyArray<ReadonlyArray<string | number>>, options: { bom: boolean }): string =>
  `${options.bom ? CSV_BOM : ''}${lines.map(csvLine).join('')}`;
