import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  SERIES_MSG,
  type RegisteredSeries,
  type RegisteredSeriesDetail,
  type RegisteredSeriesInput,
  type SeriesRole,
  type SeriesRoleInput,
} from '../../../shared/schemas/registered-series.ts';
import { seriesRange } from '../../../shared/format.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { sqlState } from '../../db/client.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { linkPadsToSeries } from '../pads/lifecycle.ts';
import * as repo from './repo.ts';

const EXCLUSION_VIOLATION = '23P01';

/** The form registry, filtered by route, establishment or role (retired series are the ones to surrender). */
export async function list(
  ctx: AppContext,
  q: { page: number; per_page: number; search?: string; route_id?: number; role?: SeriesRole },
): Promise<Paginated<RegisteredSeries>> {
  const { rows, total } = await repo.page(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** One series with its role history, so a role change shows who made it and why. */
export async function get(ctx: AppContext, id: number): Promise<RegisteredSeries> {
  const series = await repo.find(ctx.db, id);
  if (!series) throw notFound(SERIES_MSG.notFound);
  return series;
}

/** Issue 38: one series with every change of its role, newest first. */
export async function detail(ctx: AppContext, id: number): Promise<RegisteredSeriesDetail> {
  const series = await get(ctx, id);
  return { ...series, role_history: await repo.roleHistory(ctx.db, id) };
}

/**
 * Issue 38: changes what a series is for after go-live, keeping who, when, why and the role it replaced. Paper uses
 * already recorded keep the role they were recorded under; only later usage and issuing see the new one.
 */
export async function changeRole(ctx: AppContext, actorId: number, id: number, input: SeriesRoleInput): Promise<RegisteredSeriesDetail> {
  await ctx.db.transaction(async (tx) => {
    const previous = await repo.lockedRole(tx, id);
    if (!previous) throw notFound(SERIES_MSG.notFound);
    if (previous === input.role) throw conflict(SERIES_MSG.sameRole(input.role));
    await repo.changeRole(tx, { id, role: input.role, previous, reason: input.reason, userId: actorId });
  });
  return detail(ctx, id);
}

async function checkRefs(conn: Conn, input: RegisteredSeriesInput): Promise<void> {
  const exists = await repo.routeAndBranchExist(conn, input.route_id, input.branch_id);
  if (!exists.route) throw invalid('route_id', SERIES_MSG.routeMissing);
  if (!exists.branch) throw invalid('branch_id', SERIES_MSG.branchMissing);
}

/** The exclusion constraint refused an overlap: 409 naming the series it overlaps. */
async function overlapRefusal(ctx: AppContext, input: RegisteredSeriesInput, exceptId: number | null) {
  const clash = await repo.overlapping(ctx.db, input.route_id, input.series_from, input.series_to, exceptId);
  return conflict(
    SERIES_MSG.overlap(clash?.atp_number ?? '?', clash ? seriesRange(Number(clash.series_from), Number(clash.series_to)) : '?'),
  );
}

/**
 * docs/design.md §10: registers an ATP's series; the pads of the route already inside it carry it from now on. Two
 * series of one route never overlap, which the database's exclusion constraint decides even under parallel requests.
 */
export async function create(ctx: AppContext, actorId: number, input: RegisteredSeriesInput): Promise<RegisteredSeries> {
  try {
    const id = await ctx.db.transaction(async (tx) => {
      await checkRefs(tx, input);
      const newId = await repo.insert(tx, input, actorId);
      await linkPadsToSeries(tx, { id: newId, route_id: input.route_id, series_from: input.series_from, series_to: input.series_to });
      return newId;
    });
    return get(ctx, id);
  } catch (error) {
    if (sqlState(error) === EXCLUSION_VIOLATION) throw await overlapRefusal(ctx, input, null);
    throw error;
  }
}

/** Corrects a registered series; pads follow its new range (those outside drop it, those inside take it). */
export async function update(ctx: AppContext, id: number, input: RegisteredSeriesInput): Promise<RegisteredSeries> {
  try {
    await ctx.db.transaction(async (tx) => {
      await checkRefs(tx, input);
      if (!(await repo.update(tx, id, input))) throw notFound(SERIES_MSG.notFound);
      await linkPadsToSeries(tx, { id, route_id: input.route_id, series_from: input.series_from, series_to: input.series_to });
    });
    return get(ctx, id);
  } catch (error) {
    if (sqlState(error) === EXCLUSION_VIOLATION) throw await overlapRefusal(ctx, input, id);
    throw error;
  }
}
