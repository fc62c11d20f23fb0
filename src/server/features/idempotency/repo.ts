import { and, eq } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema/idempotency.ts';

export type StoredAnswer = typeof idempotencyKeys.$inferSelect;

/**
 * Claims the key for this user and request, or waits for the transaction that claimed it first and returns nothing:
 * the unique key makes parallel duplicates queue here instead of both acting.
 */
export async function claimKey(conn: Conn, userId: number, key: string, operation: string, fingerprint: string): Promise<boolean> {
  const rows = await conn
    .insert(idempotencyKeys)
    .values({ user_id: userId, key, operation, fingerprint, status: 0, answer: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

export async function findAnswer(conn: Conn, userId: number, key: string): Promise<StoredAnswer | undefined> {
  const [row] = await conn
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.user_id, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

export async function storeAnswer(conn: Conn, userId: number, key: string, status: number, answer: unknown): Promise<void> {
  await conn
    .update(idempotencyKeys)
    .set({ status, answer })
    .where(and(eq(idempotencyKeys.user_id, userId), eq(idempotencyKeys.key, key)));
}
