import { sql, type SQL } from 'drizzle-orm';
import type { Conn } from './client.ts';
import { rowsOf } from './rows.ts';

let cursorCount = 0;

/**
 * Reads a query's rows in batches through a server-side cursor (PostgreSQL and PGlite alike), handing each
 * batch on before the next is fetched, so a report over millions of rows holds one batch at a time. Runs in
 * its own transaction (a savepoint when the caller already has one), which the cursor needs; `onBatch` may read
 * more through that transaction (on PGlite's one connection nothing else can run meanwhile).
 */
export async function streamRows<T>(
  conn: Conn,
  query: SQL,
  onBatch: (rows: T[], tx: Conn) => void | Promise<void>,
  batchSize = 10_000,
): Promise<void> {
  cursorCount = (cursorCount + 1) % 1_000_000;
  const name = sql.raw(`stream_${cursorCount}`);
  await conn.transaction(async (tx) => {
    await tx.execute(sql`declare ${name} no scroll cursor for ${query}`);
    for (;;) {
      const count = await nextBatch(tx, sql`fetch forward ${sql.raw(String(batchSize))} from ${name}`, onBatch);
      if (count < batchSize) break;
    }
    await tx.execute(sql`close ${name}`);
  });
}

/**
 * Fetches one batch and hands it on, answering only how many rows came: no frame that waits holds the rows, so while
 * `onBatch` waits (for a slow download) they can die young instead of surviving into the old generation.
 */
function nextBatch<T>(tx: Conn, fetch: SQL, onBatch: (rows: T[], tx: Conn) => void | Promise<void>): Promise<number> {
  return rowsOf<T>(tx, fetch).then((rows) => {
    const count = rows.length;
    return count === 0 ? 0 : Promise.resolve(onBatch(rows, tx)).then(() => count);
  });
}

/**
 * A list's rows in its order, batch by batch: `ids` (a query of one `id` column, filtered and ordered as the
 * list is) runs through a cursor, and `read` fetches each batch's rows as the list shows them.
 */
export async function streamByIds<R extends { id: number }>(
  conn: Conn,
  ids: SQL,
  read: (tx: Conn, ids: number[]) => Promise<R[]>,
  onBatch: (rows: R[]) => Promise<void>,
  batchSize = 2_000,
): Promise<void> {
  await streamRows<{ id: number | string }>(
    conn,
    ids,
    async (batch, tx) => {
      const wanted = batch.map((row) => Number(row.id));
      const byId = new Map((await read(tx, wanted)).map((row) => [row.id, row]));
      await onBatch(wanted.map((id) => byId.get(id)).filter((row) => row !== undefined));
    },
    batchSize,
  );
}
