import { calendarDayText, numberRange } from '../../../shared/format.ts';
import { can, type Actor, type RaafHolderForRules } from '../../../shared/permissions.ts';
import { LEDGER_MSG, type Raaf, type RaafRollup, type RaafRouteRow, type RaafSummary } from '../../../shared/schemas/ledger.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { csvCell } from '../../lib/csv.ts';
import { conflict, forbidden, invalid } from '../../lib/errors.ts';
import type { Pdf } from '../../lib/pdf/document.ts';
import { renderRaafPdf } from '../../lib/pdf/raaf-pdf.ts';
import { invoicesInTransitAt } from '../invoices/read-model.ts';
import { operatorIdentity } from '../settings/read-model.ts';
import { routeInfos, type RouteInfo } from '../routes/read-model.ts';
import { Names } from '../users/read-model.ts';
import { idsInBranch } from '../users/read-model.ts';
import { rangesQty } from './fold.ts';
import { foldMonth, monthBounds, type RaafSource } from './month-balances.ts';
import { assertLedgerMonth } from './months.ts';
import { addByKind, holderKeyFor, holderOfKey, layeredRuns, type RaafCells, type RaafRemark, type Ranges } from './raaf-fold.ts';
import { certificatesOfMonth, findCertificate, undoneOriginals } from './read-model.ts';
import * as repo from './repo.ts';
import { undoneRuns, type UndoneOriginal, type UndoneRun } from './undone-runs.ts';

export interface Holder extends RaafHolderForRules {
  name: string;
  branch: { id: number; name: string } | null;
}

/** The holder a query or a certification names: a user (with their branch) or a branch's own stock. */
export async function resolveHolder(ctx: AppContext, input: { user_id?: number; branch_id?: number }): Promise<Holder> {
  if (input.user_id !== undefined) {
    const names = await Names.load(ctx.db, [input.user_id], []);
    const person = names.person(input.user_id);
    if (!person) throw invalid('user_id', LEDGER_MSG.userMissing);
    const branch = names.branchOfUser(input.user_id);
    return { type: 'user', id: person.id, name: person.full_name, branch, branch_id: branch?.id ?? null };
  }
  const branchId = input.branch_id ?? 0;
  const branch = (await Names.load(ctx.db, [], [branchId])).branch(branchId);
  if (!branch) throw invalid('branch_id', LEDGER_MSG.branchMissing);
  return { type: 'branch', id: branch.id, name: branch.name, branch, branch_id: branch.id };
}

export const holderFilter = (holder: { type: 'user' | 'branch'; id: number }) =>
  holder.type === 'user' ? { userId: holder.id } : { branchId: holder.id };

const ORIGINAL_VERB: Record<string, string> = { used: 'marked used', cancelled: 'cancelled', lost: 'reported lost', voided: 'voided' };

/**
 * docs/raaf-rules.md: a number back in stock says what happened and who recorded the outcome it undoes and
 * when; "correction" only when that outcome was recorded in an earlier month.
 */
function undoneText(remark: RaafRemark, original: UndoneOriginal | undefined, monthStart: string, names: Names): string {
  const range = numberRange(remark.from, remark.to);
  const qty = remark.to - remark.from + 1;
  const earlier = original !== undefined && original.business_date < monthStart;
  if (remark.eventKind === 'used_reverted' && (earlier || !original))
    return `Correction: ${range} (${qty}) unmarked, used in an earlier month`;
  const by = original
    ? `; ${ORIGINAL_VERB[original.kind] ?? original.kind} by ${names.person(original.actor_user_id)?.full_name ?? 'unknown'} on ${calendarDayText(original.business_date)}`
    : '';
  const what =
    remark.eventKind === 'used_reverted'
      ? `${range} (${qty}) unmarked`
      : remark.eventKind === 'cancel_reverted'
        ? `${range} (${qty}) cancellation undone: ${remark.reason ?? 'no reason given'}`
        : remark.eventKind === 'found'
          ? `${range} (${qty}) found${original?.incident_number ? ` (${original.incident_number})` : ''}: ${remark.reason ?? 'no reason given'}`
          : `${range} (${qty}) ${(remark.reason ?? 'reinstated').toLowerCase()}`;
  return `${earlier && remark.eventKind !== 'found' ? 'Correction: ' : ''}${what}${by}`;
}

/** A remark's lines: one, or for an undo one per run of numbers whose originals read alike (`undoneRuns`). */
function remarkTexts(remark: RaafRemark, names: Names, undone: Map<RaafRemark, UndoneRun[]>, monthStart: string): string[] {
  const range = numberRange(remark.from, remark.to);
  const qty = remark.to - remark.from + 1;
  switch (remark.kind) {
    case 'transfer_out':
      return [
        `Transferred ${range} (${qty}) to ${names.holderText(remark.counterpartyUserId, remark.counterpartyBranchId)} on invoice #${remark.invoiceId ?? '-'}`,
      ];
    case 'cancelled':
      return [`Cancelled ${range} (${qty}): ${remark.reason ?? 'no reason given'}`];
    case 'lost':
      return [`Lost ${range} (${qty}): ${remark.reason ?? 'no reason given'}`];
    case 'voided':
      return [`Voided ${range} (${qty}): ${remark.reason ?? 'pad deleted'}`];
    case 'opening':
      return [`${remark.reason ?? 'Opening balance'}: ${range} (${qty}) received at go-live`];
    case 'undone':
      return (undone.get(remark) ?? [{ from: remark.from, to: remark.to, original: undefined }]).map((run) =>
        undoneText({ ...remark, from: run.from, to: run.to }, run.original, monthStart, names),
      );
  }
}

/** The month's undo remarks cut by the originals of their numbers, looked up once per remark. */
async function undoneRunsOf(ctx: AppContext, remarks: RaafRemark[]): Promise<Map<RaafRemark, UndoneRun[]>> {
  const runs = new Map<RaafRemark, UndoneRun[]>();
  for (const remark of remarks) {
    if (remark.kind === 'undone' && remark.padId !== undefined && remark.seq !== undefined) {
      const originals = await undoneOriginals(ctx.db, remark.padId, remark.seq, remark.from, remark.to);
      runs.set(remark, undoneRuns(remark.from, remark.to, originals));
    }
  }
  return runs;
}

const group = (ranges: Ranges) => ({ qty: rangesQty(ranges), ranges });

function totalsOf(rows: Array<Record<'beginning' | 'receipt' | 'issued' | 'ending', { qty: number }>>) {
  return rows.reduce(
    (sum, row) => ({
      beginning: sum.beginning + row.beginning.qty,
      receipt: sum.receipt + row.receipt.qty,
      issued: sum.issued + row.issued.qty,
      ending: sum.ending + row.ending.qty,
    }),
    { beginning: 0, receipt: 0, issued: 0, ending: 0 },
  );
}

const overlap = (from: number, to: number, ranges: Ranges) =>
  ranges.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(to, b) - Math.max(from, a) + 1), 0);

export function certificateRef(row: repo.CertificateRow | undefined) {
  return row
    ? { id: row.id, number: row.number, certified_at: row.certified_at.toISOString(), reviewed_at: row.reviewed_at?.toISOString() ?? null }
    : null;
}

function orderedRoutes<V, T>(routes: Map<number, RouteInfo>, byRoute: Map<number, V>, make: (route: RouteInfo, value: V) => T): T[] {
  return [...byRoute]
    .flatMap(([id, value]) => {
      const route = routes.get(id);
      return route ? [{ id, route, value }] : [];
    })
    .sort((a, b) => a.route.company.name.localeCompare(b.route.company.name) || a.route.name.localeCompare(b.route.name) || a.id - b.id)
    .map(({ route, value }) => make(route, value));
}

/** One holder's RAAF for a month, computed from the ledger; refuses (409) to answer one that does not balance. */
export async function computeRaaf(ctx: AppContext, holder: Holder, month: string, source: RaafSource = 'balances'): Promise<Raaf> {
  const { start, end } = monthBounds(month);
  const folded = (await foldMonth(ctx, month, holderFilter(holder), source)).get(holderKeyFor(holder)) ?? new Map<number, RaafCells>();
  if ([...folded.values()].some((cells) => !cells.balanced)) throw conflict(LEDGER_MSG.unbalanced);
  const routes = new Map((await routeInfos(ctx.db, [...folded.keys()])).map((route) => [route.id, route]));
  const transit = (await invoicesInTransitAt(ctx.db, end, ctx.config.timeZone))
    .map((row) => ({ ...row, qty: overlap(row.series_from, row.series_to, folded.get(row.route_id)?.ending ?? []) }))
    .filter((row) => row.qty > 0);
  const remarks = [...folded.values()].flatMap((cells) => cells.remarks);
  const undone = await undoneRunsOf(ctx, remarks);
  const names = await Names.load(
    ctx.db,
    [
      ...remarks.map((r) => r.counterpartyUserId),
      ...transit.map((row) => row.assigned_user_id),
      ...[...undone.values()].flat().map((run) => run.original?.actor_user_id ?? null),
    ],
    remarks.map((r) => r.counterpartyBranchId),
  );
  const inTransit = new Map<number, { invoice_id: number; courier: string | null; qty: number; routes: Set<number> }>();
  for (const row of transit) {
    const entry = inTransit.get(row.invoice_id) ?? {
      invoice_id: row.invoice_id,
      courier: names.person(row.assigned_user_id)?.full_name ?? null,
      qty: 0,
      routes: new Set<number>(),
    };
    entry.qty += row.qty;
    entry.routes.add(row.route_id);
    inTransit.set(row.invoice_id, entry);
  }
  const rows = orderedRoutes(routes, folded, (route, cells) => {
    const memos = [...inTransit.values()]
      .filter((entry) => entry.routes.has(route.id))
      .map(
        (entry) =>
          `In transit at month end on invoice #${entry.invoice_id}${entry.courier ? ` with ${entry.courier}` : ''}: still on this holder's Ending`,
      );
    return {
      route: { id: route.id, name: route.name, tin: route.tin, company: route.company.name },
      beginning: group(cells.beginning),
      receipt: group(cells.receipt),
      issued: { ...group(cells.issued), by_kind: cells.byKind },
      ending: group(cells.ending),
      remarks: [...cells.remarks.flatMap((remark) => remarkTexts(remark, names, undone, start)), ...memos],
    };
  });
  return {
    month,
    holder: { type: holder.type, id: holder.id, name: holder.name, branch: holder.branch },
    rows,
    totals: totalsOf(rows),
    balanced: true,
    in_transit: [...inTransit.values()].map(({ invoice_id, courier, qty }) => ({ invoice_id, courier, qty })),
    certificate: certificateRef(await findCertificate(ctx.db, month, holder.type, holder.id)),
  };
}

/** GET raaf: the read rule of docs/design.md §8 first, then the report. */
export async function raafFor(
  ctx: AppContext,
  actor: Actor,
  query: { month: string; user_id?: number; branch_id?: number },
): Promise<Raaf> {
  const holder = await resolveHolder(ctx, query);
  if (!can(actor, 'raaf.read', holder)) throw forbidden();
  await assertLedgerMonth(ctx, query.month);
  return computeRaaf(ctx, holder, query.month);
}

type CsvRow = Pick<RaafRouteRow, 'route' | 'beginning' | 'receipt' | 'issued' | 'ending'> & { remarks?: string[] };

/** One line per route and range group: line i shows the i-th range of every column group. */
export function raafCsv(rows: CsvRow[]): string {
  const header = ['Company', 'Route', 'TIN'];
  for (const label of ['Beginning', 'Receipt', 'Issued', 'Ending']) header.push(`${label} Qty`, `${label} From`, `${label} To`);
  header.push('Remarks');
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) {
    const groups = [row.beginning, row.receipt, row.issued, row.ending];
    const height = Math.max(1, ...groups.map((g) => g.ranges.length));
    for (let i = 0; i < height; i += 1) {
      const cells: Array<string | number> = [row.route.company, row.route.name, row.route.tin];
      for (const g of groups) {
        const range = g.ranges[i];
        cells.push(range ? range[1] - range[0] + 1 : i === 0 ? 0 : '', range ? range[0] : '', range ? range[1] : '');
      }
      cells.push(i === 0 ? (row.remarks ?? []).join('; ') : '');
      lines.push(cells.map(csvCell).join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The COA Appendix 67 PDF of a report, with the certificate's number once certified; not drawn yet, so a download
 * can stream it page by page and a certificate can freeze it whole.
 */
export async function raafPdf(
  ctx: AppContext,
  raaf: Raaf,
  certificate: { number: string; certifiedAt: Date } | null = null,
  conn: Conn = ctx.db,
): Promise<Pdf> {
  const operator = await operatorIdentity(conn);
  return renderRaafPdf({ raaf, certificate, timeZone: ctx.config.timeZone, generatedAt: new Date(), operator });
}

/**
 * The consolidated report or a branch roll-up drawn on the RAAF layout: its holders as one, without remarks, prepared
 * by whoever prints it rather than signed by one accountable officer.
 */
export async function summaryPdf(ctx: AppContext, summary: RaafSummary | RaafRollup): Promise<Pdf> {
  const name = 'branch' in summary ? `${summary.branch.name} (branch roll-up: stock and staff)` : 'All holders (consolidated)';
  const raaf: Raaf = {
    month: summary.month,
    totals: summary.totals,
    holder: { type: 'branch', id: 'branch' in summary ? summary.branch.id : 0, name, branch: null },
    rows: summary.rows.map((row) => ({ ...row, remarks: [] })),
    balanced: true,
    in_transit: [],
    certificate: null,
  };
  const operator = await operatorIdentity(ctx.db);
  return renderRaafPdf({ raaf, certificate: null, timeZone: ctx.config.timeZone, generatedAt: new Date(), operator, summary: true });
}

/** The consolidated RAAF: per route over every holder, and per holder their totals and certificate. */
export async function summary(ctx: AppContext, month: string, source: RaafSource = 'balances'): Promise<RaafSummary> {
  await assertLedgerMonth(ctx, month);
  return { month, ...(await combined(ctx, month, await foldMonth(ctx, month, null, source))) };
}

/**
 * GET raaf with rollup: a branch head or auditor sees the branch's stock and all its staff in one report, the same
 * sums as adding up each holder's RAAF; only for whoever may read every one of those RAAFs.
 */
export async function rollupFor(ctx: AppContext, actor: Actor, query: { month: string; branch_id: number }): Promise<RaafRollup> {
  const branch = await resolveHolder(ctx, { branch_id: query.branch_id });
  if (!can(actor, 'raaf.rollup', { branch_id: branch.id })) throw forbidden();
  await assertLedgerMonth(ctx, query.month);
  return rollup(ctx, branch, query.month);
}

/** The branch roll-up of a month: the branch's stock and its users' RAAFs folded together and summed per route. */
export async function rollup(ctx: AppContext, branch: Holder, month: string, source: RaafSource = 'balances'): Promise<RaafRollup> {
  const userIds = await idsInBranch(ctx.db, branch.id);
  const folded = await foldMonth(ctx, month, { branchId: branch.id, userIds }, source);
  return { month, rollup: true, branch: { id: branch.id, name: branch.name }, ...(await combined(ctx, month, folded)) };
}

/** One route's column groups of every holder, before the ranges are layered together. */
interface RouteSums {
  beginning: Ranges[];
  receipt: Ranges[];
  issued: Ranges[];
  ending: Ranges[];
  qty: number[];
  byKind: RaafCells['byKind'];
}

type HolderTotals = Array<{ key: string; totals: ReturnType<typeof totalsOf> }>;

/** The holders' folds summed per route, and each holder's own totals; an unbalanced fold refuses the whole report. */
function sumByRoute(folded: Map<string, Map<number, RaafCells>>): { byRoute: Map<number, RouteSums>; holderTotals: HolderTotals } {
  const byRoute = new Map<number, RouteSums>();
  const holderTotals: HolderTotals = [];
  for (const [key, routesOfHolder] of folded) {
    const rows = [];
    for (const [routeId, cells] of routesOfHolder) {
      if (!cells.balanced) throw conflict(LEDGER_MSG.unbalanced);
      const acc = byRoute.get(routeId) ?? {
        beginning: [],
        receipt: [],
        issued: [],
        ending: [],
        qty: [0, 0, 0, 0],
        byKind: { used: 0, cancelled: 0, lost: 0, transferred: 0 },
      };
      const groups = [cells.beginning, cells.receipt, cells.issued, cells.ending];
      groups.forEach((ranges, i) => {
        acc.qty[i] += rangesQty(ranges);
      });
      acc.beginning.push(cells.beginning);
      acc.receipt.push(cells.receipt);
      acc.issued.push(cells.issued);
      acc.ending.push(cells.ending);
      addByKind(acc.byKind, cells.byKind);
      byRoute.set(routeId, acc);
      rows.push({
        beginning: group(cells.beginning),
        receipt: group(cells.receipt),
        issued: group(cells.issued),
        ending: group(cells.ending),
      });
    }
    holderTotals.push({ key, totals: totalsOf(rows) });
  }
  return { byRoute, holderTotals };
}

/** Each holder named, with their totals and the month's certificate, users first, then by name. */
async function namedHolders(ctx: AppContext, month: string, holderTotals: HolderTotals) {
  const keyed = holderTotals.map((h) => ({ ...h, ...holderOfKey(h.key) }));
  const names = await Names.load(
    ctx.db,
    keyed.filter((h) => h.type === 'user').map((h) => h.id),
    keyed.filter((h) => h.type === 'branch').map((h) => h.id),
  );
  const certificates = new Map(
    (await certificatesOfMonth(ctx.db, month)).map((row) => [
      // -- raaf_certificates_holder_type_ck holds the text column to 'user' | 'branch'.
      holderKeyFor({ type: row.holder_type as 'user' | 'branch', id: row.holder_id }),
      row,
    ]),
  );
  return keyed
    .map(({ key, totals, type, id: holderId }) => {
      const holder =
        type === 'user'
          ? {
              type: 'user' as const,
              id: holderId,
              name: names.person(holderId)?.full_name ?? `user #${holderId}`,
              branch: names.branchOfUser(holderId),
            }
          : {
              type: 'branch' as const,
              id: holderId,
              name: names.branch(holderId)?.name ?? `branch #${holderId}`,
              branch: names.branch(holderId),
            };
      return { holder, totals, certificate: certificateRef(certificates.get(key)) };
    })
    .sort((a, b) => a.holder.type.localeCompare(b.holder.type) || a.holder.name.localeCompare(b.holder.name));
}

/** Per route the holders' four column groups summed (ranges layered), and per holder their totals and certificate. */
async function combined(ctx: AppContext, month: string, folded: Map<string, Map<number, RaafCells>>): Promise<Omit<RaafSummary, 'month'>> {
  const { byRoute, holderTotals } = sumByRoute(folded);
  const routes = new Map((await routeInfos(ctx.db, [...byRoute.keys()])).map((route) => [route.id, route]));
  const rows = orderedRoutes(routes, byRoute, (route, acc) => {
    const merged = (list: Ranges[], qty: number) => ({ qty, ranges: layeredRuns(list.flat()) });
    return {
      route: { id: route.id, name: route.name, tin: route.tin, company: route.company.name },
      beginning: merged(acc.beginning, acc.qty[0]),
      receipt: merged(acc.receipt, acc.qty[1]),
      issued: { ...merged(acc.issued, acc.qty[2]), by_kind: acc.byKind },
      ending: merged(acc.ending, acc.qty[3]),
    };
  });
  return { rows, totals: totalsOf(rows), holders: await namedHolders(ctx, month, holderTotals) };
}
