import { dateInZone } from '../../../shared/format.ts';
import type { Actor } from '../../../shared/permissions.ts';
import { isoDate } from '../../../shared/schemas/fields.ts';
import {
  EINVOICE_NUMBER_MAX,
  REPLACEMENT_COLUMNS,
  REPLACEMENT_MSG,
  REPLACEMENT_ROUTE_COLUMN,
  type ReplacementItem,
  type Replacements,
} from '../../../shared/schemas/paper-use-summary.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { AppError, notFound, type FieldErrors } from '../../lib/errors.ts';
import { assertCan } from '../../lib/policy.ts';
import { FileProblem, readImportFile, type FileRow } from '../imports/read-model.ts';
import { padViews } from '../pads/read-model.ts';
import { routeInfos, type RouteInfo } from '../routes/read-model.ts';
import { Names } from '../users/read-model.ts';
import * as repo from './replacement-repo.ts';

/** One paper number's replacement as given, by hand (`items.N`) or on a file's line (`line N`). */
interface Entry {
  key: string;
  paperNumber: number;
  route: { id: number } | { text: string } | null;
  einvoice: string;
  transmittedOn: string;
}

/** Where a number was used during the outage: one per route that used it (two routes may share numbers). */
interface UsedAt {
  padId: number;
  routeId: number;
  businessDate: string;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const PAPER_NUMBER = /^\d{1,15}$/;

function usedNumbers(uses: repo.LinkedUse[]): Map<number, UsedAt[]> {
  const byNumber = new Map<number, UsedAt[]>();
  for (const use of uses)
    for (let n = Number(use.number_from); n <= Number(use.number_to); n += 1) {
      const list = byNumber.get(n) ?? [];
      list.push({ padId: use.pad_id, routeId: use.route_id, businessDate: use.business_date });
      byNumber.set(n, list);
    }
  return byNumber;
}

async function outageFor(conn: Conn, actor: Actor, id: number, action: 'replacement.read' | 'replacement.enter', lock = false) {
  const outage = await repo.outageHead(conn, id, lock);
  if (!outage) throw notFound(REPLACEMENT_MSG.outageMissing);
  assertCan(actor, action, { branch_id: outage.branch_id });
  return outage;
}

/** Each paper number used during the outage (not undone), with its replacement e-invoice or pending. */
async function view(conn: Conn, outage: repo.OutageHead): Promise<Replacements> {
  const uses = await repo.linkedUses(conn, outage.id);
  const padIds = [...new Set(uses.map((use) => use.pad_id))];
  /* One after another: inside the entry's transaction they share one connection. */
  const mapped = await repo.replacementsOfPads(conn, padIds);
  const padRows = await padViews(conn, padIds);
  const routes = await routeInfos(conn, [...new Set(uses.map((use) => use.route_id))]);
  const byKey = new Map(mapped.map((row) => [`${row.pad_id}:${Number(row.paper_number)}`, row]));
  const names = await Names.load(
    conn,
    mapped.map((row) => row.entered_by),
    [outage.branch_id],
  );
  const padNumber = new Map(padRows.map((pad) => [pad.id, pad.number]));
  const routeName = new Map(routes.map((route) => [route.id, route.name]));
  const numbers: Replacements['numbers'] = [];
  for (const use of uses)
    for (let n = Number(use.number_from); n <= Number(use.number_to); n += 1) {
      const row = byKey.get(`${use.pad_id}:${n}`);
      const person = row ? names.person(row.entered_by) : null;
      numbers.push({
        paper_number: n,
        route: { id: use.route_id, name: routeName.get(use.route_id) ?? '' },
        pad: { id: use.pad_id, number: padNumber.get(use.pad_id) ?? 0 },
        business_date: use.business_date,
        einvoice_number: row?.einvoice_number ?? null,
        transmitted_on: row?.transmitted_on ?? null,
        entered_by: person ? { id: person.id, name: person.full_name } : null,
        status: row ? 'entered' : 'pending',
      });
    }
  const entered = numbers.filter((row) => row.status === 'entered').length;
  return {
    outage: {
      id: outage.id,
      branch: names.branch(outage.branch_id) ?? { id: outage.branch_id, name: '' },
      starts_at: iso(outage.starts_at),
      ends_at: outage.ends_at ? iso(outage.ends_at) : null,
    },
    numbers,
    totals: { numbers: numbers.length, entered, pending: numbers.length - entered },
  };
}

/** Issue 38: the paper numbers of an outage with the e-invoices that later recorded those sales, or pending. */
export async function replacementsOf(ctx: AppContext, actor: Actor, outageId: number): Promise<Replacements> {
  return view(ctx.db, await outageFor(ctx.db, actor, outageId, 'replacement.read'));
}

const routeMatches = (route: RouteInfo, text: string) =>
  route.name.toLowerCase() === text.toLowerCase() || route.tin.toLowerCase() === text.toLowerCase();

interface Checked {
  errors: FieldErrors;
  rows: Array<{ pad_id: number; paper_number: number; einvoice_number: string; transmitted_on: string }>;
}

/**
 * Each entry against the outage: its number used during it (on the given route when two routes used it), transmitted
 * not before that day nor after today, not already mapped to another e-invoice (an identical mapping is left as it is).
 */
async function check(tx: Conn, outage: repo.OutageHead, entries: Entry[], today: string): Promise<Checked> {
  const uses = await repo.linkedUses(tx, outage.id);
  const byNumber = usedNumbers(uses);
  const routes = await routeInfos(tx, [...new Set(uses.map((use) => use.route_id))]);
  const routeById = new Map(routes.map((route) => [route.id, route]));
  const stored = new Map(
    (await repo.replacementsOfPads(tx, [...new Set(uses.map((use) => use.pad_id))])).map((row) => [
      `${row.pad_id}:${Number(row.paper_number)}`,
      row,
    ]),
  );
  const given = new Map<string, Entry>();
  const errors: FieldErrors = {};
  const rows: Checked['rows'] = [];
  const fail = (entry: Entry, message: string) => (errors[entry.key] ??= []).push(message);
  for (const entry of entries) {
    const n = entry.paperNumber;
    const route = entry.route;
    const candidates = (byNumber.get(n) ?? []).filter((used) => {
      if (route === null) return true;
      if ('id' in route) return used.routeId === route.id;
      const info = routeById.get(used.routeId);
      return info !== undefined && routeMatches(info, route.text);
    });
    if (candidates.length === 0) {
      fail(entry, route === null ? REPLACEMENT_MSG.notUsed(n) : REPLACEMENT_MSG.notUsedOnRoute(n));
      continue;
    }
    if (candidates.length > 1) {
      fail(
        entry,
        REPLACEMENT_MSG.ambiguous(n, candidates.map((used) => routeById.get(used.routeId)?.name ?? `#${used.routeId}`).join(', ')),
      );
      continue;
    }
    const [used] = candidates;
    if (entry.transmittedOn < used.businessDate) fail(entry, REPLACEMENT_MSG.beforeUse(n, used.businessDate));
    if (entry.transmittedOn > today) fail(entry, REPLACEMENT_MSG.future);
    const key = `${used.padId}:${n}`;
    const same = (other: { einvoice_number: string; transmitted_on: string }) =>
      other.einvoice_number === entry.einvoice && other.transmitted_on === entry.transmittedOn;
    const before = stored.get(key);
    if (before && !same(before)) fail(entry, REPLACEMENT_MSG.alreadyMapped(n, before.einvoice_number));
    const earlier = given.get(key);
    if (earlier && !(earlier.einvoice === entry.einvoice && earlier.transmittedOn === entry.transmittedOn))
      fail(entry, REPLACEMENT_MSG.twiceInFile(n, earlier.key.startsWith('line') ? `on ${earlier.key}` : `as ${earlier.key}`));
    if (errors[entry.key] || before || earlier) continue;
    given.set(key, entry);
    rows.push({ pad_id: used.padId, paper_number: n, einvoice_number: entry.einvoice, transmitted_on: entry.transmittedOn });
  }
  return { errors, rows };
}

/** Row keys in their order: line 2 before line 10, items.2 before items.10. */
const sortedErrors = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).sort(([a], [b]) => Number(a.replace(/\D+/g, '')) - Number(b.replace(/\D+/g, ''))));

/**
 * One transaction: the outage locked, every entry checked, then all stored; or none, with every bad entry's reasons
 * (422), those found reading the file (`unread`) among them.
 */
async function store(ctx: AppContext, actor: Actor, outageId: number, entries: Entry[], unread: FieldErrors = {}) {
  return ctx.db.transaction(async (tx) => {
    const outage = await outageFor(tx, actor, outageId, 'replacement.enter', true);
    const today = dateInZone(ctx.ledgerClock?.() ?? new Date(), ctx.config.timeZone);
    const { errors, rows } = await check(tx, outage, entries, today);
    const all = sortedErrors({ ...unread, ...errors });
    const bad = Object.keys(all).length;
    if (bad > 0) throw new AppError('invalid', REPLACEMENT_MSG.hasErrors(bad), 422, all);
    await repo.insertReplacements(
      tx,
      rows.map((row) => ({ ...row, outage_id: outage.id, entered_by: actor.id })),
    );
    return { saved: rows.length, data: await view(tx, outage) };
  });
}

/** Issue 38: the e-invoice numbers that later recorded an outage's paper sales, entered by hand. */
export async function enterReplacements(ctx: AppContext, actor: Actor, outageId: number, items: ReplacementItem[]) {
  return store(
    ctx,
    actor,
    outageId,
    items.map((item, i) => ({
      key: `items.${i}`,
      paperNumber: item.paper_number,
      route: item.route_id === undefined ? null : { id: item.route_id },
      einvoice: item.einvoice_number,
      transmittedOn: item.transmitted_on,
    })),
  );
}

const transmittedDate = isoDate(REPLACEMENT_COLUMNS[2]);

/** A file's rows as entries, or the problems of each line; the header's problems are line 1's. */
function entriesOf(header: string[], rows: FileRow[]): { entries: Entry[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const known: readonly string[] = [...REPLACEMENT_COLUMNS, REPLACEMENT_ROUTE_COLUMN];
  for (const column of REPLACEMENT_COLUMNS)
    if (!header.includes(column)) (errors['line 1'] ??= []).push(REPLACEMENT_MSG.missingColumn(column));
  for (const column of header)
    if (column !== '' && !known.includes(column)) (errors['line 1'] ??= []).push(REPLACEMENT_MSG.unknownColumn(column));
  if (errors['line 1']) return { entries: [], errors };
  const [numberColumn, einvoiceColumn, dateColumn] = REPLACEMENT_COLUMNS;
  const entries: Entry[] = [];
  for (const row of rows) {
    const key = `line ${row.line}`;
    const problems: string[] = [];
    const number = row.cells[numberColumn] ?? '';
    const einvoice = row.cells[einvoiceColumn] ?? '';
    const day = transmittedDate.safeParse(row.cells[dateColumn] ?? '');
    const routeText = row.cells[REPLACEMENT_ROUTE_COLUMN] ?? '';
    if (number === '') problems.push(REPLACEMENT_MSG.required(numberColumn));
    else if (!PAPER_NUMBER.test(number)) problems.push(REPLACEMENT_MSG.wholeNumber(numberColumn));
    if (einvoice === '') problems.push(REPLACEMENT_MSG.required(einvoiceColumn));
    else if (einvoice.length > EINVOICE_NUMBER_MAX) problems.push(REPLACEMENT_MSG.tooLong(einvoiceColumn, EINVOICE_NUMBER_MAX));
    if (!day.success)
      problems.push((row.cells[dateColumn] ?? '') === '' ? REPLACEMENT_MSG.required(dateColumn) : REPLACEMENT_MSG.date(dateColumn));
    if (problems.length > 0 || !day.success) {
      errors[key] = problems;
      continue;
    }
    entries.push({
      key,
      paperNumber: Number(number),
      route: routeText === '' ? null : { text: routeText },
      einvoice,
      transmittedOn: day.data,
    });
  }
  return { entries, errors };
}

/**
 * Issue 38: replacements imported from a CSV (or .xlsx) with the header "paper number,e-invoice number,date transmitted"
 * and, for a number two routes used during the outage, "route" (its name or TIN); read within the go-live import's
 * bounds. Nothing is stored when any line is bad: every bad line is named with its reasons.
 */
export async function importReplacements(ctx: AppContext, actor: Actor, outageId: number, file: { name: string; content: Buffer }) {
  let read: Awaited<ReturnType<typeof readImportFile>>;
  try {
    read = await readImportFile(file.name, file.content);
  } catch (error) {
    if (!(error instanceof FileProblem)) throw error;
    throw new AppError('invalid', error.message, 422, { [`line ${error.line}`]: [error.message] });
  }
  const { entries, errors } = entriesOf(read.header, read.rows);
  if (errors['line 1']) throw new AppError('invalid', REPLACEMENT_MSG.hasErrors(1), 422, errors);
  return store(ctx, actor, outageId, entries, errors);
}
