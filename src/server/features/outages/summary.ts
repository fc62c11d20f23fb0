import { calendarDayText, dayTimeText } from '../../../shared/format.ts';
import { wallClockInZone, type ListColumn } from '../../../shared/list-columns.ts';
import type { Actor } from '../../../shared/permissions.ts';
import { OUTAGE_CAUSE_LABELS, type OutageCause } from '../../../shared/schemas/outages.ts';
import { SUMMARY_MSG, type PaperUseSummary } from '../../../shared/schemas/paper-use-summary.ts';
import { EXCEPTION_REASON_LABELS, type ExceptionReason } from '../../../shared/schemas/paper-uses.ts';
import type { AppContext } from '../../context.ts';
import { invalid } from '../../lib/errors.ts';
import type { RowSource } from '../../lib/export.ts';
import { assertCan } from '../../lib/policy.ts';
import { establishmentOf } from '../establishments/read-model.ts';
import { usedNumbersAt } from '../ledger/read-model.ts';
import { padViews } from '../pads/read-model.ts';
import { routeInfos } from '../routes/read-model.ts';
import { Names } from '../users/read-model.ts';
import { replacementsOfPads } from './replacement-repo.ts';
import * as repo from './summary-repo.ts';

const iso = (value: Date | string) => new Date(value).toISOString();
const qtyOf = (use: { number_from: number; number_to: number }) => Number(use.number_to) - Number(use.number_from) + 1;

type Range = PaperUseSummary['outages'][number]['ranges'][number];

/** What the summary names: people, pads, routes, and each replaced paper number's e-invoice. */
interface Naming {
  person: (id: number | null) => { id: number; name: string } | null;
  range: (use: repo.SummaryUseRow) => Range;
  routeName: (id: number) => string;
  replacementOf: (padId: number, n: number) => { einvoice_number: string; transmitted_on: string } | undefined;
}

async function namingOf(
  conn: AppContext['db'],
  branchId: number,
  outageRows: repo.SummaryOutageRow[],
  uses: repo.SummaryUseRow[],
): Promise<Naming> {
  const padIds = [...new Set(uses.map((use) => use.pad_id))];
  const [padRows, routes, mapped, names] = await Promise.all([
    padViews(conn, padIds),
    routeInfos(conn, [...new Set(uses.map((use) => use.route_id))]),
    replacementsOfPads(conn, [...new Set(uses.filter((use) => use.state === 'linked').map((use) => use.pad_id))]),
    Names.load(conn, [...outageRows.map((o) => o.declared_by), ...uses.flatMap((use) => [use.holder_user_id, use.decided_by])], [branchId]),
  ]);
  const padNumber = new Map(padRows.map((pad) => [pad.id, pad.number]));
  const routeNames = new Map(routes.map((route) => [route.id, route.name]));
  const replacements = new Map(mapped.map((row) => [`${row.pad_id}:${Number(row.paper_number)}`, row]));
  const person = (id: number | null) => {
    const found = names.person(id);
    return found ? { id: found.id, name: found.full_name } : null;
  };
  const routeName = (id: number) => routeNames.get(id) ?? '';
  return {
    person,
    routeName,
    replacementOf: (padId, n) => replacements.get(`${padId}:${n}`),
    range: (use) => ({
      route: { id: use.route_id, name: routeName(use.route_id) },
      pad: { id: use.pad_id, number: padNumber.get(use.pad_id) ?? 0 },
      from: Number(use.number_from),
      to: Number(use.number_to),
      qty: qtyOf(use),
      used_at: iso(use.used_at),
      holder: person(use.holder_user_id),
    }),
  };
}

/** An outage with the ranges linked to it in the period, their count, and which numbers have a replacement e-invoice. */
function outageEntry(outage: repo.SummaryOutageRow, uses: repo.SummaryUseRow[], naming: Naming): PaperUseSummary['outages'][number] {
  const linked = uses.filter((use) => use.state === 'linked' && use.outage_id === outage.id);
  const replacements: PaperUseSummary['outages'][number]['replacements'] = [];
  for (const use of linked)
    for (let n = Number(use.number_from); n <= Number(use.number_to); n += 1) {
      const row = naming.replacementOf(use.pad_id, n);
      if (row)
        replacements.push({
          paper_number: n,
          route: { id: use.route_id, name: naming.routeName(use.route_id) },
          einvoice_number: row.einvoice_number,
          transmitted_on: row.transmitted_on,
        });
    }
  const qty = linked.reduce((sum, use) => sum + qtyOf(use), 0);
  // -- the cause column is checked against OUTAGE_CAUSES by the database (outages_cause_ck).
  const cause = outage.cause as OutageCause;
  return {
    id: outage.id,
    starts_at: iso(outage.starts_at),
    ends_at: outage.ends_at ? iso(outage.ends_at) : null,
    cause,
    cause_label: OUTAGE_CAUSE_LABELS[cause],
    details: outage.details,
    notice_reference: outage.notice_reference,
    declared_by: naming.person(outage.declared_by) ?? { id: outage.declared_by, name: '' },
    ranges: linked.map(naming.range),
    qty,
    replacements,
    pending: qty - replacements.length,
  };
}

function exceptionEntry(use: repo.SummaryUseRow, naming: Naming): PaperUseSummary['exceptions'][number] {
  return {
    ...naming.range(use),
    id: use.id,
    // -- paper_uses_state_ck: a use not linked is open, justified or rejected.
    state: use.state as 'open' | 'justified' | 'rejected',
    reason_code: use.reason_code,
    // -- reason_code is written only from the Zod-parsed EXCEPTION_REASONS.
    reason_label: use.reason_code ? (EXCEPTION_REASON_LABELS[use.reason_code as ExceptionReason] ?? use.reason_code) : null,
    reason_text: use.reason_text,
    decided_by: naming.person(use.decided_by),
    decided_at: use.decided_at ? iso(use.decided_at) : null,
  };
}

/**
 * Issue 38: the summary list of an establishment's paper for the days from..to in APP_TIMEZONE: each outage touching the
 * period with the paper ranges used in it and their replacement e-invoices, then the exceptions with their decisions,
 * and totals that must equal the ledger's used numbers at the establishment over the same days (from its go-live).
 */
export async function paperUseSummary(
  ctx: AppContext,
  actor: Actor,
  q: { branch_id: number; from: string; to: string },
): Promise<PaperUseSummary> {
  assertCan(actor, 'paperUse.summary', { branch_id: q.branch_id });
  const conn = ctx.db;
  const timeZone = ctx.config.timeZone;
  const establishment = await establishmentOf(conn, q.branch_id);
  const branch = (await Names.load(conn, [], [q.branch_id])).branch(q.branch_id);
  if (!branch) throw invalid('branch_id', SUMMARY_MSG.branchMissing);
  if (!establishment) throw invalid('branch_id', SUMMARY_MSG.notEstablishment(branch.name));
  const [outageRows, uses] = await Promise.all([
    repo.outagesTouching(conn, { branchId: q.branch_id, from: q.from, to: q.to, timeZone }),
    repo.usesInPeriod(conn, { branchId: q.branch_id, from: q.from, to: q.to }),
  ]);
  const naming = await namingOf(conn, q.branch_id, outageRows, uses);
  const outages = outageRows.map((outage) => outageEntry(outage, uses, naming));
  const exceptions = uses.filter((use) => use.state !== 'linked').map((use) => exceptionEntry(use, naming));
  const outageNumbers = outages.reduce((sum, outage) => sum + outage.qty, 0);
  const exceptionNumbers = exceptions.reduce((sum, use) => sum + use.qty, 0);
  const since = establishment.covered ? establishment.e_invoicing_since : null;
  const countedFrom = since !== null && since > q.from ? since : q.from;
  const ledgerUsed = since === null || countedFrom > q.to ? 0 : await usedNumbersAt(conn, q.branch_id, countedFrom, q.to);
  const { branch_id: _branchId, ...facts } = establishment;
  return {
    establishment: { branch, ...facts },
    period: { from: q.from, to: q.to, time_zone: timeZone },
    outages,
    exceptions,
    totals: {
      outage_numbers: outageNumbers,
      exception_numbers: exceptionNumbers,
      total: outageNumbers + exceptionNumbers,
      ledger_used: ledgerUsed,
      matches: outageNumbers + exceptionNumbers === ledgerUsed,
    },
  };
}

/** One line of the summary's CSV and .xlsx: a paper range of an outage or an exception, or one of the totals. */
export interface SummaryLine {
  section: string;
  window: string;
  cause: string;
  declaredBy: string;
  range: Range | null;
  replacements: string;
  pending: number | '';
  state: string;
  reason: string;
  decidedBy: string;
  total: number | null;
}

const STATE_TEXT: Record<string, string> = { linked: 'Linked', open: 'Open', justified: 'Justified', rejected: 'Rejected' };

/** "05 Jan 2027 09:30 – 05 Jan 2027 12:00", or "… – open" while the outage goes on. */
export function windowText(outage: { starts_at: string; ends_at: string | null }, timeZone: string): string {
  return `${dayTimeText(outage.starts_at, timeZone)} \u2013 ${outage.ends_at ? dayTimeText(outage.ends_at, timeZone) : 'open'}`;
}

/** The summary as the file's lines: each outage's ranges (its replacements on its first line), the exceptions, the totals. */
export function summaryLines(summary: PaperUseSummary, timeZone: string): SummaryLine[] {
  const empty = {
    window: '',
    cause: '',
    declaredBy: '',
    range: null,
    replacements: '',
    pending: '' as const,
    state: '',
    reason: '',
    decidedBy: '',
  };
  const lines: SummaryLine[] = [];
  for (const outage of summary.outages) {
    const head = {
      ...empty,
      section: `Outage #${outage.id}`,
      window: windowText(outage, timeZone),
      cause: outage.cause_label,
      declaredBy: outage.declared_by.name,
      state: STATE_TEXT.linked,
      total: null,
    };
    const replacements = outage.replacements
      .map((r) => `${r.paper_number}: ${r.einvoice_number} (${calendarDayText(r.transmitted_on)})`)
      .join('; ');
    if (outage.ranges.length === 0) lines.push({ ...head, replacements, pending: outage.pending });
    outage.ranges.forEach((range, i) =>
      lines.push({ ...head, range, replacements: i === 0 ? replacements : '', pending: i === 0 ? outage.pending : '' }),
    );
  }
  for (const use of summary.exceptions)
    lines.push({
      ...empty,
      section: 'Exception',
      range: use,
      state: STATE_TEXT[use.state],
      reason: [use.reason_label, use.reason_text].filter(Boolean).join(': '),
      decidedBy: use.decided_by ? `${use.decided_by.name}${use.decided_at ? `, ${dayTimeText(use.decided_at, timeZone)}` : ''}` : '',
      total: null,
    });
  const { totals } = summary;
  lines.push(
    { ...empty, section: 'Total used during outages', total: totals.outage_numbers },
    { ...empty, section: 'Total exceptions', total: totals.exception_numbers },
    { ...empty, section: 'Total paper numbers used', total: totals.total },
    { ...empty, section: 'Ledger: numbers used at the establishment', total: totals.ledger_used },
  );
  return lines;
}

/** The file's columns: the screen has none of its own, so these follow the PDF's wording. */
export function summaryColumns(summary: PaperUseSummary, timeZone: string): ListColumn<SummaryLine>[] {
  const place = `${summary.establishment.branch.name} (BIR branch ${summary.establishment.bir_branch_code})`;
  return [
    { key: 'establishment', header: 'Establishment', text: () => place },
    { key: 'section', header: 'Section', text: (line) => line.section },
    { key: 'window', header: 'Outage window', text: (line) => line.window },
    { key: 'cause', header: 'Cause', text: (line) => line.cause },
    { key: 'declared_by', header: 'Declared by', text: (line) => line.declaredBy },
    { key: 'route', header: 'Route', text: (line) => line.range?.route.name ?? '' },
    { key: 'pad', header: 'Pad', type: 'number', text: (line) => line.range?.pad.number ?? '' },
    { key: 'from', header: 'From', type: 'number', text: (line) => line.range?.from ?? '' },
    { key: 'to', header: 'To', type: 'number', text: (line) => line.range?.to ?? '' },
    { key: 'qty', header: 'Count', type: 'number', text: (line) => line.range?.qty ?? line.total ?? '' },
    {
      key: 'used_at',
      header: 'Used at',
      type: 'datetime',
      text: (line) => (line.range ? dayTimeText(line.range.used_at, timeZone) : ''),
      at: (line) => (line.range ? wallClockInZone(line.range.used_at, timeZone) : null),
    },
    { key: 'holder', header: 'Holder', text: (line) => (line.range ? (line.range.holder?.name ?? 'Branch stock') : '') },
    { key: 'replacements', header: 'Replacement e-invoices', text: (line) => line.replacements },
    { key: 'pending', header: 'Pending', type: 'number', text: (line) => line.pending },
    { key: 'state', header: 'State', text: (line) => line.state },
    { key: 'reason', header: 'Decision reason', text: (line) => line.reason },
    { key: 'decided_by', header: 'Decided by', text: (line) => line.decidedBy },
  ];
}

/** The lines in one batch: a summary is read whole before its file is written. */
export const summarySource =
  (lines: SummaryLine[]): RowSource<SummaryLine> =>
  async (write) => {
    if (lines.length > 0) await write(lines);
  };
