import { and, eq, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { SessionUser } from '../../../shared/schemas/accounts.ts';
import { fullName } from '../../../shared/format.ts';
import type { Conn } from '../../db/client.ts';
import { branches, roles } from '../../db/schema/reference.ts';
import { accessTokens, passwordResets, userStatuses, users } from '../../db/schema/users.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(conn: Conn, email: string): Promise<UserRow | undefined> {
  const [row] = await conn
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(conn: Conn, id: number): Promise<UserRow | undefined> {
  const [row] = await conn.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function emailTakenByOther(conn: Conn, email: string, userId: number | null): Promise<boolean> {
  const where = userId
    ? and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, userId))
    : sql`lower(${users.email}) = ${email.toLowerCase()}`;
  const [row] = await conn.select({ id: users.id }).from(users).where(where).limit(1);
  return Boolean(row);
}

export async function insertUser(conn: Conn, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await conn.insert(users).values(values).returning();
  return row;
}

export async function updateUser(conn: Conn, id: number, values: Partial<typeof users.$inferInsert>): Promise<void> {
  await conn
    .update(users)
    .set({ ...values, updated_at: new Date() })
    .where(eq(users.id, id));
}

/** A password reset also rotates the badge, so a lost printed badge stops working. */
export async function setPasswordAndRotateBadge(conn: Conn, id: number, passwordHash: string): Promise<number | null> {
  const [row] = await conn
    .update(users)
    .set({
      password_hash: passwordHash,
      must_change_password: false,
      badge_version: sql`${users.badge_version} + 1`,
      updated_at: new Date(),
    })
    .where(eq(users.id, id))
    .returning({ role_id: users.role_id });
  return row?.role_id ?? null;
}

/** The signed-in user as login and user-profile return it, with role, branch and status names. */
export async function findSessionUser(conn: Conn, id: number): Promise<SessionUser | undefined> {
  const [row] = await conn
    .select({
      user: users,
      role: { id: roles.id, name: roles.name },
      branch: { id: branches.id, name: branches.name },
      status: { id: userStatuses.id, name: userStatuses.name },
    })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.role_id))
    .leftJoin(branches, eq(branches.id, users.branch_id))
    .leftJoin(userStatuses, eq(userStatuses.id, users.user_status_id))
    .where(eq(users.id, id))
    .limit(1);
  if (!row) return undefined;
  const u = row.user;
  return {
    id: u.id,
    first_name: u.first_name,
    middle_name: u.middle_name,
    last_name: u.last_name,
    full_name: fullName(u),
    email: u.email,
    contact_number: u.contact_number,
    role_id: u.role_id,
    branch_id: u.branch_id,
    user_status_id: u.user_status_id,
    role: row.role,
    branch: row.branch,
    status: row.status,
  };
}

export async function insertAccessToken(conn: Conn, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await conn.insert(accessTokens).values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt });
}

export async function deleteAccessToken(conn: Conn, tokenHash: string): Promise<void> {
  await conn.delete(accessTokens).where(eq(accessTokens.token_hash, tokenHash));
}

/** Ends every session of a user, except the one named (the request making the change). */
export async function deleteUserTokens(conn: Conn, userId: number, keepTokenHash: string | null = null): Promise<void> {
  await conn
    .delete(accessTokens)
    .where(
      keepTokenHash ? and(eq(accessTokens.user_id, userId), ne(accessTokens.token_hash, keepTokenHash)) : eq(accessTokens.user_id, userId),
    );
}

export async function insertPasswordReset(conn: Conn, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await conn.insert(passwordResets).values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt });
}

/** Marks a live reset token used and returns its user; undefined when it is unknown, used or expired. */
export async function consumePasswordReset(conn: Conn, tokenHash: string): Promise<number | undefined> {
  const [row] = await conn
    .update(passwordResets)
    .set({ used_at: new Date() })
    .where(and(eq(passwordResets.token_hash, tokenHash), isNull(passwordResets.used_at), gt(passwordResets.expires_at, new Date())))
    .returning({ user_id: passwordResets.user_id });
  return row?.user_id;
}

/** Spends every outstanding reset token of a user: only the newest link, and none after a reset, may work. */
export async function voidPasswordResets(conn: Conn, userId: number): Promise<void> {
  await conn
    .update(passwordResets)
    .set({ used_at: new Date() })
    .where(and(eq(passwordResets.user_id, userId), isNull(passwordResets.used_at)));
}

/** Removes sign-ins past their lifetime and reset tokens that are used or expired. */
export async function purgeDeadTokens(conn: Conn, now: Date): Promise<void> {
  await conn.delete(accessTokens).where(lt(accessTokens.expires_at, now));
  await conn.delete(passwordResets).where(or(isNotNull(passwordResets.used_at), lt(passwordResets.expires_at, now)));
}
