import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import type { Actor } from '../../../shared/permissions.ts';
import type { PendingOutcome } from '../../../shared/pending-outcomes.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { offsetOf } from '../../lib/pagination.ts';
import { userInBranch, userNameById } from '../users/read-model.ts';

export interface OutcomeRequestListRow {
  id: number;
  pad_id: number;
  pad_number: number;
  series_from: number;
  series_to: number;
  route_id: number;
  route_name: string;
  from_number: number;
  to_number: number;
  outcome: 'cancelled' | 'lost';
  reason: string;
  copies_retained: boolean | null;
  status: 'pending' | 'approved' | 'rejected';
  requested_by: number;
  requester_name: string | null;
  requested_at: Date | string;
  decided_by: number | null;
  decider_name: string | null;
  decided_at: Date | string | null;
  rejection_reason: string | null;
  total: number;
}

/**
 * docs/design.md §9 approvers, as SQL on `r` (the request) and `p` (its pad): roles 1, 3, 8 every request; a Branch
 * Head or Supervisor the requests on pads their branch, or a user of their branch, holds; anyone else none.
 * Mirrors `number.approveOutcome` in permissions.ts.
 */
export function approvableBy(actor: Actor): SQL {
  if (actor.role_id === ROLE.ADMIN || actor.role_id === ROLE.CUSTODIAN || actor.role_id === ROLE.ACCOUNTING) return sql`true`;
  if ((actor.role_id === ROLE.BRANCH_HEAD || actor.role_id === ROLE.SUPERVISOR) && actor.branch_id !== null) {
    return sql`(pc.holder_branch_id = ${actor.branch_id}::int or ${userInBranch(sql`pc.holder_user_id`, sql`${actor.branch_id}::int`)})`;
  }
  return sql`false`;
}

const LIST_COLUMNS = sql`r.id, r.pad_id, p.number as pad_number, p.series_from, p.series_to, p.route_id, ro.name as route_name,
  r.from_number, r.to_number, r.outcome, r.reason, r.copies_retained, r.status, r.requested_by,
  ${userNameById(sql`r.requested_by`)} as requester_name, r.requested_at,
  r.decided_by, ${userNameById(sql`r.decided_by`)} as decider_name, r.decided_at, r.rejection_reason`;

const FROM = sql`from outcome_requests r join pads p on p.id = r.pad_id join pad_custody pc on pc.pad_id = r.pad_id join routes ro on ro.id = p.route_id`;

/** The pending requests the actor may approve, oldest first (they have waited longest). */
export async function pendingFor(
  conn: Conn,
  actor: Actor,
  page: number,
  perPage: number,
): Promise<{ rows: OutcomeRequestListRow[]; total: number }> {
  const rows = await rowsOf<OutcomeRequestListRow>(
    conn,
    sql`
    select ${LIST_COLUMNS}, count(*) over ()::int as total ${FROM}
    where r.status = 'pending' and ${approvableBy(actor)}
    order by r.requested_at, r.id
    limit ${perPage}::int offset ${offsetOf(page, perPage)}::int`,
  );
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

export async function requestRow(conn: Conn, id: number): Promise<OutcomeRequestListRow | undefined> {
  const [row] = await rowsOf<OutcomeRequestListRow>(conn, sql`select ${LIST_COLUMNS}, 1 as total ${FROM} where r.id = ${id}::int`);
  return row;
}

/** Needs my action: the pending requests the actor may approve, the oldest few and their count. */
export async function approvalQueue(conn: Conn, actor: Actor, limit: number): Promise<{ rows: OutcomeRequestListRow[]; total: number }> {
  return pendingFor(conn, actor, 1, limit);
}

/**
 * docs/design.md §9: a pad's requests waiting for approval, as a json array subquery on the pad id the expression gives
 * (the Pad's pending_outcomes): the numbers they cover may not be used until they are decided.
 */
export const pendingOutcomesOf = (padId: SQLWrapper) =>
  sql<PendingOutcome[]>`coalesce((select json_agg(json_build_object('from', r.from_number, 'to', r.to_number, 'outcome', r.outcome,
    'requested_by', coalesce(${userNameById(sql`r.requested_by`)}, '')) order by r.from_number)
    from outcome_requests r where r.pad_id = ${padId} and r.status = 'pending'), '[]'::json)`;

/** The pad's waiting requests inside the caller's transaction (the pad row locked), for the usage and request checks. */
export async function pendingOutcomesOn(conn: Conn, padId: number): Promise<PendingOutcome[]> {
  const [row] = await rowsOf<{ pending: PendingOutcome[] }>(conn, sql`select ${pendingOutcomesOf(sql`${padId}::int`)} as pending`);
  return row?.pending ?? [];
}

/** Needs my action for a requester: their own cancellations and losses still waiting, the oldest few and their count. */
export async function requestedBy(conn: Conn, userId: number, limit: number): Promise<{ rows: OutcomeRequestListRow[]; total: number }> {
  const rows = await rowsOf<OutcomeRequestListRow>(
    conn,
    sql`
    select ${LIST_COLUMNS}, count(*) over ()::int as total ${FROM}
    where r.status = 'pending' and r.requested_by = ${userId}::int
    order by r.requested_at, r.id
    limit ${limit}::int`,
  );
  return { rows, total: Number(rows[0]?.total ?? 0) };
}
