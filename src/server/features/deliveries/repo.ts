import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { deliveries } from '../../db/schema/deliveries.ts';

/** Inserts an outbox row unless its dedupe key exists; answers whether it was new. */
export async function insertDelivery(conn: Conn, row: typeof deliveries.$inferInsert): Promise<boolean> {
  const inserted = await conn
    .insert(deliveries)
    .values(row)
    .onConflictDoNothing({ target: deliveries.dedupe_key })
    .returning({ id: deliveries.id });
  return inserted.length === 1;
}

/** An outbox row the sender has claimed. */
export interface ClaimedDelivery {
  id: number;
  channel: 'email' | 'webhook';
  recipient_user_id: number | null;
  target: string;
  kind: string;
  dedupe_key: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  /** Tries so far, this one included. */
  attempts: number;
}

const iso = (at: Date) => at.toISOString();

/**
 * Claims up to `limit` e-mails due at `now` for this sender: counts the try and moves their next attempt to `leaseEnd`,
 * in one short statement, so no row lock is held while mailing. Rows another instance is claiming at this moment are
 * skipped (FOR UPDATE SKIP LOCKED), and one it claimed is no longer due; if that instance stops before marking, the row
 * falls due again when the lease ends.
 */
export async function claimDueDeliveries(conn: Conn, now: Date, leaseEnd: Date, limit: number): Promise<ClaimedDelivery[]> {
  const rows = await rowsOf<ClaimedDelivery>(
    conn,
    sql`update deliveries d set attempts = d.attempts + 1, next_attempt_at = ${iso(leaseEnd)}::timestamptz
        from (
          select id from deliveries
          where sent_at is null and channel = 'email' and next_attempt_at <= ${iso(now)}::timestamptz
          order by next_attempt_at, id
          limit ${limit}
          for update skip locked
        ) due
        where d.id = due.id
        returning d.id, d.channel, d.recipient_user_id, d.target, d.kind, d.dedupe_key, d.subject, d.body_text, d.body_html, d.attempts`,
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts) }));
}

/**
 * Marks a claimed row sent, keeping an earlier try's error; with a note, done without sending (the note replaces the
 * error). A row already marked stays as it was.
 */
export async function markDelivered(conn: Conn, id: number, at: Date, note?: string): Promise<void> {
  await conn
    .update(deliveries)
    .set(note === undefined ? { sent_at: at } : { sent_at: at, last_error: note })
    .where(and(eq(deliveries.id, id), isNull(deliveries.sent_at)));
}

/** Keeps a failed try's error and when to try again. */
export async function markFailed(conn: Conn, id: number, error: string, nextAttemptAt: Date): Promise<void> {
  await conn
    .update(deliveries)
    .set({ last_error: error, next_attempt_at: nextAttemptAt })
    .where(and(eq(deliveries.id, id), isNull(deliveries.sent_at)));
}
