import type { FormType } from '../../../shared/lookups.ts';
import { numberRanges, seriesRange } from '../../../shared/format.ts';
import { SERIES_ROLE_LABELS, UNUSED_MSG, type SeriesRole, type UnusedForms } from '../../../shared/schemas/registered-series.ts';
import type { AppContext } from '../../context.ts';
import { csvText } from '../../lib/csv.ts';
import { invalid } from '../../lib/errors.ts';
import { renderUnusedFormsPdf } from '../../lib/pdf/unused-forms-pdf.ts';
import { operatorIdentity } from '../settings/read-model.ts';
import { invoicesInTransitAt } from '../invoices/read-model.ts';
import { businessDate } from '../ledger/lifecycle.ts';
import { endingsAt, holderOfKey, mergeRanges, nextDay } from '../ledger/read-model.ts';
import { padSeriesOf } from '../pads/read-model.ts';
import { routeInfos, type RouteInfo } from '../routes/read-model.ts';
import { Names } from '../users/read-model.ts';
import * as repo from './repo.ts';

type Ranges = Array<[number, number]>;
const qtyOf = (ranges: Ranges) => ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);

type Cell = {
  branchId: number | null;
  seriesId: number | null;
  routeId: number;
  ranges: Ranges;
  holders: Map<string, { ranges: Ranges; outside: boolean }>;
};
type Series = Awaited<ReturnType<typeof repo.all>>[number];

/**
 * docs/design.md §10: the unused numbers held by anyone at the end of `date` in APP_TIMEZONE, folded from the ledger
 * like the RAAF's Ending, grouped by establishment (the registered series' branch; outside every series, the holder's
 * branch) and registered series, naming each holder and flagging a range held outside its establishment.
 */
export async function unusedForms(ctx: AppContext, query: { date: string; branch_id?: number }): Promise<UnusedForms> {
  const today = businessDate(ctx.ledgerClock?.() ?? new Date(), ctx.config.timeZone);
  if (query.date > today) throw invalid('date', UNUSED_MSG.future);
  const endings = await endingsAt(ctx, query.date);
  const padInfo = await padSeriesOf(ctx.db, [...new Set(endings.map((ending) => ending.padId))]);
  const seriesById = new Map((await repo.all(ctx.db)).map((series) => [series.id, series]));
  const holders = endings.map((ending) => holderOfKey(ending.holderKey));
  const names = await Names.load(
    ctx.db,
    holders.filter((h) => h.type === 'user').map((h) => h.id),
    [...holders.filter((h) => h.type === 'branch').map((h) => h.id), ...[...seriesById.values()].map((s) => s.branch_id)],
  );
  const routes = new Map((await routeInfos(ctx.db, [...new Set(endings.map((e) => e.routeId))])).map((r) => [r.id, r]));
  const seriesOfPad = (padId: number) => padInfo.get(padId)?.registered_series_id ?? null;
  const cells = cellsOf(endings, { seriesOfPad, seriesById, names, branchId: query.branch_id });
  const establishments = establishmentsOf(cells, { routes, seriesById, names });
  return {
    date: query.date,
    establishments,
    in_transit: await inTransitAt(ctx, query.date),
    total: establishments.reduce((sum, e) => sum + e.qty, 0),
  };
}

/** The endings grouped by establishment and series (outside every series, by route), each with its holders. */
function cellsOf(
  endings: Awaited<ReturnType<typeof endingsAt>>,
  by: { seriesOfPad: (padId: number) => number | null; seriesById: Map<number, Series>; names: Names; branchId?: number },
): Map<string, Cell> {
  const { seriesById, names } = by;
  const cells = new Map<string, Cell>();
  for (const ending of endings) {
    const holder = holderOfKey(ending.holderKey);
    const holderBranch = holder.type === 'branch' ? holder.id : (names.branchOfUser(holder.id)?.id ?? null);
    const seriesId = by.seriesOfPad(ending.padId);
    const series = seriesId === null ? undefined : seriesById.get(seriesId);
    const branchId = series ? series.branch_id : holderBranch;
    if (by.branchId !== undefined && branchId !== by.branchId) continue;
    const key = `${branchId ?? 0}:${seriesId ?? `r${ending.routeId}`}`;
    const cell: Cell = cells.get(key) ?? { branchId, seriesId, routeId: ending.routeId, ranges: [], holders: new Map() };
    cells.set(key, cell);
    cell.ranges.push(...ending.ranges);
    const held = cell.holders.get(ending.holderKey) ?? {
      // -- widens the empty start value to the field's type.
      ranges: [] as Ranges,
      outside: series !== undefined && holderBranch !== series.branch_id,
    };
    held.ranges.push(...ending.ranges);
    cell.holders.set(ending.holderKey, held);
  }
  return cells;
}

/** The establishments with their series and holders named, in the order the inventory prints them. */
function establishmentsOf(
  cells: Map<string, Cell>,
  { routes, seriesById, names }: { routes: Map<number, RouteInfo>; seriesById: Map<number, Series>; names: Names },
): UnusedForms['establishments'] {
  const byBranch = new Map<number, UnusedForms['establishments'][number]>();
  for (const cell of cells.values()) {
    const route = routes.get(cell.routeId);
    const series = cell.seriesId === null ? undefined : seriesById.get(cell.seriesId);
    const ranges = mergeRanges(cell.ranges);
    const establishment = byBranch.get(cell.branchId ?? 0) ?? {
      branch: cell.branchId === null ? null : { id: cell.branchId, name: names.branch(cell.branchId)?.name ?? `Branch #${cell.branchId}` },
      qty: 0,
      series: [],
    };
    byBranch.set(cell.branchId ?? 0, establishment);
    establishment.qty += qtyOf(ranges);
    establishment.series.push({
      registered_series: series
        ? // -- the form_type column is written only from the Zod-parsed FormType.
          { id: series.id, atp_number: series.atp_number, atp_date: series.atp_date, form_type: series.form_type as FormType }
        : null,
      // -- the role column is checked against SERIES_ROLES by the database (registered_series_role_ck).
      role: series ? (series.role as SeriesRole) : null,
      route: { id: cell.routeId, name: route?.name ?? '', tin: route?.tin ?? '', company: route?.company.name ?? '' },
      qty: qtyOf(ranges),
      ranges,
      holders: [...cell.holders.entries()].map(([key, held]) => {
        const holder = holderOfKey(key);
        const merged = mergeRanges(held.ranges);
        return {
          holder: {
            ...holder,
            name:
              holder.type === 'user'
                ? (names.person(holder.id)?.full_name ?? `User #${holder.id}`)
                : (names.branch(holder.id)?.name ?? `Branch #${holder.id}`),
            branch: holder.type === 'user' ? (names.branchOfUser(holder.id)?.name ?? null) : null,
          },
          qty: qtyOf(merged),
          ranges: merged,
          outside_establishment: held.outside,
        };
      }),
    });
  }
  const establishments = [...byBranch.values()].sort((a, b) => (a.branch?.name ?? '~').localeCompare(b.branch?.name ?? '~'));
  for (const establishment of establishments)
    establishment.series.sort((a, b) => a.route.name.localeCompare(b.route.name) || (a.ranges[0]?.[0] ?? 0) - (b.ranges[0]?.[0] ?? 0));
  return establishments;
}

/** The pads on the road at the end of the day, by invoice with its courier: numbers no one's stock holds. */
async function inTransitAt(ctx: AppContext, date: string): Promise<UnusedForms['in_transit']> {
  const transit = await invoicesInTransitAt(ctx.db, nextDay(date), ctx.config.timeZone);
  const couriers = await Names.load(
    ctx.db,
    transit.map((row) => row.assigned_user_id),
    [],
  );
  const transitRoutes = new Map((await routeInfos(ctx.db, [...new Set(transit.map((row) => row.route_id))])).map((r) => [r.id, r]));
  const inTransit = new Map<number, UnusedForms['in_transit'][number]>();
  for (const row of transit) {
    const entry = inTransit.get(row.invoice_id) ?? {
      invoice_id: row.invoice_id,
      courier: couriers.person(row.assigned_user_id)?.full_name ?? null,
      pads: [],
    };
    entry.pads.push({
      id: Number(row.pad_id),
      number: Number(row.pad_number),
      route: transitRoutes.get(row.route_id)?.name ?? '',
      series_number: seriesRange(Number(row.series_from), Number(row.series_to)),
    });
    inTransit.set(row.invoice_id, entry);
  }
  return [...inTransit.values()];
}

/** The inventory as CSV (UTF-8 with BOM, RFC 4180): one line per establishment, series and holder. */
export function unusedFormsCsv(report: UnusedForms): Buffer {
  const lines = [
    [
      'Establishment',
      'Company',
      'Route',
      'TIN',
      'Form type',
      'Series role',
      'ATP number',
      'ATP date',
      'Series quantity',
      'Series unused ranges',
      'Holder',
      'Holder quantity',
      'Holder ranges',
      'Outside establishment',
    ],
  ];
  for (const establishment of report.establishments)
    for (const series of establishment.series)
      for (const holder of series.holders)
        lines.push([
          establishment.branch?.name ?? '',
          series.route.company,
          series.route.name,
          series.route.tin,
          series.registered_series?.form_type ?? '',
          series.role ? SERIES_ROLE_LABELS[series.role] : '',
          series.registered_series?.atp_number ?? '',
          series.registered_series?.atp_date ?? '',
          String(series.qty),
          numberRanges(series.ranges, '; '),
          holder.holder.name,
          String(holder.qty),
          numberRanges(holder.ranges, '; '),
          holder.outside_establishment ? 'yes' : 'no',
        ]);
  for (const invoice of report.in_transit)
    for (const pad of invoice.pads)
      lines.push([
        `In transit on invoice #${invoice.invoice_id}`,
        '',
        pad.route,
        '',
        '',
        '',
        '',
        '',
        '',
        pad.series_number,
        invoice.courier ?? '',
        '',
        '',
        '',
      ]);
  return Buffer.from(csvText(lines, { bom: true }), 'utf8');
}

export const unusedFormsPdf = async (ctx: AppContext, report: UnusedForms) =>
  renderUnusedFormsPdf(report, new Date(), await operatorIdentity(ctx.db), ctx.config.timeZone);
