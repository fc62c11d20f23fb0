import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { INVOICE_STATUS, ISSUANCE_STATUS } from '../../../shared/lookups.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { AssignedUser } from '../../../shared/schemas/invoices.ts';
import type { Conn } from '../../db/client.ts';
import { availableForIssuing, custodyOfPad, padRecordColumns, type PadRecord as PadWithCustody } from '../pads/read-model.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { rowsOf } from '../../db/rows.ts';
import { activities, invoicePads, invoices, pendingHandOvers } from '../../db/schema/invoices.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { branches, locations } from '../../db/schema/reference.ts';
import { users } from '../../db/schema/users.ts';
import { fullNameOf } from '../users/read-model.ts';

export type InvoiceRecord = typeof invoices.$inferSelect;
export type PadRecord = PadWithCustody;

const invoiceStatement = preparedOnce((conn) =>
  conn
    .select()
    .from(invoices)
    .where(eq(invoices.id, sql.placeholder('id')))
    .limit(1)
    .prepare('invoice_record'),
);

/** The stored invoice as the rules need it: every write path reads it first, so it is planned once per connection. */
export async function findInvoice(conn: Conn, id: number): Promise<InvoiceRecord | undefined> {
  const [row] = await invoiceStatement(conn).execute({ id });
  return row;
}

export async function findBranch(conn: Conn, id: number): Promise<NamedRef | undefined> {
  const [row] = await conn.select({ id: branches.id, name: branches.name }).from(branches).where(eq(branches.id, id)).limit(1);
  return row;
}

export interface UserFacts {
  id: number;
  branch_id: number | null;
  role_id: number | null;
  user_status_id: number;
  badge_version: number;
  first_name: string;
  last_name: string;
  full_name: string;
}

export async function findUser(conn: Conn, id: number): Promise<UserFacts | undefined> {
  const [row] = await conn
    .select({
      id: users.id,
      branch_id: users.branch_id,
      role_id: users.role_id,
      user_status_id: users.user_status_id,
      badge_version: users.badge_version,
      first_name: users.first_name,
      last_name: users.last_name,
      full_name: fullNameOf(users),
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

export const toAssignedUser = (u: UserFacts): AssignedUser => ({
  id: u.id,
  full_name: u.full_name,
  first_name: u.first_name,
  last_name: u.last_name,
  role_id: u.role_id,
  branch_id: u.branch_id,
});

/** The one place an invoice row is written. */
export async function insertInvoice(conn: Conn, values: typeof invoices.$inferInsert): Promise<InvoiceRecord> {
  const [row] = await conn.insert(invoices).values(values).returning();
  return row;
}

/** The one place pads are linked to an invoice. */
export async function linkPads(conn: Conn, invoiceId: number, padIds: number[]): Promise<void> {
  await conn.insert(invoicePads).values(padIds.map((pad_id) => ({ invoice_id: invoiceId, pad_id })));
}

/** Moves an invoice from one status to another only if it is still in the first; null when it no longer was. */
export async function transition(
  conn: Conn,
  id: number,
  from: number,
  values: Partial<typeof invoices.$inferInsert> & { invoice_status_id: number },
): Promise<InvoiceRecord | null> {
  const [row] = await conn
    .update(invoices)
    .set({ ...values, updated_at: new Date() })
    .where(and(eq(invoices.id, id), eq(invoices.invoice_status_id, from)))
    .returning();
  return row ?? null;
}

/** Reassigns the courier only if the invoice is still In-Transit with the courier the caller saw; null otherwise. */
export async function reassignCourier(
  conn: Conn,
  id: number,
  expectedCourierId: number | null,
  newCourierId: number,
): Promise<InvoiceRecord | null> {
  const [row] = await conn
    .update(invoices)
    .set({ assigned_user_id: newCourierId, updated_at: new Date() })
    .where(
      and(
        eq(invoices.id, id),
        eq(invoices.invoice_status_id, INVOICE_STATUS.IN_TRANSIT),
        expectedCourierId === null ? isNull(invoices.assigned_user_id) : eq(invoices.assigned_user_id, expectedCourierId),
      ),
    )
    .returning();
  return row ?? null;
}

/** Pads among the ids that could be issued on the route now (docs/spec.md §4 "Pads available for issuing"). */
const availableOnRoute = (routeId: number) => and(eq(pads.route_id, routeId), availableForIssuing());

const idArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

export async function countAvailable(conn: Conn, padIds: number[], routeId: number): Promise<number> {
  const [{ count }] = await conn
    .select({ count: sql<number>`count(*)::int` })
    .from(pads)
    .innerJoin(padCustody, custodyOfPad)
    .where(and(sql`${pads.id} = any(${idArray(padIds)})`, availableOnRoute(routeId)));
  return count;
}

/**
 * Marks the pads Issued and locks them to the invoice, each only if still available; returns how many it got. The pad
 * rows are locked with their custody rows (in id order), so a pad cancelled or used up meanwhile is seen as it is now;
 * only the narrow custody rows are written (issue 39 point 4).
 */
export async function lockPadsForIssue(conn: Conn, padIds: number[], routeId: number, invoiceId: number): Promise<number> {
  const rows = await rowsOf<{ pad_id: number }>(
    conn,
    sql`with taken as (
          select ${pads.id} as id from ${pads} join ${padCustody} on ${custodyOfPad}
          where ${pads.id} = any(${idArray(padIds)}) and ${availableOnRoute(routeId)}
          order by ${pads.id} for update)
        update ${padCustody} set issuance_status_id = ${ISSUANCE_STATUS.ISSUED}::smallint, locked_by_invoice_id = ${invoiceId}::int,
          updated_at = ${new Date().toISOString()}::timestamptz
        from taken where ${padCustody.pad_id} = taken.id
        returning ${padCustody.pad_id}`,
  );
  return rows.length;
}

export async function findPads(conn: Conn, ids: number[]): Promise<PadRecord[]> {
  if (ids.length === 0) return [];
  return conn.select(padRecordColumns).from(pads).innerJoin(padCustody, custodyOfPad).where(inArray(pads.id, ids));
}

/** Locks the pads to an invoice only while the user still holds them unlocked; returns how many it locked. */
export async function lockHeldPads(conn: Conn, padIds: number[], userId: number, invoiceId: number): Promise<number> {
  const rows = await conn
    .update(padCustody)
    .set({ locked_by_invoice_id: invoiceId, updated_at: new Date() })
    .where(and(inArray(padCustody.pad_id, padIds), eq(padCustody.holder_user_id, userId), isNull(padCustody.locked_by_invoice_id)))
    .returning({ id: padCustody.pad_id });
  return rows.length;
}

/** Unlocks an invoice's pads and gives them to their new holder; `notIssuedAgain` (a Return) makes them issuable again. */
export async function releasePads(
  conn: Conn,
  invoiceId: number,
  to: { holderUserId: number | null; holderBranchId: number | null; notIssuedAgain: boolean },
): Promise<number> {
  const rows = await conn
    .update(padCustody)
    .set({
      locked_by_invoice_id: null,
      holder_user_id: to.holderUserId,
      holder_branch_id: to.holderBranchId,
      ...(to.notIssuedAgain ? { issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED } : {}),
      updated_at: new Date(),
    })
    .where(eq(padCustody.locked_by_invoice_id, invoiceId))
    .returning({ id: padCustody.pad_id });
  return rows.length;
}

/**
 * docs/design.md §9: takes a pad lost on the way off its in-transit invoice (the link stays, marked with the loss; the
 * invoice counts one pad fewer) and frees it there, with its holder; false when the invoice no longer carried it.
 */
export async function leaveInvoice(conn: Conn, invoiceId: number, padId: number, incidentId: number): Promise<boolean> {
  const rows = await conn
    .update(invoicePads)
    .set({ left_at: new Date(), lost_incident_id: incidentId })
    .where(and(eq(invoicePads.invoice_id, invoiceId), eq(invoicePads.pad_id, padId), isNull(invoicePads.left_at)))
    .returning({ pad_id: invoicePads.pad_id });
  if (rows.length === 0) return false;
  await conn
    .update(padCustody)
    .set({ locked_by_invoice_id: null, updated_at: new Date() })
    .where(and(eq(padCustody.pad_id, padId), eq(padCustody.locked_by_invoice_id, invoiceId)));
  await conn
    .update(invoices)
    .set({ pad_count: sql`${invoices.pad_count} - 1`, updated_at: new Date() })
    .where(eq(invoices.id, invoiceId));
  return true;
}

/** Frees pads from their invoice without moving them: they stay with their holder. */
export async function unlockPads(conn: Conn, padIds: number[]): Promise<void> {
  await conn.update(padCustody).set({ locked_by_invoice_id: null, updated_at: new Date() }).where(inArray(padCustody.pad_id, padIds));
}

/** Deletes a Pending invoice and its history in one go; false when it was no longer Pending. */
export async function deletePending(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.invoice_status_id, INVOICE_STATUS.PENDING)))
    .for('update');
  if (!row) return false;
  await conn.delete(invoicePads).where(eq(invoicePads.invoice_id, id));
  await conn.delete(activities).where(eq(activities.invoice_id, id));
  await conn.delete(invoices).where(eq(invoices.id, id));
  return true;
}

/**
 * Writes one line of an invoice's history. The location is where the actor works (their branch's
 * location), so an auditor sees where each hand-over happened.
 */
export async function insertActivity(
  conn: Conn,
  entry: {
    invoiceId: number;
    statusId: number;
    description: string;
    actorId: number;
    assignedUserId?: number | null;
    confirmedBy?: number | null;
    deviceAt?: Date | null;
  },
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
    confirmed_by: entry.confirmedBy ?? null,
    device_at: entry.deviceAt ?? null,
  });
}

export type PendingHandOverRecord = typeof pendingHandOvers.$inferSelect;

/** Puts a hand-over in wait for its receiver; a newer pick for the same invoice replaces the waiting one. */
export async function upsertPendingHandOver(
  conn: Conn,
  row: { invoiceId: number; fromUserId: number; toUserId: number; requestedBy: number; deviceAt: Date | null },
): Promise<void> {
  const values = {
    invoice_id: row.invoiceId,
    from_user_id: row.fromUserId,
    to_user_id: row.toUserId,
    requested_by: row.requestedBy,
    device_at: row.deviceAt,
    created_at: new Date(),
  };
  await conn.insert(pendingHandOvers).values(values).onConflictDoUpdate({ target: pendingHandOvers.invoice_id, set: values });
}

/** Takes the receiver's waiting hand-over of an invoice off the list, once: a second taker gets null. */
export async function takePendingHandOver(conn: Conn, invoiceId: number, toUserId: number): Promise<PendingHandOverRecord | null> {
  const [row] = await conn
    .delete(pendingHandOvers)
    .where(and(eq(pendingHandOvers.invoice_id, invoiceId), eq(pendingHandOvers.to_user_id, toUserId)))
    .returning();
  return row ?? null;
}

export async function dropPendingHandOver(conn: Conn, invoiceId: number): Promise<void> {
  await conn.delete(pendingHandOvers).where(eq(pendingHandOvers.invoice_id, invoiceId));
}
