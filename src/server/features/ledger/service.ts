import { fullName, seriesRange } from '../../../shared/format.ts';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { can, type Actor, type RaafHolderForRules } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  LEDGER_MSG,
  type CertificateListQuery,
  type CertifyRaafInput,
  type PadEvent,
  type PadHistory,
  type Raaf,
  type RaafCertificate,
  type RaafRouteRow,
  type RaafSummary,
  type ReceiptFinding,
} from '../../../shared/schemas/ledger.ts';
import type { AppContext } from '../../context.ts';
import { sqlState } from '../../db/client.ts';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { renderRaafPdf } from '../../lib/pdf/raaf-pdf.ts';
import { signedQueryFor, urlKey, verifySigned, type SignedQuery } from '../../lib/signed-url.ts';
import { rangesQty } from './fold.ts';
import { foldRaaf, holderKeyOf, layeredRuns, type RaafCells, type RaafRemark, type Ranges } from './raaf-fold.ts';
import * as repo from './repo.ts';
import { businessDate } from './writer.ts';

const UNIQUE_VIOLATION = '23505';

/** Names of the people and branches a set of events or remarks mention, looked up once. */
class Names {
  private users = new Map<number, repo.PersonRow>();
  private branches = new Map<number, string>();

  static async load(ctx: AppContext, userIds: Array<number | null>, branchIds: Array<number | null>): Promise<Names> {
    const names = new Names();
    const wantUsers = [...new Set(userIds.filter((id): id is number => id !== null))];
    for (const person of await repo.people(ctx.db, wantUsers)) names.users.set(person.id, person);
    const wantBranches = [...new Set([...branchIds, ...[...names.users.values()].map((u) => u.branch_id)].filter((id): id is number => id !== null))];
    for (const branch of await repo.branchNames(ctx.db, wantBranches)) names.branches.set(branch.id, branch.name);
    return names;
  }

  person(id: number | null) {
    const row = id === null ? undefined : this.users.get(id);
    return row ? { id: row.id, full_name: fullName(row) } : null;
  }

  branch(id: number | null) {
    const name = id === null ? undefined : this.branches.get(id);
    return name === undefined || id === null ? null : { id, name };
  }

  branchOfUser(id: number) {
    return this.branch(this.users.get(id)?.branch_id ?? null);
  }

  /** "Ana Cruz (Batangas)" for a user, "Batangas" for a branch's own stock. */
  holderText(userId: number | null, branchId: number | null): string {
    if (userId !== null) {
      const person = this.person(userId);
      const branch = this.branch(branchId);
      return `${person?.full_name ?? `user #${userId}`}${branch ? ` (${branch.name})` : ''}`;
    }
    return this.branch(branchId)?.name ?? (branchId === null ? 'no holder' : `branch #${branchId}`);
  }
}

function eventDto(event: repo.PadEventRow, names: Names): PadEvent {
  return {
    id: event.id,
    kind: event.kind as PadEvent['kind'],
    from_number: event.from_number,
    to_number: event.to_number,
    qty: event.qty,
    holder_user: names.person(event.holder_user_id),
    holder_branch: names.branch(event.holder_branch_id),
    counterparty_user: names.person(event.counterparty_user_id),
    counterparty_branch: names.branch(event.counterparty_branch_id),
    invoice_id: event.invoice_id,
    actor: names.person(event.actor_user_id),
    reason: event.reason,
    recorded_at: event.recorded_at.toISOString(),
    business_date: event.business_date,
  };
}

async function eventsWithNames(ctx: AppContext, events: repo.PadEventRow[], extraUsers: Array<number | null> = [], extraBranches: Array<number | null> = []) {
  const names = await Names.load(
    ctx,
    [...events.flatMap((e) => [e.holder_user_id, e.counterparty_user_id, e.actor_user_id]), ...extraUsers],
    [...events.flatMap((e) => [e.holder_branch_id, e.counterparty_branch_id]), ...extraBranches],
  );
  return { names, events: events.map((event) => eventDto(event, names)) };
}

async function inTransitOf(ctx: AppContext, pad: repo.PadView, names: Names) {
  if (pad.locked_by_invoice_id === null) return null;
  const invoice = await repo.invoiceSummary(ctx.db, pad.locked_by_invoice_id);
  if (!invoice) return null;
  const courierNames = invoice.assigned_user_id === null ? names : await Names.load(ctx, [invoice.assigned_user_id], []);
  return { id: invoice.id, invoice_type: { id: invoice.type_id, name: invoice.type_name }, assigned_user: courierNames.person(invoice.assigned_user_id) };
}

/** Pad Details' "Held by" and History: the pad's whole chain of events, oldest first, with names. */
export async function padHistory(ctx: AppContext, padId: number): Promise<PadHistory> {
  const pad = await repo.padRow(ctx.db, padId);
  if (!pad) throw notFound('Pad not found.');
  const [route] = await repo.routeInfos(ctx.db, [pad.route_id]);
  const { names, events } = await eventsWithNames(ctx, await repo.padEventsOf(ctx.db, padId), [pad.holder_user_id], [pad.holder_branch_id]);
  return {
    pad: { id: pad.id, number: pad.number, series_number: seriesRange(pad.series_from, pad.series_to), route },
    holder: { user: names.person(pad.holder_user_id), branch: names.branch(pad.holder_branch_id) },
    in_transit_invoice: await inTransitOf(ctx, pad, names),
    events,
  };
}

function receiptStatus(pad: repo.PadView, receipt: number): ReceiptFinding['status'] {
  if (pad.series_status.charCodeAt(receipt - pad.series_from) === 50) return 'used';
  if (pad.pad_status_id === PAD_STATUS.CANCELLED) return 'cancelled';
  if (pad.pad_status_id === PAD_STATUS.LOST) return 'lost';
  return 'not_used';
}

/** "Where is receipt N": one answer per route whose pads contain N, with that number's own events. */
export async function findReceipt(ctx: AppContext, query: { number: number; route_id?: number }): Promise<ReceiptFinding[]> {
  const found = await repo.padsContaining(ctx.db, query.number, query.route_id);
  const routes = new Map((await repo.routeInfos(ctx.db, [...new Set(found.map((pad) => pad.route_id))])).map((route) => [route.id, route]));
  const answers: ReceiptFinding[] = [];
  for (const pad of found) {
    const route = routes.get(pad.route_id);
    if (!route) continue;
    const { names, events } = await eventsWithNames(ctx, await repo.padEventsOf(ctx.db, pad.id, query.number), [pad.holder_user_id], [pad.holder_branch_id]);
    answers.push({
      route,
      pad: { id: pad.id, number: pad.number, series_number: seriesRange(pad.series_from, pad.series_to) },
      status: receiptStatus(pad, query.number),
      holder: { user: names.person(pad.holder_user_id), branch: names.branch(pad.holder_branch_id) },
      in_transit_invoice: await inTransitOf(ctx, pad, names),
      events,
    });
  }
  return answers;
}

export interface Holder extends RaafHolderForRules {
  name: string;
  branch: { id: number; name: string } | null;
}

/** The holder a query or a certification names: a user (with their branch) or a branch's own stock. */
export async function resolveHolder(ctx: AppContext, input: { user_id?: number; branch_id?: number }): Promise<Holder> {
  if (input.user_id !== undefined) {
    const names = await Names.load(ctx, [input.user_id], []);
    const person = names.person(input.user_id);
    if (!person) throw invalid('user_id', LEDGER_MSG.userMissing);
    const branch = names.branchOfUser(input.user_id);
    return { type: 'user', id: person.id, name: person.full_name, branch, branch_id: branch?.id ?? null };
  }
  const branchId = input.branch_id ?? 0;
  const branch = (await Names.load(ctx, [], [branchId])).branch(branchId);
  if (!branch) throw invalid('branch_id', LEDGER_MSG.branchMissing);
  return { type: 'branch', id: branch.id, name: branch.name, branch, branch_id: branch.id };
}

const holderFilter = (holder: { type: 'user' | 'branch'; id: number }) => (holder.type === 'user' ? { userId: holder.id } : { branchId: holder.id });

/** The month [S, E) as business dates in APP_TIMEZONE. */
export function monthBounds(month: string): { start: string; end: string } {
  const [year, monthNo] = month.split('-').map(Number);
  const next = monthNo === 12 ? `${year + 1}-01` : `${year}-${String(monthNo + 1).padStart(2, '0')}`;
  return { start: `${month}-01`, end: `${next}-01` };
}

const rangeText = ([from, to]: [number, number]) => (from === to ? `${from}` : `${from}-${to}`);

function remarkText(remark: RaafRemark, names: Names): string {
  const range = rangeText([remark.from, remark.to]);
  const qty = remark.to - remark.from + 1;
  switch (remark.kind) {
    case 'transfer_out':
      return `Transferred ${range} (${qty}) to ${names.holderText(remark.counterpartyUserId, remark.counterpartyBranchId)} on invoice #${remark.invoiceId ?? '-'}`;
    case 'cancelled':
      return `Cancelled ${range} (${qty}): ${remark.reason ?? 'no reason given'}`;
    case 'lost':
      return `Lost ${range} (${qty}): ${remark.reason ?? 'no reason given'}`;
    case 'correction':
      return `Correction: ${range} (${qty}) unmarked, used in an earlier month`;
  }
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

const overlap = (from: number, to: number, ranges: Ranges) => ranges.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(to, b) - Math.max(from, a) + 1), 0);

function certificateRef(row: repo.CertificateRow | undefined) {
  return row ? { id: row.id, number: row.number, certified_at: row.certified_at.toISOString(), reviewed_at: row.reviewed_at?.toISOString() ?? null } : null;
}

function orderedRoutes<T>(routes: Map<number, repo.RouteInfo>, ids: Iterable<number>, make: (route: repo.RouteInfo, id: number) => T): T[] {
  return [...ids]
    .filter((id) => routes.has(id))
    .sort((a, b) => {
      const ra = routes.get(a) as repo.RouteInfo;
      const rb = routes.get(b) as repo.RouteInfo;
      return ra.company.name.localeCompare(rb.company.name) || ra.name.localeCompare(rb.name) || a - b;
    })
    .map((id) => make(routes.get(id) as repo.RouteInfo, id));
}

/** One holder's RAAF for a month, computed from the ledger; refuses (409) to answer one that does not balance. */
export async function computeRaaf(ctx: AppContext, holder: Holder, month: string): Promise<Raaf> {
  const { start, end } = monthBounds(month);
  const folded = foldRaaf(await repo.raafEvents(ctx.db, end, holderFilter(holder)), start).get(holderKeyOf(holder.type === 'user' ? holder.id : null, holder.id)) ?? new Map<number, RaafCells>();
  if ([...folded.values()].some((cells) => !cells.balanced)) throw conflict(LEDGER_MSG.unbalanced);
  const routes = new Map((await repo.routeInfos(ctx.db, [...folded.keys()])).map((route) => [route.id, route]));
  const transit = (await repo.invoicesInTransitAt(ctx.db, end, ctx.config.timeZone))
    .map((row) => ({ ...row, qty: overlap(row.series_from, row.series_to, folded.get(row.route_id)?.ending ?? []) }))
    .filter((row) => row.qty > 0);
  const remarks = [...folded.values()].flatMap((cells) => cells.remarks);
  const names = await Names.load(
    ctx,
    [...remarks.map((r) => r.counterpartyUserId), ...transit.map((row) => row.assigned_user_id)],
    remarks.map((r) => r.counterpartyBranchId),
  );
  const inTransit = new Map<number, { invoice_id: number; courier: string | null; qty: number; routes: Set<number> }>();
  for (const row of transit) {
    const entry = inTransit.get(row.invoice_id) ?? { invoice_id: row.invoice_id, courier: names.person(row.assigned_user_id)?.full_name ?? null, qty: 0, routes: new Set<number>() };
    entry.qty += row.qty;
    entry.routes.add(row.route_id);
    inTransit.set(row.invoice_id, entry);
  }
  const rows = orderedRoutes(routes, folded.keys(), (route, id) => {
    const cells = folded.get(id) as RaafCells;
    const memos = [...inTransit.values()]
      .filter((entry) => entry.routes.has(id))
      .map((entry) => `In transit at month end on invoice #${entry.invoice_id}${entry.courier ? ` with ${entry.courier}` : ''}: still on this holder's Ending`);
    return {
      route: { id: route.id, name: route.name, tin: route.tin, company: route.company.name },
      beginning: group(cells.beginning),
      receipt: group(cells.receipt),
      issued: { ...group(cells.issued), by_kind: cells.byKind },
      ending: group(cells.ending),
      remarks: [...cells.remarks.map((remark) => remarkText(remark, names)), ...memos],
    };
  });
  return {
    month,
    holder: { type: holder.type, id: holder.id, name: holder.name, branch: holder.branch },
    rows,
    totals: totalsOf(rows),
    balanced: true,
    in_transit: [...inTransit.values()].map(({ invoice_id, courier, qty }) => ({ invoice_id, courier, qty })),
    certificate: certificateRef(await repo.findCertificate(ctx.db, month, holder.type, holder.id)),
  };
}

/** GET raaf: issue 13's read rule first, then the report. */
export async function raafFor(ctx: AppContext, actor: Actor, query: { month: string; user_id?: number; branch_id?: number }): Promise<Raaf> {
  const holder = await resolveHolder(ctx, query);
  if (!can(actor, 'raaf.read', holder)) throw forbidden();
  return computeRaaf(ctx, holder, query.month);
}

const csvCell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

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

export async function raafPdf(ctx: AppContext, raaf: Raaf, certificate: { number: string; certifiedAt: Date } | null): Promise<Buffer> {
  return renderRaafPdf({ raaf, certificate, timeZone: ctx.config.timeZone, generatedAt: new Date() });
}

const keys = new WeakMap<AppContext, Buffer>();
function keyOf(ctx: AppContext): Buffer {
  let key = keys.get(ctx);
  if (!key) {
    key = urlKey(ctx.badgeSecret, 'raaf-pdf-url');
    keys.set(ctx, key);
  }
  return key;
}

const pdfUrl = (ctx: AppContext, certificateId: number, userId: number) =>
  `/api/raaf-certificates/${certificateId}/pdf?${signedQueryFor(keyOf(ctx), `raaf:${certificateId}`, userId)}`;

async function certificateDto(ctx: AppContext, rows: repo.CertificateRow[], viewerId: number): Promise<RaafCertificate[]> {
  const names = await Names.load(
    ctx,
    rows.flatMap((row) => [row.certified_by, row.reviewed_by, row.holder_type === 'user' ? row.holder_id : null]),
    rows.map((row) => (row.holder_type === 'branch' ? row.holder_id : null)),
  );
  return rows.map((row) => {
    const frozen = JSON.parse(row.report_json) as Raaf;
    const holderName = row.holder_type === 'user' ? (names.person(row.holder_id)?.full_name ?? frozen.holder.name) : (names.branch(row.holder_id)?.name ?? frozen.holder.name);
    return {
      ...(certificateRef(row) as NonNullable<ReturnType<typeof certificateRef>>),
      month: row.month,
      holder: { type: row.holder_type as 'user' | 'branch', id: row.holder_id, name: holderName },
      certified_by: names.person(row.certified_by) ?? { id: row.certified_by, full_name: `user #${row.certified_by}` },
      reviewed_by: names.person(row.reviewed_by),
      totals: frozen.totals,
      pdf_url: pdfUrl(ctx, row.id, viewerId),
    };
  });
}

/**
 * The holder signs an ended month: the report is computed once more, rendered, and frozen with the last
 * event hash of every pad it covers, under the month's next number. An ended month never changes (events
 * are never backdated), so the report is computed before the short numbering transaction. The advisory lock numbers
 * certificates without gaps; the unique index refuses a second one for the same holder and month.
 */
export async function certify(ctx: AppContext, actor: Actor, input: CertifyRaafInput): Promise<RaafCertificate> {
  const holder = await resolveHolder(ctx, input);
  if (!can(actor, 'raaf.certify', holder)) throw forbidden(LEDGER_MSG.certifyOwn);
  const { end } = monthBounds(input.month);
  if (businessDate(new Date(), ctx.config.timeZone) < end) throw invalid('month', LEDGER_MSG.monthNotEnded);
  if (await repo.findCertificate(ctx.db, input.month, holder.type, holder.id)) throw conflict(LEDGER_MSG.alreadyCertified);
  const frozen: Raaf = { ...(await computeRaaf(ctx, holder, input.month)), certificate: null };
  const hashes = await repo.lastHashesOnRoutes(ctx.db, end, holderFilter(holder));
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const number = await repo.nextCertificateNumber(tx, input.month);
      if (await repo.findCertificate(tx, input.month, holder.type, holder.id)) throw conflict(LEDGER_MSG.alreadyCertified);
      const certifiedAt = new Date();
      const row = await repo.insertCertificate(tx, {
        number,
        month: input.month,
        holder_type: holder.type,
        holder_id: holder.id,
        report_json: JSON.stringify(frozen),
        pad_hashes: JSON.stringify(hashes.map((h) => [Number(h.pad_id), Number(h.seq), h.hash])),
        pdf: await raafPdf(ctx, frozen, { number, certifiedAt }),
        certified_by: actor.id,
        certified_at: certifiedAt,
      });
      return row.id;
    });
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION) throw conflict(LEDGER_MSG.alreadyCertified);
    throw error;
  }
  const row = await repo.certificateById(ctx.db, id);
  return (await certificateDto(ctx, row ? [row] : [], actor.id))[0];
}

/** Accounting marks a certificate reviewed, once. */
export async function review(ctx: AppContext, actor: Actor, id: number): Promise<RaafCertificate> {
  const row = await repo.certificateById(ctx.db, id);
  if (!row) throw notFound(LEDGER_MSG.certificateMissing);
  if (!(await repo.markReviewed(ctx.db, id, actor.id))) throw conflict(LEDGER_MSG.alreadyReviewed);
  const updated = (await repo.certificateById(ctx.db, id)) as repo.CertificateRow;
  return (await certificateDto(ctx, [updated], actor.id))[0];
}

/** Certificates the actor may read (whose holder's RAAF they may read), newest first. */
export async function listCertificates(ctx: AppContext, actor: Actor, query: CertificateListQuery): Promise<Paginated<RaafCertificate>> {
  const seesAll = can(actor, 'raaf.read', { type: 'branch', id: 0, branch_id: null });
  const branchWide = !seesAll && can(actor, 'raaf.read', { type: 'branch', id: actor.branch_id ?? 0, branch_id: actor.branch_id });
  const scope = seesAll ? null : { userId: actor.id, branchId: branchWide ? actor.branch_id : null };
  const { rows, total } = await repo.listCertificates(ctx.db, { ...query, scope });
  return paginated(await certificateDto(ctx, rows, actor.id), total, query.page, query.per_page);
}

/** The frozen PDF: to a bearer who may read that holder's RAAF, or through a signed short-lived address. */
export async function certificatePdf(ctx: AppContext, id: number, bearer: Actor | null, q: SignedQuery): Promise<{ number: string; pdf: Buffer }> {
  let viewer = bearer;
  if (!viewer) {
    const verified = verifySigned(keyOf(ctx), `raaf:${id}`, q);
    if (!verified.ok) {
      if (verified.reason === 'missing') throw unauthenticated();
      throw forbidden(verified.reason === 'expired' ? 'This link has expired. Open the certificate again.' : 'This link is not valid.');
    }
    viewer = (await repo.activeActor(ctx.db, verified.userId)) ?? null;
    if (!viewer) throw forbidden();
  }
  const row = await repo.certificateById(ctx.db, id);
  if (!row) throw notFound(LEDGER_MSG.certificateMissing);
  const holder = row.holder_type === 'user' ? await resolveHolder(ctx, { user_id: row.holder_id }) : await resolveHolder(ctx, { branch_id: row.holder_id });
  if (!can(viewer, 'raaf.read', holder)) throw forbidden();
  return { number: row.number, pdf: row.pdf };
}

/** The consolidated RAAF: per route over every holder, and per holder their totals and certificate. */
export async function summary(ctx: AppContext, month: string): Promise<RaafSummary> {
  const { start, end } = monthBounds(month);
  const folded = foldRaaf(await repo.raafEvents(ctx.db, end, null), start);
  const byRoute = new Map<number, { beginning: Ranges[]; receipt: Ranges[]; issued: Ranges[]; ending: Ranges[]; qty: number[]; byKind: RaafCells['byKind'] }>();
  const holderTotals: Array<{ key: string; totals: ReturnType<typeof totalsOf> }> = [];
  for (const [key, routesOfHolder] of folded) {
    const rows = [];
    for (const [routeId, cells] of routesOfHolder) {
      if (!cells.balanced) throw conflict(LEDGER_MSG.unbalanced);
      const acc = byRoute.get(routeId) ?? { beginning: [], receipt: [], issued: [], ending: [], qty: [0, 0, 0, 0], byKind: { used: 0, cancelled: 0, lost: 0, transferred: 0 } };
      const groups = [cells.beginning, cells.receipt, cells.issued, cells.ending];
      groups.forEach((ranges, i) => {
        acc.qty[i] += rangesQty(ranges);
      });
      acc.beginning.push(cells.beginning);
      acc.receipt.push(cells.receipt);
      acc.issued.push(cells.issued);
      acc.ending.push(cells.ending);
      for (const kind of ['used', 'cancelled', 'lost', 'transferred'] as const) acc.byKind[kind] += cells.byKind[kind];
      byRoute.set(routeId, acc);
      rows.push({ beginning: group(cells.beginning), receipt: group(cells.receipt), issued: group(cells.issued), ending: group(cells.ending) });
    }
    holderTotals.push({ key, totals: totalsOf(rows) });
  }
  const routes = new Map((await repo.routeInfos(ctx.db, [...byRoute.keys()])).map((route) => [route.id, route]));
  const rows = orderedRoutes(routes, byRoute.keys(), (route, id) => {
    const acc = byRoute.get(id) as NonNullable<ReturnType<typeof byRoute.get>>;
    const merged = (list: Ranges[], qty: number) => ({ qty, ranges: layeredRuns(list.flat()) });
    return {
      route: { id: route.id, name: route.name, tin: route.tin, company: route.company.name },
      beginning: merged(acc.beginning, acc.qty[0]),
      receipt: merged(acc.receipt, acc.qty[1]),
      issued: { ...merged(acc.issued, acc.qty[2]), by_kind: acc.byKind },
      ending: merged(acc.ending, acc.qty[3]),
    };
  });
  const userIds = holderTotals.filter((h) => h.key.startsWith('u')).map((h) => Number(h.key.slice(1)));
  const branchIds = holderTotals.filter((h) => h.key.startsWith('b')).map((h) => Number(h.key.slice(1)));
  const names = await Names.load(ctx, userIds, branchIds);
  const certificates = new Map((await repo.certificatesOfMonth(ctx.db, month)).map((row) => [`${row.holder_type === 'user' ? 'u' : 'b'}${row.holder_id}`, row]));
  const holders = holderTotals
    .map(({ key, totals }) => {
      const isUser = key.startsWith('u');
      const holderId = Number(key.slice(1));
      const holder = isUser
        ? { type: 'user' as const, id: holderId, name: names.person(holderId)?.full_name ?? `user #${holderId}`, branch: names.branchOfUser(holderId) }
        : { type: 'branch' as const, id: holderId, name: names.branch(holderId)?.name ?? `branch #${holderId}`, branch: names.branch(holderId) };
      return { holder, totals, certificate: certificateRef(certificates.get(key)) };
    })
    .sort((a, b) => a.holder.type.localeCompare(b.holder.type) || a.holder.name.localeCompare(b.holder.name));
  return { month, rows, totals: totalsOf(rows), holders };
}
