import { sql, type SQL } from 'drizzle-orm';
import { seriesRange } from '../../../shared/format.ts';
import { ROLE } from '../../../shared/lookups.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  COUNT_MSG,
  RESOLUTION_ASKS,
  VARIANCE_ACTIONS,
  VARIANCE_LABELS,
  type CountItem,
  type CountListQuery,
  type CountPad,
  type CountRow,
  type CountSession,
  type CountVariance,
  type LastCount,
  type LastCountQuery,
} from '../../../shared/schemas/counts.ts';
import type { AppContext } from '../../context.ts';
import type { Conn, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { assertCan } from '../../lib/policy.ts';
import { fullNameOf } from '../users/read-model.ts';
import * as repo from './repo.ts';
import { offerFor, type Offer } from './offers.ts';
import { varianceDetail, varianceOf } from './variances.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const padOf = (row: repo.ItemRow): CountPad => ({
  id: row.pad_id,
  number: row.pad_number,
  series_number: seriesRange(row.series_from, row.series_to),
  series_from: row.series_from,
  series_to: row.series_to,
  route: { id: row.route_id, name: row.route_name },
});

/** An item as the API answers it, after a scan as in the count. */
export const itemDto = (row: repo.ItemRow): CountItem => ({
  id: row.id,
  pad: padOf(row),
  expected: row.expected,
  state: row.state,
  book_next_number: row.book_next_number,
  first_unused: row.first_unused,
  recorded_at: iso(row.recorded_at),
  note: row.book_note,
});

/**
 * The variances of a session's items, each with its resolution once settled; `offers` (issue 36) narrows an open
 * variance's actions to those its reader may take and says who must take the others.
 */
export function variancesOf(
  session: repo.SessionRow,
  items: repo.ItemRow[],
  resolutions: repo.ResolutionRow[],
  offers?: Map<number, Offer>,
): CountVariance[] {
  const byItem = new Map(resolutions.map((r) => [r.item_id, r]));
  return items.flatMap((row) => {
    const resolution = byItem.get(row.id);
    const kind = resolution?.kind ?? varianceOf({ ...row, state: row.state });
    if (!kind) return [];
    return [
      {
        id: row.id,
        kind,
        label: VARIANCE_LABELS[kind],
        pad: padOf(row),
        detail: varianceDetail(kind, { ...row, state: row.state }, session.holder_name),
        actions: [...(offers?.get(row.id)?.actions ?? VARIANCE_ACTIONS[kind])],
        asks: (offers?.get(row.id)?.asks ?? []).map((ask) => ({ action: ask.action, text: ask.text })),
        resolution: resolution
          ? {
              action: resolution.action,
              reason: resolution.reason,
              incident_id: resolution.incident_id,
              resolved_by: {
                id: resolution.resolved_by,
                full_name: resolution.resolver_name,
              },
              resolved_at: iso(resolution.resolved_at) ?? '',
            }
          : null,
      },
    ];
  });
}

const holderOf = (s: repo.SessionRow) =>
  s.holder_user_id !== null
    ? { type: 'user' as const, id: s.holder_user_id, name: s.holder_name }
    : { type: 'branch' as const, id: s.holder_branch_id ?? 0, name: s.holder_name };

const signerOf = (s: repo.SessionRow) => (s.signed_off_by === null ? null : { id: s.signed_off_by, full_name: s.signer_name ?? '' });

/** A session as the API answers it: holder, counter, signer, the pads expected and seen, and how many variances are open. */
export async function sessionDto(conn: Tx | AppContext['db'], s: repo.SessionRow): Promise<CountSession> {
  const [items, resolutions] = await Promise.all([repo.items(conn, s.id), repo.resolutions(conn, s.id)]);
  const variances = variancesOf(s, items, resolutions);
  return {
    id: s.id,
    status: s.status,
    holder: holderOf(s),
    counter: {
      id: s.counter_id,
      full_name: s.counter_name,
    },
    started_at: iso(s.started_at) ?? '',
    signed_off_by: signerOf(s),
    signed_off_at: iso(s.signed_off_at),
    closed_at: iso(s.closed_at),
    expected: items.filter((row) => row.expected).map(padOf),
    items: items.map(itemDto),
    not_scanned: items.filter((row) => row.state === 'pending').length,
    variances_open: variances.filter((v) => v.resolution === null).length,
  };
}

/** A session the actor may read (`count.read`). */
export async function readable(ctx: AppContext, actor: Actor, id: number): Promise<repo.SessionRow> {
  const s = await repo.session(ctx.db, id);
  if (!s) throw notFound(COUNT_MSG.notFound);
  assertCan(actor, 'count.read', repo.rulesOf(s));
  return s;
}

/** One count with its items, for the count screen. */
export async function detail(ctx: AppContext, actor: Actor, id: number): Promise<CountSession> {
  return sessionDto(ctx.db, await readable(ctx, actor, id));
}

/** The Counts screen: the counts the actor may read, newest first. */
export async function list(ctx: AppContext, actor: Actor, query: CountListQuery): Promise<Paginated<CountRow>> {
  const { rows, total } = await repo.list(ctx.db, actor, query);
  return paginated(
    rows.map((s) => ({
      id: s.id,
      status: s.status,
      holder: holderOf(s),
      counter: {
        id: s.counter_id,
        full_name: s.counter_name,
      },
      started_at: iso(s.started_at) ?? '',
      closed_at: iso(s.closed_at),
      pads: Number(s.pads),
    })),
    total,
    query.page,
    query.per_page,
  );
}

/**
 * Issue 36: what the reader may do about each open variance: the counter the resolutions the rules let them take (and
 * who must take the rest); anyone else none.
 */
export async function offersOf(conn: Conn, actor: Actor, s: repo.SessionRow, items: repo.ItemRow[]): Promise<Map<number, Offer>> {
  const offers = new Map<number, Offer>();
  const counter = can(actor, 'count.work', repo.rulesOf(s)) && s.status === 'open';
  for (const row of items) {
    const kind = varianceOf(row);
    if (kind) offers.set(row.id, counter ? await offerFor(conn, actor, row.pad_id, kind) : { actions: [], asks: [] });
  }
  return offers;
}

/** The variances of a count, resolved or not. */
export async function variances(ctx: AppContext, actor: Actor, id: number): Promise<CountVariance[]> {
  const s = await readable(ctx, actor, id);
  const [items, resolutions] = await Promise.all([repo.items(ctx.db, s.id), repo.resolutions(ctx.db, s.id)]);
  const open = items.filter((row) => !resolutions.some((r) => r.item_id === row.id));
  return variancesOf(s, items, resolutions, await offersOf(ctx.db, actor, s, open));
}

/** Needs my action (issue 36): the resolutions open counts ask of the user, each naming the pad with its route. */
export async function asksOf(conn: Conn, userId: number, limit: number) {
  return (await repo.asksOf(conn, userId, limit)).map((row) => ({
    ...row,
    label: `Count #${row.count_id}: ${RESOLUTION_ASKS[row.action]} · ${COUNT_MSG.padName(row.route_name, row.pad_number)} · asked by ${row.counter_name}`,
  }));
}

/**
 * docs/design.md §9: when a holder was last counted, for the holder's screens (Accountability, a count-due link).
 * Whoever may read the holder's RAAF may read this.
 */
export async function lastCount(ctx: AppContext, actor: Actor, query: LastCountQuery): Promise<LastCount> {
  const type = query.user_id !== undefined ? 'user' : 'branch';
  const id = query.user_id ?? query.branch_id ?? 0;
  const found = await repo.holder(ctx.db, type === 'user' ? { userId: id } : { branchId: id });
  if (!found) throw invalid(type === 'user' ? 'user_id' : 'branch_id', COUNT_MSG.holderMissing);
  if (!can(actor, 'raaf.read', { type, id, branch_id: found.branch_id })) throw forbidden();
  const last = await repo.lastCounted(ctx.db, type === 'user' ? { userId: id, branchId: null } : { userId: null, branchId: id });
  return {
    holder: { type, id, name: found.name },
    last_counted_at: iso(last?.closed_at ?? null),
    count_id: last?.id ?? null,
  };
}

export interface DueRow {
  type: 'user' | 'branch';
  id: number;
  name: string;
  last_counted: Date | string | null;
  /** The user's branch, or the branch itself: whose counters a count-due alert goes to (issue 37). */
  branch_id: number | null;
  total: number;
}

/**
 * docs/design.md §9 count schedule: the holders of pads (users, and branches' own stock) the actor may count whose last
 * closed count is older than `everyDays`, or who were never counted; longest waiting first.
 */
export async function due(conn: Conn, actor: Actor, everyDays: number, limit: number): Promise<DueRow[]> {
  const all = [ROLE.ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR].some((role) => role === actor.role_id);
  if (!all && (actor.role_id !== ROLE.BRANCH_HEAD || actor.branch_id === null)) return [];
  const userScope = all ? sql`u.id <> ${actor.id}::int` : sql`u.id <> ${actor.id}::int and u.branch_id = ${actor.branch_id}::int`;
  const ownBranch = sql`(b.id = ${actor.branch_id ?? 0}::int and ${actor.role_id ?? 0}::int in (${ROLE.BRANCH_CUSTODIAN}, ${ROLE.BRANCH_HEAD}))`;
  return dueWhere(conn, userScope, all ? sql`not ${ownBranch}` : sql`false`, everyDays, limit);
}

/** The Dashboard's view of the count schedule: every holder due, whoever looks. */
export const dueEverywhere = (conn: Conn, everyDays: number, limit: number) => dueWhere(conn, sql`true`, sql`true`, everyDays, limit);

/** Issue 37 count due: every holder due at the instant `at` (the alert evaluator's clock), with their branch. */
export const dueAt = (conn: Conn, everyDays: number, at: Date) =>
  dueWhere(conn, sql`true`, sql`true`, everyDays, null, sql`${at.toISOString()}::timestamptz`);

async function dueWhere(
  conn: Conn,
  userScope: SQL,
  branchScope: SQL,
  everyDays: number,
  limit: number | null,
  now: SQL = sql`now()`,
): Promise<DueRow[]> {
  return rowsOf<DueRow>(
    conn,
    sql`with holders as (
        select 'user' as type, u.id, ${fullNameOf('u')} as name,
          (select max(s.closed_at) from count_sessions s where s.status = 'closed' and ${repo.countedUser(sql`u.id`)}) as last_counted,
          u.branch_id
        from users u where ${userScope} and exists (select 1 from pad_custody pc where pc.holder_user_id = u.id)
        union all
        select 'branch', b.id, b.name,
          (select max(closed_at) from count_sessions s where s.status = 'closed' and s.holder_branch_id = b.id), b.id
        from branches b where ${branchScope} and exists (select 1 from pad_custody pc where pc.holder_branch_id = b.id and pc.holder_user_id is null))
      select *, count(*) over ()::int as total from holders
      where last_counted is null or last_counted < ${now} - make_interval(days => ${everyDays}::int)
      order by last_counted nulls first, name${limit === null ? sql`` : sql` limit ${limit}::int`}`,
  );
}
