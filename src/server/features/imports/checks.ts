import { EMAIL_PATTERN } from '../../../shared/email-pattern.ts';
import { numberRange } from '../../../shared/format.ts';
import { LETTERS_AND_SPACES, MOBILE_PATTERN } from '../../../shared/schemas/common.ts';
import { MAX_ID } from '../../../shared/schemas/fields.ts';
import { IMPORT_MSG, MAX_IMPORT_PAD_SIZE, type ImportError } from '../../../shared/schemas/imports.ts';
import type { AppContext } from '../../context.ts';
import type { OpeningPadRow } from '../pads/lifecycle.ts';
import { overlappingPads, takenPadNumbers } from '../pads/read-model.ts';
import type { FileRow } from './parse.ts';
import * as repo from './repo.ts';

const MAX_SERIES = 999_999_999_999_999;

type Ranges = Array<[number, number]>;

/** A file's rows that passed, every error (line and column), and the line-by-line outcome shown to the user. */
export interface Checked<T> {
  rows: Array<T & { line: number }>;
  errors: ImportError[];
  results: Array<{ line: number; result: string }>;
}

const lower = (value: string) => value.trim().toLowerCase();
/** How many numbers the ranges hold. */
export const qtyOf = (ranges: Ranges) => ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);

/** "1201-1237;1240" as ranges; null when it is not so written. Commas separate as well as semicolons. */
export function parseRangeList(text: string): Ranges | null {
  if (text.trim() === '') return [];
  const ranges: Ranges = [];
  for (const part of text.split(/[;,]/)) {
    const match = /^\s*(\d{1,15})\s*(?:-\s*(\d{1,15})\s*)?$/.exec(part);
    if (!match) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) return null;
    ranges.push([from, to]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

function wholeNumber(row: FileRow, column: string, errors: ImportError[], max: number): number | null {
  const value = row.cells[column] ?? '';
  if (value === '') {
    errors.push({ line: row.line, column, message: IMPORT_MSG.required(column) });
    return null;
  }
  if (!/^\d{1,15}$/.test(value) || Number(value) > max) {
    errors.push({ line: row.line, column, message: IMPORT_MSG.wholeNumber(column) });
    return null;
  }
  return Number(value);
}

/** The names a pad row's route and holder are resolved from, read once for the whole file. */
interface PadKeys {
  routesByTin: Map<string, repo.RouteKey>;
  routesByName: Map<string, repo.RouteKey[]>;
  branches: Map<string, { id: number; name: string }>;
  people: Map<string, { id: number; branch_id: number | null }>;
}

async function padKeys(ctx: AppContext, fileRows: FileRow[]): Promise<PadKeys> {
  const routesByTin = new Map<string, repo.RouteKey>();
  const routesByName = new Map<string, repo.RouteKey[]>();
  for (const route of await repo.routeKeys(ctx.db)) {
    routesByTin.set(lower(route.tin), route);
    routesByName.set(lower(route.name), [...(routesByName.get(lower(route.name)) ?? []), route]);
  }
  const branches = new Map((await repo.branchKeys(ctx.db)).map((branch) => [lower(branch.name), branch]));
  const emails = [...new Set(fileRows.map((row) => lower(row.cells.holder ?? '')).filter((value) => value.includes('@')))];
  const people = await repo.activeUsersByEmail(ctx.db, emails);
  return { routesByTin, routesByName, branches, people };
}

/** The route by TIN, else by a name only one route has. */
function routeOf(row: FileRow, keys: PadKeys, errors: ImportError[]): repo.RouteKey | undefined {
  const routeText = row.cells.route ?? '';
  if (routeText === '') {
    errors.push({ line: row.line, column: 'route', message: IMPORT_MSG.required('route') });
    return undefined;
  }
  const route = keys.routesByTin.get(lower(routeText));
  const named = keys.routesByName.get(lower(routeText)) ?? [];
  if (!route && named.length > 1) errors.push({ line: row.line, column: 'route', message: IMPORT_MSG.routeAmbiguous(routeText) });
  else if (!route && named.length === 0) errors.push({ line: row.line, column: 'route', message: IMPORT_MSG.routeUnknown(routeText) });
  return route ?? (named.length === 1 ? named[0] : undefined);
}

/** An active user by e-mail (with their branch), or a branch's own stock by the branch name. */
function holderOf(row: FileRow, keys: PadKeys, errors: ImportError[]): { userId: number | null; branchId: number | null } {
  const holderText = row.cells.holder ?? '';
  const none = { userId: null, branchId: null };
  if (holderText === '') {
    errors.push({ line: row.line, column: 'holder', message: IMPORT_MSG.required('holder') });
    return none;
  }
  if (holderText.includes('@')) {
    const person = keys.people.get(lower(holderText));
    if (!person) errors.push({ line: row.line, column: 'holder', message: IMPORT_MSG.holderUnknown(holderText) });
    return person ? { userId: person.id, branchId: person.branch_id } : none;
  }
  const branch = keys.branches.get(lower(holderText));
  if (!branch) errors.push({ line: row.line, column: 'holder', message: IMPORT_MSG.holderUnknown(holderText) });
  return branch ? { userId: null, branchId: branch.id } : none;
}

/** The used and cancelled numbers, each inside the pad and never both. */
function consumedOf(row: FileRow, from: number | null, to: number | null, errors: ImportError[]): Record<'used' | 'cancelled', Ranges> {
  const consumed: Record<'used' | 'cancelled', Ranges> = { used: [], cancelled: [] };
  for (const column of ['used', 'cancelled'] as const) {
    const ranges = parseRangeList(row.cells[column] ?? '');
    if (ranges === null) {
      errors.push({ line: row.line, column, message: IMPORT_MSG.rangeFormat(column) });
      continue;
    }
    const outside = from !== null && to !== null ? ranges.find(([a, b]) => a < from || b > to) : undefined;
    if (outside) errors.push({ line: row.line, column, message: IMPORT_MSG.rangeOutside(column, numberRange(...outside)) });
    else consumed[column] = ranges;
  }
  const both = consumed.used.flatMap(([a, b]) => consumed.cancelled.filter(([c, d]) => c <= b && d >= a).map(([c]) => Math.max(a, c)));
  if (both.length > 0) errors.push({ line: row.line, column: 'cancelled', message: IMPORT_MSG.usedAndCancelled(both[0]) });
  return consumed;
}

/** One pad row resolved to ids, or null with its errors added. */
function padRowOf(row: FileRow, keys: PadKeys, errors: ImportError[]): OpeningPadRow | null {
  const before = errors.length;
  const route = routeOf(row, keys, errors);
  const from = wholeNumber(row, 'series_from', errors, MAX_SERIES);
  const to = wholeNumber(row, 'series_to', errors, MAX_SERIES);
  if (from !== null && to !== null && to < from) errors.push({ line: row.line, column: 'series_to', message: IMPORT_MSG.toBeforeFrom });
  else if (from !== null && to !== null && to - from + 1 > MAX_IMPORT_PAD_SIZE)
    errors.push({ line: row.line, column: 'series_to', message: IMPORT_MSG.padTooLarge });
  const number = wholeNumber(row, 'pad_number', errors, MAX_ID);
  const holder = holderOf(row, keys, errors);
  const consumed = consumedOf(row, from, to, errors);
  if (errors.length > before || !route || from === null || to === null || number === null) return null;
  return {
    line: row.line,
    routeId: route.id,
    number,
    from,
    to,
    holderUserId: holder.userId,
    holderBranchId: holder.branchId,
    used: mergeRuns(consumed.used),
    cancelled: mergeRuns(consumed.cancelled),
    remarks: row.cells.remarks ? row.cells.remarks.slice(0, 500) : null,
  };
}

/** The pad rows, each resolved to ids or reported with its line and column (docs/design.md §10). */
export async function checkPadRows(ctx: AppContext, fileRows: FileRow[]): Promise<Checked<OpeningPadRow>> {
  const keys = await padKeys(ctx, fileRows);
  const errors: ImportError[] = [];
  const rows: OpeningPadRow[] = [];
  for (const row of fileRows) {
    const padRow = padRowOf(row, keys, errors);
    if (padRow) rows.push(padRow);
  }
  errors.push(...inFileClashes(rows));
  const dbErrors = await storedClashes(ctx, rows);
  errors.push(...dbErrors);
  const bad = new Set(errors.map((error) => error.line));
  const good = rows.filter((row) => !bad.has(row.line));
  const byLine = new Map(fileRows.map((row) => [row.line, row]));
  return {
    rows: good,
    errors: errors.sort((a, b) => a.line - b.line),
    results: good.map((row) => {
      const used = qtyOf(row.used);
      const cancelled = qtyOf(row.cancelled);
      const unused = row.to - row.from + 1 - used - cancelled;
      return {
        line: row.line,
        result: `New pad ${row.number} of ${byLine.get(row.line)?.cells.route ?? ''}, ${numberRange(row.from, row.to)}, held by ${byLine.get(row.line)?.cells.holder ?? ''}: ${unused} not used, ${used} used, ${cancelled} cancelled`,
      };
    }),
  };
}

function mergeRuns(ranges: Ranges): Ranges {
  const merged: Ranges = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Two rows of the file on one route that overlap, or share a pad number: the later line is named. */
function inFileClashes(rows: OpeningPadRow[]): ImportError[] {
  const errors: ImportError[] = [];
  const byRoute = new Map<number, OpeningPadRow[]>();
  for (const row of rows) {
    const routeRows = byRoute.get(row.routeId);
    if (routeRows) routeRows.push(row);
    else byRoute.set(row.routeId, [row]);
  }
  for (const routeRows of byRoute.values()) {
    const sorted = [...routeRows].sort((a, b) => a.from - b.from || a.line - b.line);
    let reach: OpeningPadRow | null = null;
    for (const row of sorted) {
      if (reach && row.from <= reach.to) {
        const [first, later] = reach.line < row.line ? [reach, row] : [row, reach];
        errors.push({ line: later.line, column: 'series_from', message: IMPORT_MSG.overlapInFile(first.line) });
      }
      if (!reach || row.to > reach.to) reach = row;
    }
    const numbers = new Map<number, number>();
    for (const row of [...routeRows].sort((a, b) => a.line - b.line)) {
      const first = numbers.get(row.number);
      if (first !== undefined) errors.push({ line: row.line, column: 'pad_number', message: IMPORT_MSG.numberInFile(first) });
      else numbers.set(row.number, row.line);
    }
  }
  return errors;
}

/** Rows that overlap a stored pad or take a stored pad number on their route. */
export async function storedClashes(ctx: AppContext, rows: OpeningPadRow[]): Promise<ImportError[]> {
  const overlaps = await overlappingPads(ctx.db, rows);
  const taken = await takenPadNumbers(ctx.db, rows);
  const numberOf = new Map(rows.map((row) => [row.line, row.number]));
  return [
    ...overlaps.map((hit) => ({
      line: hit.line,
      column: 'series_from',
      message: IMPORT_MSG.overlapStored(hit.number, numberRange(hit.series_from, hit.series_to)),
    })),
    ...taken.map((line) => ({ line, column: 'pad_number', message: IMPORT_MSG.numberTaken(numberOf.get(line) ?? 0) })),
  ];
}

/** A user row of the file, resolved to ids. */
export interface UserRow {
  line: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  email: string;
  role_id: number;
  branch_id: number;
  contact_number: string;
}

/** The user rows: names, a free e-mail (in the file too), a known role and branch, a mobile number. */
export async function checkUserRows(ctx: AppContext, fileRows: FileRow[]): Promise<Checked<UserRow>> {
  const roles = new Map((await repo.roleKeys(ctx.db)).map((role) => [lower(role.name), role]));
  const branches = new Map((await repo.branchKeys(ctx.db)).map((branch) => [lower(branch.name), branch]));
  const taken = await repo.takenEmails(
    ctx.db,
    fileRows.map((row) => lower(row.cells.email ?? '')).filter((email) => EMAIL_PATTERN.test(email)),
  );
  const errors: ImportError[] = [];
  const rows: UserRow[] = [];
  const results: Array<{ line: number; result: string }> = [];
  const seen = new Map<string, number>();
  for (const row of fileRows) {
    const before = errors.length;
    const cell = (column: string) => row.cells[column] ?? '';
    for (const column of ['first_name', 'last_name'] as const) {
      if (cell(column) === '') errors.push({ line: row.line, column, message: IMPORT_MSG.required(column) });
      else if (!LETTERS_AND_SPACES.test(cell(column))) errors.push({ line: row.line, column, message: IMPORT_MSG.nameFormat(column) });
    }
    if (cell('middle_name') !== '' && !LETTERS_AND_SPACES.test(cell('middle_name')))
      errors.push({ line: row.line, column: 'middle_name', message: IMPORT_MSG.nameFormat('middle_name') });
    const email = lower(cell('email'));
    if (email === '') errors.push({ line: row.line, column: 'email', message: IMPORT_MSG.required('email') });
    else if (!EMAIL_PATTERN.test(email)) errors.push({ line: row.line, column: 'email', message: IMPORT_MSG.emailFormat });
    else if (taken.has(email)) errors.push({ line: row.line, column: 'email', message: IMPORT_MSG.emailTaken });
    else if (seen.has(email)) errors.push({ line: row.line, column: 'email', message: IMPORT_MSG.emailInFile(seen.get(email) ?? 0) });
    else seen.set(email, row.line);
    const role = roles.get(lower(cell('role')));
    if (cell('role') === '') errors.push({ line: row.line, column: 'role', message: IMPORT_MSG.required('role') });
    else if (!role) errors.push({ line: row.line, column: 'role', message: IMPORT_MSG.roleUnknown(cell('role')) });
    const branch = branches.get(lower(cell('branch')));
    if (cell('branch') === '') errors.push({ line: row.line, column: 'branch', message: IMPORT_MSG.required('branch') });
    else if (!branch) errors.push({ line: row.line, column: 'branch', message: IMPORT_MSG.branchUnknown(cell('branch')) });
    if (cell('mobile') === '') errors.push({ line: row.line, column: 'mobile', message: IMPORT_MSG.required('mobile') });
    else if (!MOBILE_PATTERN.test(cell('mobile'))) errors.push({ line: row.line, column: 'mobile', message: IMPORT_MSG.mobileFormat });
    if (errors.length > before || !role || !branch) continue;
    rows.push({
      line: row.line,
      first_name: cell('first_name'),
      middle_name: cell('middle_name') || null,
      last_name: cell('last_name'),
      email,
      role_id: role.id,
      branch_id: branch.id,
      contact_number: cell('mobile'),
    });
    results.push({
      line: row.line,
      result: `New user ${cell('first_name')} ${cell('last_name')} <${email}>, ${role.name}, ${branch.name}: a set-password link is mailed`,
    });
  }
  return { rows, errors, results };
}
