import { INCIDENT_STATUS_TEXT } from './lookups.ts';
import { dateInZone, dayText, dayTimeText, monthText, routeLabel, zonedFormat } from './format.ts';
import type { InvoiceRow } from './schemas/invoices.ts';
import type { Pad } from './schemas/pads.ts';
import type { AdminUser } from './schemas/users.ts';
import type { Branch } from './schemas/branches.ts';
import type { Company } from './schemas/companies.ts';
import type { Location } from './schemas/locations.ts';
import type { Route } from './schemas/routes.ts';
import type { ReportRow } from './schemas/reports.ts';
import type { RaafCertificate } from './schemas/ledger.ts';
import type { IncidentRow } from './schemas/incidents.ts';

/** What a cell is in a spreadsheet: text, a number, a calendar date, or a date with its clock time. */
export type CellType = 'text' | 'number' | 'date' | 'datetime';

/**
 * One column of a list as the screen shows it and the export writes it (docs/design.md §10: same columns, same
 * wording): the key the screen sorts by, the header, and the cell's text. `type` says what the .xlsx cell is (text
 * when absent); a date or datetime column's `at` gives its APP_TIMEZONE calendar date ("2026-11-05") or wall-clock
 * time ("2026-11-05T17:30"), null when the row has none.
 */
export interface ListColumn<Row> {
  key: string;
  header: string;
  text: (row: Row) => string | number;
  type?: CellType;
  at?: (row: Row) => string | null;
}

const WALL_CLOCK: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23' };

/** An instant's wall-clock time in a zone, "2026-11-05T17:30", as a spreadsheet keeps a time (it knows no zones). */
export function wallClockInZone(instant: string, timeZone: string): string {
  return zonedFormat('sv-SE', WALL_CLOCK, timeZone).format(new Date(instant)).replace(' ', 'T');
}

const dayOf = (instant: string | null | undefined, timeZone: string) => (instant ? dateInZone(new Date(instant), timeZone) : null);
const clockOf = (instant: string | null | undefined, timeZone: string) => (instant ? wallClockInZone(instant, timeZone) : null);

/** The fields of a pad the Inventories list shows; the export reads only these. */
export type PadListRow = Pick<
  Pad,
  'id' | 'route' | 'number' | 'series_number' | 'next_number' | 'pad_status' | 'issuance_status' | 'remarks' | 'held_by'
>;

/** docs/spec.md §2 Inventories columns (Actions are the screen's own). */
export const PAD_LIST_COLUMNS: ListColumn<PadListRow>[] = [
  { key: 'route', header: 'Route', text: (pad) => routeLabel(pad.route) },
  { key: 'number', header: 'Pad Number', type: 'number', text: (pad) => pad.number },
  { key: 'series', header: 'Series Number', text: (pad) => pad.series_number },
  { key: 'next', header: 'Next', type: 'number', text: (pad) => pad.next_number ?? 'none left' },
  { key: 'pad_status', header: 'Pad Status', text: (pad) => pad.pad_status.name },
  { key: 'issuance_status', header: 'Issuance Status', text: (pad) => pad.issuance_status.name },
  { key: 'held_by', header: 'Held by', text: (pad) => pad.held_by },
  { key: 'remarks', header: 'Remarks', text: (pad) => pad.remarks ?? '' },
];

/**
 * The invoice list columns in the spec's order (No., Type, Pads, Route, By, To, Status, Date, Expected Return,
 * Assigned To); a screen leaves out the type column (`typeHeader` null) or Expected Return. Dates in `timeZone`.
 */
export function invoiceListColumns(timeZone: string, typeHeader: string | null, withExpectedReturn: boolean): ListColumn<InvoiceRow>[] {
  const columns: Array<ListColumn<InvoiceRow> | null> = [
    { key: 'id', header: 'No.', type: 'number', text: (r) => r.id },
    typeHeader ? { key: 'type', header: typeHeader, text: (r) => r.invoice_type.name } : null,
    { key: 'pads', header: 'Pads', type: 'number', text: (r) => r.pads },
    { key: 'route', header: 'Route', text: (r) => r.route_label },
    { key: 'by', header: 'By', text: (r) => r.by },
    { key: 'to', header: 'To', text: (r) => r.to },
    { key: 'status', header: 'Status', text: (r) => r.invoice_status.name },
    { key: 'date', header: 'Date', type: 'date', text: (r) => dayText(r.created_at, timeZone), at: (r) => dayOf(r.created_at, timeZone) },
    withExpectedReturn
      ? { key: 'expected', header: 'Expected Return', type: 'date', text: (r) => r.expected_return_text, at: (r) => r.expected_return_date }
      : null,
    { key: 'assigned', header: 'Assigned To', text: (r) => r.assigned_to ?? '-' },
  ];
  return columns.filter((c): c is ListColumn<InvoiceRow> => c !== null);
}

/** docs/spec.md §2 Users columns. */
export const USER_LIST_COLUMNS: ListColumn<AdminUser>[] = [
  { key: 'first_name', header: 'First Name', text: (r) => r.first_name },
  { key: 'last_name', header: 'Last Name', text: (r) => r.last_name },
  { key: 'email', header: 'Email', text: (r) => r.email },
  { key: 'role', header: 'Role', text: (r) => r.role?.name ?? '-' },
  { key: 'branch', header: 'Branch', text: (r) => r.branch?.name ?? '-' },
  { key: 'status', header: 'Status', text: (r) => r.status?.name ?? '-' },
];

/** docs/spec.md §2 Companies columns. */
export const COMPANY_LIST_COLUMNS: ListColumn<Company>[] = [
  { key: 'name', header: 'Name', text: (r) => r.name },
  { key: 'type', header: 'Company Type', text: (r) => r.company_type.name },
];

/** docs/spec.md §2 Routes columns. */
export const ROUTE_LIST_COLUMNS: ListColumn<Route>[] = [
  { key: 'company', header: 'Company', text: (r) => r.company.name },
  { key: 'name', header: 'Name', text: (r) => r.name },
  { key: 'tin', header: 'TIN', text: (r) => r.tin },
];

/** docs/spec.md §2 Branches/Agencies columns. */
export const BRANCH_LIST_COLUMNS: ListColumn<Branch>[] = [
  { key: 'company', header: 'Company', text: (r) => r.company.name },
  { key: 'name', header: 'Name', text: (r) => r.name },
  { key: 'location', header: 'Location', text: (r) => r.location.name },
];

/** docs/spec.md §2 Locations columns. */
export const LOCATION_LIST_COLUMNS: ListColumn<Location>[] = [{ key: 'name', header: 'Name', text: (r) => r.name }];

/** The fields of a saved report the Reports list shows. */
export type ReportListRow = Omit<ReportRow, 'data'>;

/** docs/spec.md §2 Reports columns; dates in `timeZone`. */
export const reportListColumns = (timeZone: string): ListColumn<ReportListRow>[] => [
  { key: 'number', header: 'Report No.', text: (r) => r.number },
  { key: 'total', header: 'Total Invoice', type: 'number', text: (r) => r.total_invoice },
  { key: 'by', header: 'Generated by', text: (r) => r.generated_by_user.full_name },
  { key: 'date', header: 'Date', type: 'date', text: (r) => dayText(r.created_at, timeZone), at: (r) => dayOf(r.created_at, timeZone) },
];

/** The Accountability certificates list columns; times in `timeZone`. */
export const certificateListColumns = (timeZone: string): ListColumn<RaafCertificate>[] => [
  { key: 'number', header: 'Certificate No.', text: (c) => c.number },
  { key: 'month', header: 'Month', text: (c) => monthText(c.month) },
  { key: 'holder', header: 'Holder', text: (c) => c.holder.name },
  { key: 'ending', header: 'Ending', type: 'number', text: (c) => c.totals.ending },
  { key: 'certified', header: 'Certified', text: (c) => `${dayTimeText(c.certified_at, timeZone)} by ${c.certified_by.full_name}` },
  {
    key: 'reviewed',
    header: 'Reviewed',
    text: (c) => (c.reviewed_at ? `${dayTimeText(c.reviewed_at, timeZone)} by ${c.reviewed_by?.full_name ?? '-'}` : '-'),
  },
  { key: 'state', header: 'State', text: (c) => (c.reviewed_at ? 'Reviewed' : 'Certified') },
];

/** The Incidents list columns (docs/design.md §9); times in `timeZone`. */
export const incidentListColumns = (timeZone: string): ListColumn<IncidentRow>[] => [
  { key: 'number', header: 'Incident No.', text: (r) => r.number },
  { key: 'status', header: 'Status', text: (r) => INCIDENT_STATUS_TEXT[r.status] },
  { key: 'pads', header: 'Pads and Numbers', text: (r) => r.summary },
  { key: 'qty', header: 'Quantity', type: 'number', text: (r) => r.qty },
  { key: 'place', header: 'Place', text: (r) => r.place },
  {
    key: 'occurred_at',
    header: 'Approx. Date and Time',
    type: 'datetime',
    text: (r) => dayTimeText(r.occurred_at, timeZone),
    at: (r) => clockOf(r.occurred_at, timeZone),
  },
  { key: 'reported_by', header: 'Reported By', text: (r) => r.reported_by.full_name },
];

/** An export's file name, "transactions-2026-11-29.xlsx": the list and APP_TIMEZONE's date, the same on the server and the web. */
export const exportFileName = (fileBase: string, at: Date, timeZone: string, format: string) =>
  `${fileBase.toLowerCase().replaceAll(/[^a-z0-9]+/g, '-')}-${dateInZone(at, timeZone)}.${format}`;

/** The header line of a list's export. */
export const headersOf = <Row>(columns: ListColumn<Row>[]) => columns.map((column) => column.header);

/** The cells of one row as the screen and the CSV word them. */
export const cellsOf = <Row>(columns: ListColumn<Row>[], row: Row) => columns.map((column) => column.text(row));

/**
 * A cell as a spreadsheet keeps it: a number stays a number (text such as "none left" stays text), a date is a zone-less Date whose UTC fields are
 * APP_TIMEZONE's calendar (and clock) so the sheet shows the day the screen shows; a row without a date keeps its text.
 */
export function sheetCellOf<Row>(column: ListColumn<Row>, row: Row): string | number | Date {
  const text = column.text(row);
  if (column.type !== 'date' && column.type !== 'datetime') return text;
  const at = column.at?.(row);
  return at ? new Date(`${at.length === 10 ? `${at}T00:00` : at.slice(0, 16)}:00Z`) : text;
}
