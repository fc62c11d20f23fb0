import { randomBytes } from 'node:crypto';
import { USER_STATUS } from '../../../shared/lookups.ts';
import {
  IMPORT_COLUMNS,
  IMPORT_MSG,
  type ImportError,
  type ImportKind,
  type ImportResult,
  type ImportTotals,
} from '../../../shared/schemas/imports.ts';
import type { AppContext } from '../../context.ts';
import { sqlState } from '../../db/client.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { sendSetPasswordLink } from '../accounts/lifecycle.ts';
import { insertOpeningPads, type OpeningPadRow } from '../pads/lifecycle.ts';
import * as users from '../users/lifecycle.ts';
import { checkPadRows, checkUserRows, qtyOf, storedClashes, type Checked, type UserRow } from './checks.ts';
import { FileProblem, readImportFile } from './parse.ts';
import * as repo from './repo.ts';

const EXCLUSION_VIOLATION = '23P01';

const emptyTotals = (rows: number): ImportTotals => ({
  rows,
  ok: 0,
  errors: 0,
  pads: 0,
  numbers_used: 0,
  numbers_cancelled: 0,
  users: 0,
});

/** A checked file of either kind: its rows are typed by the kind. */
type CheckedFile = { kind: 'pads'; checked: Checked<OpeningPadRow> } | { kind: 'users'; checked: Checked<UserRow> };

/** A file refused as a whole (unreadable, or a column missing): no rows, these errors. The two arms differ in type only. */
function refused(kind: ImportKind, errors: ImportError[]): CheckedFile {
  const checked = { rows: [], results: [], errors };
  return kind === 'pads' ? { kind, checked } : { kind, checked };
}

function totalsOf(file: CheckedFile, fileRows: number): ImportTotals {
  const totals = emptyTotals(fileRows);
  totals.errors = file.checked.errors.length;
  totals.ok = file.checked.rows.length;
  if (file.kind === 'pads') {
    const rows = file.checked.rows;
    totals.pads = rows.length;
    totals.numbers_used = rows.reduce((sum, row) => sum + qtyOf(row.used), 0);
    totals.numbers_cancelled = rows.reduce((sum, row) => sum + qtyOf(row.cancelled), 0);
  } else totals.users = file.checked.rows.length;
  return totals;
}

export interface ImportInput {
  kind: ImportKind;
  dryRun: boolean;
  fileName: string;
  content: Buffer;
}

/** Reads the file and checks every row; a file that cannot be read, or lacks a column, is one error on its line. */
async function checkFile(ctx: AppContext, input: ImportInput): Promise<{ file: CheckedFile; fileRows: number }> {
  let fileRows = 0;
  try {
    const file = await readImportFile(input.fileName, input.content);
    fileRows = file.rows.length;
    const missing = IMPORT_COLUMNS[input.kind].filter(
      (column) => !file.header.includes(column) && column !== 'middle_name' && column !== 'remarks',
    );
    if (missing.length > 0) {
      const errors = missing.map((column) => ({ line: 1, column, message: IMPORT_MSG.missingColumn(column) }));
      return { file: refused(input.kind, errors), fileRows };
    }
    const checked: CheckedFile =
      input.kind === 'pads'
        ? { kind: 'pads', checked: await checkPadRows(ctx, file.rows) }
        : { kind: 'users', checked: await checkUserRows(ctx, file.rows) };
    return { file: checked, fileRows };
  } catch (error) {
    if (!(error instanceof FileProblem)) throw error;
    return { file: refused(input.kind, [{ line: error.line, column: 'file', message: error.message }]), fileRows };
  }
}

/**
 * docs/design.md §10: checks every row of the file and reports each one and every error (line and column). A dry
 * run, or a file with any error, changes nothing but the import's own record; otherwise the whole file is applied in
 * one transaction, all rows or none. Imported users are mailed a set-password link once the users exist.
 */
export async function runImport(ctx: AppContext, actorId: number | null, input: ImportInput): Promise<ImportResult> {
  const { file, fileRows } = await checkFile(ctx, input);
  const { checked } = file;
  const totals = totalsOf(file, fileRows);
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
    const created = await apply(ctx, id, actorId, file, totals);
    for (const user of created) {
      await sendSetPasswordLink(ctx, user).catch((error: unknown) =>
        ctx.log.warn({ err: error, userId: user.id }, 'set-password mail of an imported user failed; send a reset link from Users'),
      );
    }
    return answer(true, []);
  } catch (error) {
    if (file.kind !== 'pads' || sqlState(error) !== EXCLUSION_VIOLATION) throw error;
    const errors = (await storedClashes(ctx, file.checked.rows)).sort((a, b) => a.line - b.line);
    await repo.finishImport(ctx.db, id, { applied: false, totals: { ...totals, errors: errors.length }, errors });
    return answer(false, errors);
  }
}

/**
 * The checked rows go in with the import marked applied, in one transaction: a pad that overlaps one stored since the
 * check fails the whole file. Returns the users made, to be mailed after the commit.
 */
async function apply(
  ctx: AppContext,
  id: number,
  actorId: number | null,
  file: CheckedFile,
  totals: ImportTotals,
): Promise<Array<{ id: number; email: string; first_name: string }>> {
  return ctx.db.transaction(async (tx) => {
    const made: Array<{ id: number; email: string; first_name: string }> = [];
    if (file.kind === 'pads') {
      await insertOpeningPads(tx, ctx, file.checked.rows, { importId: id, actorId });
    } else {
      const unusable = await hashPassword(randomBytes(32).toString('hex'));
      for (const row of file.checked.rows) {
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
}
