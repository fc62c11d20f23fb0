import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Conn, Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** Rows fetched from the embedded database and inserted into PostgreSQL per statement. */
const BATCH_ROWS = 2_000;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The public tables of a database with the columns a copy writes (generated ones are computed again by the target). */
async function tablesOf(conn: Conn): Promise<Array<{ table: string; columns: string[] }>> {
  const rows = await rowsOf<{ table: string; columns: string[] }>(
    conn,
    sql`select c.relname as "table", array_agg(a.attname::text order by a.attnum) as columns
          from pg_class c
          join pg_namespace n on n.oid = c.relnamespace
          join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
         where n.nspname = 'public' and c.relkind in ('r', 'p')
         group by c.relname
         order by c.relname`,
  );
  return rows;
}

/** Each public table's row count. */
export async function rowCounts(conn: Conn): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table } of await tablesOf(conn)) {
    const [row] = await rowsOf<{ n: string | number }>(conn, sql.raw(`select count(*) as n from public.${quoted(table)}`));
    counts[table] = Number(row.n);
  }
  return counts;
}

/** True when the database at url has a table in public or drizzle: something a copy must not overwrite. */
export async function serverTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')",
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/**
 * Copies every row of the embedded database into PostgreSQL, whose schema the same migrations made: table by table
 * through a cursor, as JSON the target turns back into rows of its own types, then each sequence's position. The
 * session runs as a replica (session_replication_role), so the append-only and bookkeeping triggers and the foreign
 * keys do not fire: the rows arrive exactly as they were, derived tables included. That setting needs a superuser.
 */
export async function copyEmbeddedToServer(
  source: Db,
  ownerUrl: string,
  progress: (table: string, rows: number) => void,
): Promise<Record<string, number>> {
  const tables = await tablesOf(source);
  const sequences = await rowsOf<{ name: string; last_value: string | null }>(
    source,
    sql`select sequencename as name, last_value::text from pg_sequences where schemaname = 'public'`,
  );
  const target = new pg.Client({ connectionString: ownerUrl });
  await target.connect();
  const copied: Record<string, number> = {};
  try {
    await target.query('begin');
    await target.query('set local session_replication_role = replica').catch((error: Error) => {
      throw new Error(
        `The copy must run as a PostgreSQL superuser (set session_replication_role: ${error.message}); name one in DATABASE_OWNER_URL.`,
      );
    });
    await target.query(`truncate ${tables.map(({ table }) => `public.${quoted(table)}`).join(', ')}`);
    for (const { table, columns } of tables) {
      const list = columns.map(quoted).join(', ');
      const insert = `insert into public.${quoted(table)} (${list}) overriding system value
                      select ${list} from jsonb_populate_recordset(null::public.${quoted(table)}, $1::jsonb)`;
      copied[table] = 0;
      await source.transaction(async (tx) => {
        await tx.execute(sql.raw(`declare copy_rows no scroll cursor for select to_jsonb(t)::text as j from public.${quoted(table)} t`));
        for (;;) {
          const batch = await rowsOf<{ j: string }>(tx, sql.raw(`fetch ${BATCH_ROWS} from copy_rows`));
          if (batch.length === 0) break;
          await target.query(insert, [`[${batch.map((row) => row.j).join(',')}]`]);
          copied[table] += batch.length;
        }
        await tx.execute(sql.raw('close copy_rows'));
      });
      progress(table, copied[table]);
    }
    for (const { name, last_value } of sequences) {
      await target.query('select setval($1::regclass, $2::bigint, $3)', [`public.${quoted(name)}`, last_value ?? '1', last_value !== null]);
    }
    await target.query('commit');
  } catch (error) {
    await target.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await target.end();
  }
  return copied;
}
