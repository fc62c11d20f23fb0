import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { outages, paperUses, replacementEinvoices } from '../../db/schema/paper-use.ts';

export type OutageHead = Pick<typeof outages.$inferSelect, 'id' | 'branch_id' | 'starts_at' | 'ends_at'>;

/** The outage a replacement belongs to; `lock` serialises two entries for one outage. */
export async function outageHead(conn: Conn, id: number, lock = false): Promise<OutageHead | undefined> {
  const query = conn
    .select({ id: outages.id, branch_id: outages.branch_id, starts_at: outages.starts_at, ends_at: outages.ends_at })
    .from(outages)
    .where(eq(outages.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export interface LinkedUse {
  pad_id: number;
  route_id: number;
  number_from: number;
  number_to: number;
  business_date: string;
}

/** The paper ranges used during the outage and still standing (not undone), in route and number order. */
export async function linkedUses(conn: Conn, outageId: number): Promise<LinkedUse[]> {
  return conn
    .select({
      pad_id: paperUses.pad_id,
      route_id: paperUses.route_id,
      number_from: paperUses.number_from,
      number_to: paperUses.number_to,
      business_date: paperUses.business_date,
    })
    .from(paperUses)
    .where(and(eq(paperUses.outage_id, outageId), eq(paperUses.state, 'linked'), isNull(paperUses.undone_at)))
    .orderBy(asc(paperUses.route_id), asc(paperUses.number_from));
}

export type ReplacementRow = typeof replacementEinvoices.$inferSelect;

/** Every replacement recorded for numbers of these pads, whichever outage it was entered under. */
export async function replacementsOfPads(conn: Conn, padIds: number[]): Promise<ReplacementRow[]> {
  if (padIds.length === 0) return [];
  return conn
    .select()
    .from(replacementEinvoices)
    .where(inArray(replacementEinvoices.pad_id, padIds))
    .orderBy(asc(replacementEinvoices.pad_id), asc(replacementEinvoices.paper_number));
}

export async function insertReplacements(conn: Conn, rows: Array<typeof replacementEinvoices.$inferInsert>): Promise<void> {
  const BATCH = 1000;
  for (let i = 0; i < rows.length; i += BATCH) await conn.insert(replacementEinvoices).values(rows.slice(i, i + BATCH));
}
