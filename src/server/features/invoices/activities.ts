import { eq } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { activities, branches, locations, users } from '../../db/schema.ts';

/**
 * Writes one line of an invoice's history. The location is where the actor works (their branch's
 * location), so an auditor sees where each hand-over happened; every state change calls this inside its transaction.
 */
export async function recordActivity(
  conn: Conn,
  entry: { invoiceId: number; statusId: number; description: string; actorId: number; assignedUserId?: number | null },
): Promise<void> {
  const [place] = await conn
    .select({ name: locations.name })
    .from(users)
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .leftJoin(locations, eq(locations.id, branches.location_id))
    .where(eq(users.id, entry.actorId))
    .limit(1);
  await conn.insert(activities).values({
    invoice_id: entry.invoiceId,
    invoice_status_id: entry.statusId,
    description: entry.description,
    location: place?.name ?? null,
    user_id: entry.actorId,
    assigned_user_id: entry.assignedUserId ?? null,
  });
}
