import { calendarDayText, monthText } from './format.ts';
import type { ListColumn } from './list-columns.ts';
import { INCIDENT_STATUS_TEXT, SEED_LOOKUPS } from './lookups.ts';

type Lookup = ReadonlyArray<readonly [number, string]>;

const named = (lookup: Lookup) => (value: unknown) => lookup.find(([id]) => id === Number(value))?.[1] ?? `#${String(value)}`;

const HOLDERS: Record<string, string> = { mine: 'Mine', branch: 'My branch' };

/**
 * The query parameters an exported list can be filtered by, each with the label and words the Filter sheet gives
 * it (docs/design.md §10), so whoever reads the file later knows which rows it holds.
 */
const FILTERS: Record<string, { label: string; words: (value: unknown) => string }> = {
  search: { label: 'Search', words: String },
  invoice_type: { label: 'Type', words: named(SEED_LOOKUPS.invoiceTypes) },
  invoice_status: { label: 'Status', words: named(SEED_LOOKUPS.invoiceStatuses) },
  issuance_status: { label: 'Issuance Status', words: named(SEED_LOOKUPS.issuanceStatuses) },
  status: { label: 'Status', words: (value) => INCIDENT_STATUS_TEXT[String(value) as keyof typeof INCIDENT_STATUS_TEXT] ?? String(value) },
  start_date: { label: 'Date from', words: (value) => calendarDayText(String(value)) },
  end_date: { label: 'Date to', words: (value) => calendarDayText(String(value)) },
  month: { label: 'Month', words: (value) => monthText(String(value)) },
  holder: { label: 'Held by', words: (value) => HOLDERS[String(value)] ?? String(value) },
  route: { label: 'Route', words: (value) => `Route #${String(value)}` },
  role: { label: 'Role', words: named(SEED_LOOKUPS.roles) },
  company_type_id: { label: 'Company Type', words: named(SEED_LOOKUPS.companyTypes) },
};

/** Paging and the file's own format say nothing about which rows are in the file. */
const NOT_FILTERS = new Set(['page', 'per_page', 'format', 'sort', 'order']);

/**
 * The filter that made an export, in words ("Status: Completed", "Date from: 01 Nov 2026", "Sorted by: Date,
 * descending"); "Filter: none" when every row the reader may see is in the file.
 */
export function filterLines<Row>(query: Record<string, unknown>, columns: ListColumn<Row>[]): Array<[string, string]> {
  const lines: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(query)) {
    if (NOT_FILTERS.has(key) || value === undefined || value === null || value === '') continue;
    const filter = FILTERS[key];
    lines.push(filter ? [filter.label, filter.words(value)] : [key, String(value)]);
  }
  if (lines.length === 0) lines.push(['Filter', 'none']);
  if (typeof query.sort === 'string') {
    const header = columns.find((column) => column.key === query.sort)?.header ?? query.sort;
    lines.push(['Sorted by', `${header}, ${query.order === 'desc' ? 'descending' : 'ascending'}`]);
  }
  return lines;
}
