import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { sqlState } from './client.ts';

/**
 * drizzle-orm 0.45's pooled transaction() ran BEGIN before the try/finally that releases its client (drizzle-orm#6241),
 * so a BEGIN on a cut connection kept that client checked out for good: an export worker's one-connection pool then
 * waited for ever on close. patches/drizzle-orm+0.45.4.patch (applied by patch-package at install) fixes it; this is
 * its check on a real server, in either suite.
 */
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
let pool: pg.Pool | null = null;

afterEach(async () => {
  await pool?.end();
  pool = null;
});

describe('a pooled transaction on a connection that is cut', () => {
  it('when its BEGIN fails, then the connection leaves the pool and the next transaction gets a new one', async () => {
    const onePool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
    pool = onePool;
    let cut = true;
    onePool.on('acquire', (client) => {
      if (!cut) return;
      cut = false;
      void client.end();
    });
    const db = drizzle({ client: onePool });
    await expect(db.transaction((tx) => tx.execute(sql`select 1`))).rejects.toThrow(/Failed query: begin/);
    expect(onePool.totalCount).toBe(0);
    const { rows } = await db.transaction((tx) => tx.execute<{ n: number }>(sql`select 2 as n`));
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('when the connection dies inside the transaction, then the caller gets that statement’s error and the connection leaves the pool', async () => {
    const onePool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
    pool = onePool;
    onePool.on('error', () => undefined);
    onePool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzle({ client: onePool });
    const failure = await db
      .transaction((tx) => tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`))
      .catch((error: unknown) => error);
    expect(sqlState(failure)).toBe('57P01');
    expect(onePool.totalCount).toBe(0);
    const { rows } = await db.transaction((tx) => tx.execute<{ n: number }>(sql`select 3 as n`));
    expect(rows).toEqual([{ n: 3 }]);
  });
});
