import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Conn, Db } from './client.ts';

/** A short read-only snapshot: ordinary queries through `tx`, and a query's rows as raw COPY text through `copy`. */
export interface ReadSnapshot {
  tx: Conn;
  /** The rows of a SELECT (no parameters: COPY takes none) in COPY's text format: tab-separated fields, `\N` for null, one line a row. */
  copy(query: string): Promise<Buffer>;
}

const INITIAL_BYTES = 1 << 20;

/**
 * `COPY … TO STDOUT` on a node-postgres connection, as pg's Submittable: each row's bytes are copied as they arrive (the
 * protocol parser reuses its buffer), so a million rows cost one growing buffer and no string or object per field.
 */
class CopyOut implements pg.Submittable {
  callback?: (error: Error | null) => void;
  private bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  private length = 0;
  private readonly done: Promise<Buffer>;
  private settle: (error: Error | null) => void = () => undefined;

  constructor(private readonly text: string) {
    this.done = new Promise((resolve, reject) => {
      this.settle = (error) => {
        this.settle = () => undefined;
        if (error) reject(error);
        else resolve(this.bytes.subarray(0, this.length));
      };
    });
    this.callback = (error) => this.settle(error);
  }

  submit(connection: { query: (text: string) => void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    const chunk = message.chunk;
    if (this.length + chunk.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + chunk.length));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.length += chunk.copy(this.bytes, this.length);
  }

  handleCommandComplete(): void {
    // the rows are all in; ReadyForQuery follows
  }

  handleReadyForQuery(): void {
    this.callback?.(null);
  }

  handleError(error: Error): void {
    this.callback?.(error);
  }

  handleEmptyQuery(): void {
    // not sent for a COPY
  }

  result(): Promise<Buffer> {
    return this.done;
  }
}

const SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/** The pool behind a node-postgres Db, or null on PGlite. */
function poolOf(db: Db): pg.Pool | null {
  // -- drizzle's databases carry their driver as $client, which the shared Db type does not name.
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

/**
 * Runs `work` in one short repeatable-read, read-only transaction with a connection of its own, released as soon as it
 * ends: a reader of millions of rows takes one such snapshot per slice and never holds a connection between slices.
 * On PostgreSQL `copy` streams COPY TO STDOUT; on PGlite it copies to '/dev/blob', its in-memory answer.
 */
export async function inReadSnapshot<T>(db: Db, work: (snapshot: ReadSnapshot) => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  if (!pool) {
    return db.transaction(
      (tx) =>
        work({
          tx,
          copy: async (query) => {
            // -- PGlite answers a COPY to '/dev/blob' with the rows as a Blob beside the usual result fields.
            const result = (await tx.execute(sql.raw(`copy (${query}) to '/dev/blob'`))) as unknown as { blob?: Blob };
            return result.blob ? Buffer.from(await result.blob.arrayBuffer()) : Buffer.alloc(0);
          },
        }),
      SNAPSHOT,
    );
  }
  const connection = await pool.connect();
  let broken: Error | undefined;
  try {
    await connection.query('begin isolation level repeatable read read only');
    // -- a schema-less drizzle over the one connection: the snapshot's reads are selects and raw statements, never relational queries.
    const tx = drizzlePg({ client: connection }) as unknown as Conn;
    const result = await work({ tx, copy: (query) => connection.query(new CopyOut(`copy (${query}) to stdout`)).result() });
    await connection.query('commit');
    return result;
  } catch (error) {
    await connection.query('rollback').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    connection.release(broken);
  }
}
