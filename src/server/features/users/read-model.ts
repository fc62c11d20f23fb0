import { and, asc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { fullName } from '../../../shared/format.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { users } from '../../db/schema/users.ts';
import { branchNames } from '../branches/read-model.ts';

type NameParts = { first_name: SQLWrapper; middle_name: SQLWrapper; last_name: SQLWrapper };

/**
 * A person's display name in SQL, built as src/shared/format.ts fullName builds it (the non-blank parts, trimmed, one
 * space apart), from a users table or alias's columns or from a raw alias such as 'u'. Every query that shows a name uses it.
 */
export function fullNameOf(t: NameParts | string): SQL<string> {
  const parts: NameParts =
    typeof t === 'string'
      ? { first_name: sql.raw(`${t}.first_name`), middle_name: sql.raw(`${t}.middle_name`), last_name: sql.raw(`${t}.last_name`) }
      : t;
  return sql<string>`concat_ws(' ', nullif(trim(${parts.first_name}), ''), nullif(trim(${parts.middle_name}), ''), nullif(trim(${parts.last_name}), ''))`;
}

/** The full name of the user whose id the expression gives, as a scalar subquery (null for no user). */
export const userNameById = (id: SQLWrapper) => sql<string | null>`(select ${fullNameOf('u')} from users u where u.id = ${id})`;

/** The branch of the user whose id the expression gives, as a scalar subquery. */
export const userBranchIdOf = (id: SQLWrapper) => sql<number | null>`(select u.branch_id from users u where u.id = ${id})`;

/** The ids of a branch's users, as a subquery for `in`: the staff whose holdings count as the branch's. */
export const userIdsOfBranch = (branchId: SQLWrapper) => sql`(select id from users where branch_id = ${branchId})`;

/** When the first user was created: the day the installation began. */
export const firstSignUpAt = sql<Date | null>`(select min(created_at) from users)`;

/** Whether the user whose id the expression gives belongs to the branch, as a condition. */
export const userInBranch = (id: SQLWrapper, branchId: SQLWrapper) =>
  sql`exists (select 1 from users u where u.id = ${id} and u.branch_id = ${branchId})`;

/** The version a user's badge code is made with; a password reset increments it. */
export async function badgeVersion(conn: Conn, id: number): Promise<number | undefined> {
  const [row] = await conn.select({ version: users.badge_version }).from(users).where(eq(users.id, id)).limit(1);
  return row?.version;
}

/** The active users of the given roles who are told by mail (a failed ledger check goes to Admin, Accounting and Auditor). */
export async function activeRecipients(conn: Conn, roleIds: readonly number[]): Promise<Array<{ id: number; email: string }>> {
  return conn
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.role_id, [...roleIds]), eq(users.user_status_id, USER_STATUS.ACTIVE)))
    .orderBy(asc(users.id));
}

/** Which of the given users are deactivated: issue 37, they are sent nothing (the outbox skips their mail). */
export async function deactivatedUserIds(conn: Conn, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await conn
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.user_status_id, USER_STATUS.INACTIVE)));
  return new Set(rows.map((row) => row.id));
}

export interface PersonRow {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  branch_id: number | null;
}

/** Names and branches of the given users, for the lines that mention them. */
export async function people(conn: Conn, ids: number[]): Promise<PersonRow[]> {
  if (ids.length === 0) return [];
  return conn
    .select({
      id: users.id,
      first_name: users.first_name,
      middle_name: users.middle_name,
      last_name: users.last_name,
      branch_id: users.branch_id,
    })
    .from(users)
    .where(inArray(users.id, ids));
}

/** A person as a document's signature block names them: their role is their position. */
export interface Signer {
  id: number;
  full_name: string;
  position: string | null;
  branch: string | null;
}

/** The given users by id, with their role and branch names, for the slip's and certificates' signature blocks. */
export async function signers(conn: Conn, ids: number[]): Promise<Map<number, Signer>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<Signer>(
    conn,
    sql`select u.id, ${fullNameOf('u')} as full_name, r.name as position, b.name as branch
      from users u left join roles r on r.id = u.role_id left join branches b on b.id = u.branch_id
      where u.id = any(${`{${[...new Set(ids)].join(',')}}`}::int[])`,
  );
  return new Map(rows.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
}

/** The ids of a branch's users (any status): whose RAAFs a branch roll-up adds to the branch's stock. */
export async function idsInBranch(conn: Conn, branchId: number): Promise<number[]> {
  const rows = await conn.select({ id: users.id }).from(users).where(eq(users.branch_id, branchId)).orderBy(asc(users.id));
  return rows.map((row) => row.id);
}

/** The rule-relevant part of an active user, for a request that carries a signed link instead of a bearer token. */
export async function activeActor(
  conn: Conn,
  id: number,
): Promise<{ id: number; role_id: number | null; branch_id: number | null } | undefined> {
  const [row] = await conn
    .select({ id: users.id, role_id: users.role_id, branch_id: users.branch_id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.user_status_id, USER_STATUS.ACTIVE)));
  return row;
}

/** Names of the people and branches a set of events, remarks or certificates mention, looked up once. */
export class Names {
  private users = new Map<number, PersonRow>();
  private branches = new Map<number, string>();

  static async load(conn: Conn, userIds: Array<number | null>, branchIds: Array<number | null>): Promise<Names> {
    const names = new Names();
    const wantUsers = [...new Set(userIds.filter((id): id is number => id !== null))];
    for (const person of await people(conn, wantUsers)) names.users.set(person.id, person);
    const wantBranches = [
      ...new Set([...branchIds, ...[...names.users.values()].map((u) => u.branch_id)].filter((id): id is number => id !== null)),
    ];
    for (const branch of await branchNames(conn, wantBranches)) names.branches.set(branch.id, branch.name);
    return names;
  }

  person(id: number | null) {
    const row = id === null ? undefined : this.users.get(id);
    return row ? { id: row.id, full_name: fullName(row) } : null;
  }

  branch(id: number | null) {
    const name = id === null ? undefined : this.branches.get(id);
    return name === undefined || id === null ? null : { id, name };
  }

  branchOfUser(id: number) {
    return this.branch(this.users.get(id)?.branch_id ?? null);
  }

  /** "Ana Cruz (Batangas)" for a user, "Batangas" for a branch's own stock. */
  holderText(userId: number | null, branchId: number | null): string {
    if (userId !== null) {
      const person = this.person(userId);
      const branch = this.branch(branchId);
      return `${person?.full_name ?? `user #${userId}`}${branch ? ` (${branch.name})` : ''}`;
    }
    return this.branch(branchId)?.name ?? (branchId === null ? 'no holder' : `branch #${branchId}`);
  }
}

export interface AlertPerson {
  id: number;
  role_id: number | null;
  branch_id: number | null;
  active: boolean;
  email: string;
  full_name: string;
}

/** Issue 37: everyone with their role, branch and status, once per alert run: who is told, and who stands in for whom. */
export async function alertPeople(conn: Conn): Promise<AlertPerson[]> {
  const rows = await rowsOf<AlertPerson>(
    conn,
    sql`select u.id, u.role_id, u.branch_id, u.user_status_id = ${USER_STATUS.ACTIVE} as active, u.email, ${fullNameOf('u')} as full_name
      from users u order by u.id`,
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    role_id: row.role_id === null ? null : Number(row.role_id),
    branch_id: row.branch_id === null ? null : Number(row.branch_id),
  }));
}
