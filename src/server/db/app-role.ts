import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** The ledger (docs/design.md §8): the app reads and appends, never rewrites; the review is its only column change. */
export const LEDGER_TABLES = ['pad_events', 'raaf_certificates'] as const;

const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/**
 * Run as the owner after the migrations: the app's role gets SELECT/INSERT/UPDATE/DELETE on the ordinary
 * tables and their sequences, and on the ledger only SELECT and INSERT (plus UPDATE of the two review
 * columns of raaf_certificates). Owning nothing, it cannot switch a trigger off, truncate or alter a table.
 */
export async function grantAppRole(owner: Db, role: string): Promise<void> {
  if (!ROLE_NAME.test(role)) throw new Error(`The app's database role "${role}" is not a plain role name.`);
  const who = sql.raw(`"${role}"`);
  await owner.execute(sql`grant usage on schema public to ${who}`);
  await owner.execute(sql`grant select, insert, update, delete on all tables in schema public to ${who}`);
  await owner.execute(sql`grant usage, select, update on all sequences in schema public to ${who}`);
  for (const table of LEDGER_TABLES)
    await owner.execute(sql`revoke update, delete, truncate, references, trigger on ${sql.raw(`"${table}"`)} from ${who}`);
  await owner.execute(sql`grant update (reviewed_by, reviewed_at) on raaf_certificates to ${who}`);
}

/** Tables of the public schema that this connection's role owns: none, when the app runs as it should. */
export async function ownedTables(conn: Db): Promise<string[]> {
  const rows = await rowsOf<{ tablename: string }>(
    conn,
    sql`select tablename from pg_tables where schemaname = 'public' and tableowner = current_user order by tablename`,
  );
  return rows.map((row) => row.tablename);
}

export async function currentRole(conn: Db): Promise<string> {
  const [row] = await rowsOf<{ role: string }>(conn, sql`select current_user as role`);
  return row.role;
}
