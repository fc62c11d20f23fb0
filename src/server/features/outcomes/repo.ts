import { and, eq } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { outcomeRequests } from '../../db/schema/outcomes.ts';

export type OutcomeRequestRecord = typeof outcomeRequests.$inferSelect;

export async function insertRequest(conn: Conn, values: typeof outcomeRequests.$inferInsert): Promise<number> {
  const [row] = await conn.insert(outcomeRequests).values(values).returning({ id: outcomeRequests.id });
  return row.id;
}

/** The request row, locked until the transaction ends, so one decision wins. */
export async function lockRequest(conn: Conn, id: number): Promise<OutcomeRequestRecord | undefined> {
  const [row] = await conn.select().from(outcomeRequests).where(eq(outcomeRequests.id, id)).for('update');
  return row;
}

export async function decide(
  conn: Conn,
  id: number,
  values: { status: 'approved' | 'rejected'; decidedBy: number; rejectionReason?: string },
): Promise<void> {
  await conn
    .update(outcomeRequests)
    .set({ status: values.status, decided_by: values.decidedBy, decided_at: new Date(), rejection_reason: values.rejectionReason ?? null })
    .where(and(eq(outcomeRequests.id, id), eq(outcomeRequests.status, 'pending')));
}
