import { z } from 'zod';
import { listQuery } from './common.ts';

/** docs/design.md §10: what a go-live import file holds. */
export const IMPORT_KINDS = ['pads', 'users'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The columns of each template, in order; the header row names them so. */
export const IMPORT_COLUMNS: Record<ImportKind, readonly string[]> = {
  pads: ['route', 'series_from', 'series_to', 'pad_number', 'holder', 'used', 'cancelled', 'remarks'],
  users: ['first_name', 'middle_name', 'last_name', 'email', 'role', 'branch', 'mobile'],
};

/** A sample row of each template, so the file shows the expected forms (ranges "1201-1237;1240"). */
export const IMPORT_SAMPLES: Record<ImportKind, readonly string[]> = {
  pads: ['Batangas - Calapan', '1201', '1250', '25', 'cashier@example.ph', '1201-1237;1240', '1238', 'Counter 2'],
  users: ['Maria', 'Santos', 'Reyes', 'maria.reyes@example.ph', 'Ticketing Officer', 'Batangas Port', '09171234567'],
};

/** Import files are read whole; 50,000 pad rows fit well inside. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Data rows below the header; the reading stops at the first row beyond. */
export const MAX_IMPORT_ROWS = 100_000;
/** Columns per row: the templates have 8 (pads) and 7 (users). */
export const MAX_IMPORT_COLUMNS = 50;
/** Characters of one CSV record (a line, or several when a quoted cell spans lines). */
export const MAX_IMPORT_LINE_CHARS = 100_000;
/** An .xlsx is a zip: its parts may unpack to this much in all (100,000 rows of 8 cells take about 50 MB of sheet XML). */
export const MAX_IMPORT_UNPACKED_BYTES = 64 * 1024 * 1024;
/** Parts of an .xlsx zip; a workbook of one sheet has about 10. */
export const MAX_IMPORT_ZIP_ENTRIES = 500;
/** A pad of an import may hold at most this many numbers. */
export const MAX_IMPORT_PAD_SIZE = 10_000;

export const IMPORT_MSG = {
  applied: (rows: number) => `Imported ${rows} ${rows === 1 ? 'row' : 'rows'}`,
  dryRunOk: (rows: number) => `Dry run: all ${rows} ${rows === 1 ? 'row is' : 'rows are'} valid; nothing was changed`,
  hasErrors: (errors: number) => `${errors} ${errors === 1 ? 'error' : 'errors'}: nothing was imported`,
  kind: 'Kind must be pads or users',
  dryRun: 'Dry run must be true or false',
  fileRequired: 'Choose a CSV or .xlsx file',
  fileType: 'The file must be a CSV (.csv) or an Excel workbook (.xlsx)',
  fileTooLarge: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`,
  unreadable: (reason: string) => `The file cannot be read: ${reason}`,
  empty: 'The file has no rows below its header',
  tooManyRows: `At most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows per file`,
  tooManyColumns: (line: number) => `Line ${line} has more than ${MAX_IMPORT_COLUMNS} columns`,
  notUtf8: (line: number) =>
    `The file is not UTF-8: line ${line} has characters in another encoding. Save it as "CSV UTF-8" and send it again`,
  unpackedTooLarge: (bytes: number) =>
    `The workbook unpacks to ${Math.ceil(bytes / 1024 / 1024).toLocaleString('en-US')} MB; at most ${MAX_IMPORT_UNPACKED_BYTES / 1024 / 1024} MB is read`,
  tooManyParts: `The workbook has more than ${MAX_IMPORT_ZIP_ENTRIES} parts`,
  missingColumn: (column: string) => `The header has no column "${column}"`,
  unknownColumn: (column: string) => `Unknown column "${column}"`,
  required: (column: string) => `${column} is required`,
  wholeNumber: (column: string) => `${column} must be a whole number`,
  toBeforeFrom: 'series_to must not be less than series_from',
  padTooLarge: `A pad may hold at most ${MAX_IMPORT_PAD_SIZE.toLocaleString('en-US')} numbers`,
  routeUnknown: (value: string) => `No route has the TIN or name "${value}"`,
  routeAmbiguous: (value: string) => `Several routes are named "${value}": use the TIN`,
  holderUnknown: (value: string) => `"${value}" is neither an active user's e-mail nor a branch name`,
  rangeFormat: (column: string) => `${column} must be ranges like 1201-1237;1240`,
  rangeOutside: (column: string, range: string) => `${column} ${range} is not inside the pad's series`,
  usedAndCancelled: (number: number) => `${number} is both used and cancelled`,
  overlapInFile: (line: number) => `The series overlaps the pad on line ${line}`,
  numberInFile: (line: number) => `Pad number already given on line ${line} for this route`,
  overlapStored: (number: number, series: string) => `The series overlaps pad ${number} (${series}) already stored on this route`,
  numberTaken: (number: number) => `Pad number ${number} is already used on this route`,
  emailFormat: 'email is not a valid e-mail address',
  emailTaken: 'A user with this e-mail already exists',
  emailInFile: (line: number) => `The same e-mail is on line ${line}`,
  roleUnknown: (value: string) => `No role is named "${value}"`,
  branchUnknown: (value: string) => `No branch is named "${value}"`,
  mobileFormat: 'mobile must be 11 digits',
  nameFormat: (column: string) => `${column} may contain letters and spaces only`,
} as const;

/** The text fields of POST imports (multipart, beside the file). */
export const importFieldsSchema = z.object({
  kind: z.enum(IMPORT_KINDS, { error: IMPORT_MSG.kind }),
  dry_run: z.enum(['true', 'false'], { error: IMPORT_MSG.dryRun }).transform((value) => value === 'true'),
});

/** POST imports as multipart/form-data, as /api/docs describes it: the fields above and the one file. */
export const importForm = importFieldsSchema.extend({
  file: z.string().meta({ format: 'binary', description: 'The CSV (.csv) or Excel workbook (.xlsx) filled in from the template' }),
});

export const importKindParam = z.object({ kind: z.enum(IMPORT_KINDS, { error: IMPORT_MSG.kind }) });

export const importErrorSchema = z.object({ line: z.number(), column: z.string(), message: z.string() });
export type ImportError = z.infer<typeof importErrorSchema>;

export const importTotalsSchema = z.object({
  rows: z.number(),
  ok: z.number(),
  errors: z.number(),
  pads: z.number(),
  numbers_used: z.number(),
  numbers_cancelled: z.number(),
  users: z.number(),
});
export type ImportTotals = z.infer<typeof importTotalsSchema>;

/** What each row became (or would become, in a dry run). */
export const importRowSchema = z.object({ line: z.number(), result: z.string() });

export const importResultSchema = z
  .object({
    id: z.number(),
    kind: z.enum(IMPORT_KINDS),
    dry_run: z.boolean(),
    applied: z.boolean(),
    file_name: z.string(),
    totals: importTotalsSchema,
    errors: z.array(importErrorSchema),
    rows: z.array(importRowSchema),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof importResultSchema>;

/** POST imports answers this with 200, and with 422 when the file has errors (nothing applied). */
export const importAnswer = z.object({ message: z.string(), data: importResultSchema });

export const importRowListSchema = z
  .object({
    id: z.number(),
    kind: z.enum(IMPORT_KINDS),
    dry_run: z.boolean(),
    applied: z.boolean(),
    file_name: z.string(),
    totals: importTotalsSchema,
    error_count: z.number(),
    created_by: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ImportListRow' });
export type ImportListRow = z.infer<typeof importRowListSchema>;

export const importListQuery = listQuery.extend({ kind: z.enum(IMPORT_KINDS).optional() });
