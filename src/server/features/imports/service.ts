import { randomBytes } from 'node:crypto';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { EMAIL_PATTERN } from '../../../shared/email-pattern.ts';
import { LETTERS_AND_SPACES, MOBILE_PATTERN, type Paginated } from '../../../shared/schemas/common.ts';
import { MAX_ID } from '../../../shared/schemas/fields.ts';
import {
  IMPORT_COLUMNS,
  IMPORT_MSG,
  IMPORT_SAMPLES,
  MAX_IMPORT_PAD_SIZE,
  type ImportError,
  type ImportKind,
  type ImportListRow,
  type ImportResult,
  type ImportTotals,
} from '../../../shared/schemas/imports.ts';
import type { AppContext } from '../../context.ts';
import { sqlState } from '../../db/client.ts';
import { paginated } from '../../lib/pagination.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { sendSetPasswordLink } from '../accounts/service.ts';
import { insertOpeningPads, overlappingPads, takenPadNumbers, type OpeningPadRow } from '../pads/opening.ts';
import * as users from '../users/repo.ts';
import { FileProblem, readImportFile, templateCsv, type FileRow } from './parse.ts';
import * as repo from './repo.ts';

const EXCLUSION_VIOLATION = '23P01';
const MAX_SERIES = 999_999_999_999_999;

type Ranges = Array<[number, number]>;

interface Checked<T> {
  rows: Array<T & { line: number }>;
  errors: ImportError[];
  results: Array<{ line: number; result: string }>;
}

const emptyTotals = (rows: number): ImportTotals => ({
  rows,
  ok: 0,
  errors: 0,
  pads: 0,
  numbers_used: 0,
  numbers_cancelled: 0,
  users: 0,
});

const lower = (value: string) => value.trim().toLowerCase();
const rangeText = (from: number, to: number) => (from === to ? `${from}` : `${from}-${to}`);
const qtyOf = (ranges: Ranges) => ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);

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

/** The pad rows, each resolved to ids or reported with its line and column (docs/design.md §10). */
async function checkPadRows(ctx: AppContext, fileRows: FileRow[]): Promise<Checked<OpeningPadRow>> {
  const routesByTin = new Map<string, repo.RouteKey>();
  const routesByName = new Map<string, repo.RouteKey[]>();
  for (const route of await repo.routeKeys(ctx.db)) {
    routesByTin.set(lower(route.tin), route);
    routesByName.set(lower(route.name), [...(routesByName.get(lower(route.name)) ?? []), route]);
  }
  const branches = new Map((await repo.branchKeys(ctx.db)).map((branch) => [lower(branch.name), branch]));
  const emails = [...new Set(fileRows.map((row) => lower(row.cells.holder ?? '')).filter((value) => value.includes('@')))];
  const people = await repo.activeUsersByEmail(ctx.db, emails);
  const errors: ImportError[] = [];
  const rows: OpeningPadRow[] = [];
  for (const row of fileRows) {
    const before = errors.length;
    const routeText = row.cells.route ?? '';
    let route: repo.RouteKey | undefined;
    if (routeText === '') errors.push({ line: row.line, column: 'route', message: IMPORT_MSG.required('route') });
    else {
      route = routesByTin.get(lower(routeText));
      const named = routesByName.get(lower(routeText)) ?? [];
      if (!route && named.length > 1) errors.push({ line: row.line, column: 'route', message: IMPORT_MSG.routeAmbiguous(routeText) });
      else if (!route && named.length === 0) errors.push({ line: row.line, column: 'route', message: IMPORT_MSG.routeUnknown(routeText) });
      route ??= named.length === 1 ? named[0] : undefined;
    }
    const from = wholeNumber(row, 'series_from', errors, MAX_SERIES);
    const to = wholeNumber(row, 'series_to', errors, MAX_SERIES);
    if (from !== null && to !== null && to < from) errors.push({ line: row.line, column: 'series_to', message: IMPORT_MSG.toBeforeFrom });
    else if (from !== null && to !== null && to - from + 1 > MAX_IMPORT_PAD_SIZE)
      errors.push({ line: row.line, column: 'series_to', message: IMPORT_MSG.padTooLarge });
    const number = wholeNumber(row, 'pad_number', errors, MAX_ID);
    const holderText = row.cells.holder ?? '';
    let holderUserId: number | null = null;
    let holderBranchId: number | null = null;
    if (holderText === '') errors.push({ line: row.line, column: 'holder', message: IMPORT_MSG.required('holder') });
    else if (holderText.includes('@')) {
      const person = people.get(lower(holderText));
      if (!person) errors.push({ line: row.line, column: 'holder', message: IMPORT_MSG.holderUnknown(holderText) });
      else [holderUserId, holderBranchId] = [person.id, person.branch_id];
    } else {
      const branch = branches.get(lower(holderText));
      if (!branch) errors.push({ line: row.line, column: 'holder', message: IMPORT_MSG.holderUnknown(holderText) });
      else holderBranchId = branch.id;
    }
    const consumed: Record<'used' | 'cancelled', Ranges> = { used: [], cancelled: [] };
    for (const column of ['used', 'cancelled'] as const) {
      const ranges = parseRangeList(row.cells[column] ?? '');
      if (ranges === null) {
        errors.push({ line: row.line, column, message: IMPORT_MSG.rangeFormat(column) });
        continue;
      }
      const outside = from !== null && to !== null ? ranges.find(([a, b]) => a < from || b > to) : undefined;
      if (outside) errors.push({ line: row.line, column, message: IMPORT_MSG.rangeOutside(column, rangeText(...outside)) });
      else consumed[column] = ranges;
    }
    const both = consumed.used.flatMap(([a, b]) => consumed.cancelled.filter(([c, d]) => c <= b && d >= a).map(([c]) => Math.max(a, c)));
    if (both.length > 0) errors.push({ line: row.line, column: 'cancelled', message: IMPORT_MSG.usedAndCancelled(both[0]) });
    if (errors.length > before || !route || from === null || to === null || number === null) continue;
    rows.push({
      line: row.line,
      routeId: route.id,
      number,
      from,
      to,
      holderUserId,
      holderBranchId,
      used: mergeRuns(consumed.used),
      cancelled: mergeRuns(consumed.cancelled),
      remarks: row.cells.remarks ? row.cells.remarks.slice(0, 500) : null,
    });
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
        result: `New pad ${row.number} of ${byLine.get(row.line)?.cells.route ?? ''}, ${rangeText(row.from, row.to)}, held by ${byLine.get(row.line)?.cells.holder ?? ''}: ${unused} not used, ${used} used, ${cancelled} cancelled`,
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
async function storedClashes(ctx: AppContext, rows: OpeningPadRow[]): Promise<ImportError[]> {
  const overlaps = await overlappingPads(ctx.db, rows);
  const taken = await takenPadNumbers(ctx.db, rows);
  const numberOf = new Map(rows.map((row) => [row.line, row.number]));
  return [
    ...overlaps.map((hit) => ({
      line: hit.line,
      column: 'series_from',
      message: IMPORT_MSG.overlapStored(hit.number, rangeText(hit.series_from, hit.series_to)),
    })),
    ...taken.map((line) => ({ line, column: 'pad_number', message: IMPORT_MSG.numberTaken(numberOf.get(line) ?? 0) })),
  ];
}

interface UserRow {
  line: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  email: string;
  role_id: number;
  branch_id: number;
  contact_number: string;
}

async function checkUserRows(ctx: AppContext, fileRows: FileRow[]): Promise<Checked<UserRow>> {
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

function totalsOf(kind: ImportKind, fileRows: number, checked: Checked<unknown>): ImportTotals {
  const totals = emptyTotals(fileRows);
  totals.errors = checked.errors.length;
  totals.ok = checked.rows.length;
  if (kind === 'pads') {
    const rows = checked.rows as unknown as OpeningPadRow[];
    totals.pads = rows.length;
    totals.numbers_used = rows.reduce((sum, row) => sum + qtyOf(row.used), 0);
    totals.numbers_cancelled = rows.reduce((sum, row) => sum + qtyOf(row.cancelled), 0);
  } else totals.users = checked.rows.length;
  return totals;
}

export interface ImportInput {
  kind: ImportKind;
  dryRun: boolean;
  fileName: string;
  content: Buffer;
}

/**
 * docs/design.md §10: checks every row of the file and reports each one and every error (line and column). A dry
 * run, or a file with any error, changes nothing but the import's own record; otherwise the whole file is applied in
 * one transaction, all rows or none. Imported users are mailed a set-password link once the users exist.
 */
export async function runImport(ctx: AppContext, actorId: number | null, input: ImportInput): Promise<ImportResult> {
  let checked: Checked<unknown>;
  let fileRows = 0;
  try {
    const file = await readImportFile(input.fileName, input.content);
    fileRows = file.rows.length;
    const missing = IMPORT_COLUMNS[input.kind].filter(
      (column) => !file.header.includes(column) && column !== 'middle_name' && column !== 'remarks',
    );
    if (missing.length > 0) {
      checked = {
        rows: [],
        results: [],
        errors: missing.map((column) => ({ line: 1, column, message: IMPORT_MSG.missingColumn(column) })),
      };
    } else {
      checked = input.kind === 'pads' ? await checkPadRows(ctx, file.rows) : await checkUserRows(ctx, file.rows);
    }
  } catch (error) {
    if (!(error instanceof FileProblem)) throw error;
    checked = { rows: [], results: [], errors: [{ line: error.line, column: 'file', message: error.message }] };
  }
  const totals = totalsOf(input.kind, fileRows, checked);
  const base = { kind: input.kind, dry_run: input.dryRun, file_name: input.fileName.slice(0, 200), totals };
  const id = await repo.insertImport(ctx.db, { ...base, applied: false, errors: checked.errors, created_by: actorId });
  const answer = (applied: boolean, errors: ImportError[]): ImportResult => ({
    id,
    ...base,
    totals: { ...totals, errors: errors.length },
    applied,
    errors,
    rows: checked.results,
  });
  if (checked.errors.length > 0 || input.dryRun) return answer(false, checked.errors);
  try {
    const created = await ctx.db.transaction(async (tx) => {
      const made: Array<{ id: number; email: string; first_name: string }> = [];
      if (input.kind === 'pads') {
        await insertOpeningPads(tx, ctx, checked.rows as unknown as OpeningPadRow[], { importId: id, actorId });
      } else {
        const unusable = await hashPassword(randomBytes(32).toString('hex'));
        for (const row of checked.rows as unknown as UserRow[]) {
          const values = {
            first_name: row.first_name,
            middle_name: row.middle_name,
            last_name: row.last_name,
            email: row.email,
            role_id: row.role_id,
            branch_id: row.branch_id,
            contact_number: row.contact_number,
          };
          made.push({
            id: await users.insert(tx, {
              ...values,
              password_hash: unusable,
              user_status_id: USER_STATUS.ACTIVE,
              must_change_password: false,
            }),
            email: row.email,
            first_name: row.first_name,
          });
        }
      }
      await repo.finishImport(tx, id, { applied: true, totals, errors: [] });
      return made;
    });
    for (const user of created) {
      await sendSetPasswordLink(ctx, user).catch((error: unknown) =>
        ctx.log.warn({ err: error, userId: user.id }, 'set-password mail of an imported user failed; send a reset link from Users'),
      );
    }
    return answer(true, []);
  } catch (error) {
    if (input.kind !== 'pads' || sqlState(error) !== EXCLUSION_VIOLATION) throw error;
    const errors = (await storedClashes(ctx, checked.rows as unknown as OpeningPadRow[])).sort((a, b) => a.line - b.line);
    await repo.finishImport(ctx.db, id, { applied: false, totals: { ...totals, errors: errors.length }, errors });
    return answer(false, errors);
  }
}

/** GET imports: the past imports, newest first. */
export async function listImports(
  ctx: AppContext,
  q: { page: number; per_page: number; kind?: ImportKind },
): Promise<Paginated<ImportListRow>> {
  const { rows, total } = await repo.listImports(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** The CSV template of a kind: its header and a sample row. */
export const template = (kind: ImportKind) => templateCsv(IMPORT_COLUMNS[kind], IMPORT_SAMPLES[kind]);
