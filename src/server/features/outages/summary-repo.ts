import { and, asc, between, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { outages, paperUses } from '../../db/schema/paper-use.ts';

export type SummaryOutageRow = Pick<
  typeof outages.$inferSelect,
  'id' | 'starts_at' | 'ends_at' | 'cause' | 'details' | 'notice_reference' | 'declared_by'
>;

/**
 * The outages of an establishment whose window touches the days from..to in `timeZone` (or that a use of those days is
 * linked to, whatever its time), in time order; an open one has no end.
 */
export async function outagesTouching(
  conn: Conn,
  q: { branchId: number; from: string; to: string; timeZone: string },
): Promise<SummaryOutageRow[]> {
  const start = sql`(${q.from}::date::timestamp at time zone ${q.timeZone})`;
  const end = sql`((${q.to}::date + 1)::timestamp at time zone ${q.timeZone})`;
  return conn
    .select({
      id: outages.id,
      starts_at: outages.starts_at,
      ends_at: outages.ends_at,
      cause: outages.cause,
      details: outages.details,
      notice_reference: outages.notice_reference,
      declared_by: outages.declared_by,
    })
    .from(outages)
    .where(
      and(
        eq(outages.branch_id, q.branchId),
        or(
          and(sql`${outages.starts_at} < ${end}`, sql`(${outages.ends_at} is null or ${outages.ends_at} > ${start})`),
          inArray(
            outages.id,
            conn
              .select({ id: sql<number>`${paperUses.outage_id}` })
              .from(paperUses)
              .where(
                and(
                  eq(paperUses.branch_id, q.branchId),
                  between(paperUses.business_date, q.from, q.to),
                  isNull(paperUses.undone_at),
                  isNotNull(paperUses.outage_id),
                ),
              ),
          ),
        ),
      ),
    )
    .orderBy(asc(outages.starts_at));
}

export type SummaryUseRow = Pick<
  typeof paperUses.$inferSelect,
  | 'id'
  | 'pad_id'
  | 'route_id'
  | 'number_from'
  | 'number_to'
  | 'holder_user_id'
  | 'used_at'
  | 'outage_id'
  | 'state'
  | 'reason_code'
  | 'reason_text'
  | 'decided_by'
  | 'decided_at'
>;

/** The paper used at an establishment on the business days from..to, not undone, in the order it was used. */
export async function usesInPeriod(conn: Conn, q: { branchId: number; from: string; to: string }): Promise<SummaryUseRow[]> {
  return conn
    .select({
      id: paperUses.id,
      pad_id: paperUses.pad_id,
      route_id: paperUses.route_id,
      number_from: paperUses.number_from,
      number_to: paperUses.number_to,
      holder_user_id: paperUses.holder_user_id,
      used_at: paperUses.used_at,
      outage_id: paperUses.outage_id,
      state: paperUses.state,
      reason_code: paperUses.reason_code,
      reason_text: paperUses.reason_text,
      decided_by: paperUses.decided_by,
      decided_at: paperUses.decided_at,
    })
    .from(paperUses)
    .where(and(eq(paperUses.branch_id, q.branchId), between(paperUses.business_date, q.from, q.to), isNull(paperUses.undone_at)))
    .orderBy(asc(paperUses.used_at), asc(paperUses.route_id), asc(paperUses.number_from));
}
