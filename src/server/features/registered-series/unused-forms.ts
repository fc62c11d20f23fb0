import type { FormType } from '../../../shared/lookups.ts';
import { seriesRange } from '../../../shared/format.ts';
import { UNUSED_MSG, type UnusedForms } from '../../../shared/schemas/registered-series.ts';
import type { AppContext } from '../../context.ts';
import { csvText } from '../../lib/csv.ts';
import { invalid } from '../../lib/errors.ts';
import { renderUnusedFormsPdf } from '../../lib/pdf/unused-forms-pdf.ts';
import { invoicesInTransitAt } from '../invoices/read-model.ts';
import { businessDate } from '../ledger/writer.ts';
import { endingsAt, nextDay } from '../ledger/month-balances.ts';
import { holderOfKey } from '../ledger/raaf-fold.ts';
import { mergeRanges } from '../ledger/fold.ts';
import { padSeriesOf } from '../pads/repo.ts';
import { routeInfos } from '../routes/repo.ts';
import { Names } from '../users/names.ts';
import * as repo from './repo.ts';

type Ranges = Array<[number, number]>;
const qtyOf = (ranges: Ranges) => ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);

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
  type Cell = {
    branchId: number | null;
    seriesId: number | null;
    routeId: number;
    ranges: Ranges;
    holders: Map<string, { ranges: Ranges; outside: boolean }>;
  };
  const cells = new Map<string, Cell>();
  for (const ending of endings) {
    const holder = holderOfKey(ending.holderKey);
    const holderBranch = holder.type === 'branch' ? holder.id : (names.branchOfUser(holder.id)?.id ?? null);
    const seriesId = padInfo.get(ending.padId)?.registered_series_id ?? null;
    const series = seriesId === null ? undefined : seriesById.get(seriesId);
    const branchId = series ? series.branch_id : holderBranch;
    if (query.branch_id !== undefined && branchId !== query.branch_id) continue;
    const key = `${branchId ?? 0}:${seriesId ?? `r${ending.routeId}`}`;
    const cell: Cell = cells.get(key) ?? { branchId, seriesId, routeId: ending.routeId, ranges: [], holders: new Map() };
    cells.set(key, cell);
    cell.ranges.push(...ending.ranges);
    const held = cell.holders.get(ending.holderKey) ?? {
      ranges: [] as Ranges,
      outside: series !== undefined && holderBranch !== series.branch_id,
    };
    held.ranges.push(...ending.ranges);
    cell.holders.set(ending.holderKey, held);
  }
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
        ? { id: series.id, atp_number: series.atp_number, atp_date: series.atp_date, form_type: series.form_type as FormType }
        : null,
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
  const transit = await invoicesInTransitAt(ctx.db, nextDay(query.date), ctx.config.timeZone);
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
  return {
    date: query.date,
    establishments,
    in_transit: [...inTransit.values()],
    total: establishments.reduce((sum, e) => sum + e.qty, 0),
  };
}

const rangesText = (ranges: Ranges) => ranges.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join('; ');

/** The inventory as CSV (UTF-8 with BOM, RFC 4180): one line per establishment, series and holder. */
export function unusedFormsCsv(report: UnusedForms): Buffer {
  const lines = [
    [
      'Establishment',
      'Company',
      'Route',
      'TIN',
      'Form type',
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
          series.registered_series?.atp_number ?? '',
          series.registered_series?.atp_date ?? '',
          String(series.qty),
          rangesText(series.ranges),
          holder.holder.name,
          String(holder.qty),
          rangesText(holder.ranges),
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
        pad.series_number,
        invoice.courier ?? '',
        '',
        '',
        '',
      ]);
  return Buffer.from(csvText(lines, { bom: true }), 'utf8');
}

export const unusedFormsPdf = (report: UnusedForms) => renderUnusedFormsPdf(report, new Date());
