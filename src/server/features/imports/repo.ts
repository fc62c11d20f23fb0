import { eq, sql } from 'drizzle-orm';
import { USER_STATUS } from '../../../shared/lookups.ts';
import type { ImportKind, ImportTotals } from '../../../shared/schemas/imports.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { imports } from '../../db/schema/imports.ts';
import { branches, roles, routes } from '../../db/schema/reference.ts';

export interface RouteKey {
  id: number;
  name: string;
  tin: string;
}

/** Every route by TIN and name: an import resolves each row's route from these. */
export async function routeKeys(conn: Conn): Promise<RouteKey[]> {
  return conn.select({ id: routes.id, name: routes.name, tin: routes.tin }).from(routes);
}

export async function branchKeys(conn: Conn): Promise<Array<{ id: number; name: string }>> {
  return conn.select({ id: branches.id, name: branches.name }).from(branches);
}

export async function roleKeys(conn: Conn): Promise<Array<{ id: number; name: string }>> {
  return conn.select({ id: roles.id, name: roles.name }).from(roles);
}

/** Active users by e-mail (lower case) for the holder column, with their branch. */
export async function activeUsersByEmail(conn: Conn, emails: string[]): Promise<Map<string, { id: number; branch_id: number | null }>> {
  const found = new Map<string, { id: number; branch_id: number | null }>();
  for (let start = 0; start < emails.length; start += 5000) {
    const rows = await rowsOf<{ id: number; email: string; branch_id: number | null }>(
      conn,
      sql`select id, lower(email) as email, branch_id from users
          where lower(email) in (select value from json_array_elements_text(${JSON.stringify(emails.slice(start, start + 5000))}::json))
            and user_status_id = ${USER_STATUS.ACTIVE}::smallint`,
    );
    for (const row of rows) found.set(row.email, { id: row.id, branch_id: row.branch_id });
  }
  return found;
}

/** E-mails (lower case) of the given ones that some user already has. */
export async function takenEmails(conn: Conn, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await rowsOf<{ email: string }>(
    conn,
    sql`select lower(email) as email from users where lower(email) in (select value from json_array_elements_text(${JSON.stringify(emails)}::json))`,
  );
  return new Set(rows.map((row) => row.email));
}

export async function insertImport(
  conn: Conn,
  values: {
    kind: ImportKind;
    dry_run: boolean;
    applied: boolean;
    file_name: string;
    totals: ImportTotals;
    errors: unknown[];
    created_by: number | null;
  },
): Promise<number> {
  const [row] = await conn
    .insert(imports)
    .values({ ...values, totals: JSON.stringify(values.totals), errors: JSON.stringify(values.errors) })
    .returning({ id: imports.id });
  return row.id;
}

/** An import's outcome, once known (its id is taken first: the events of an apply carry it). */
export async function finishImport(
  conn: Conn,
  id: number,
  values: { applied: boolean; totals: ImportTotals; errors: unknown[] },
): Promise<void> {
  await conn
    .update(imports)
    .set({ applied: values.applied, totals: JSON.stringify(values.totals), errors: JSON.stringify(values.errors) })
    .where(eq(imports.id, id));
}
