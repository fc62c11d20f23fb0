import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { asc, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { schema, type Db } from '../../db/client.ts';
import { runLedgerVerify } from './verifier.ts';

const migrationsFolder = fileURLToPath(new URL('../../db/migrations', import.meta.url));

/** A copy of the migrations as they were before the ledger: everything below 0003. */
function migrationsBeforeLedger(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-mig-'));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((entry) => entry.idx < 3);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

let db: Db;
let migrateTo: (folder: string) => Promise<void>;
let close: () => Promise<void>;

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `padtrack_m_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    /* pool.end() resolves before its connections have closed; the forced DROP below ends them with 57P01, which an
       unheard pool would throw as an uncaught error. */
    pool.on('error', () => undefined);
    const orm = drizzlePg({ client: pool, schema });
    db = orm as unknown as Db;
    migrateTo = (folder) => migratePg(orm, { migrationsFolder: folder });
    close = async () => {
      await pool.end();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    };
  } else {
    const client = await PGlite.create({ extensions: { btree_gist, pg_trgm } });
    const orm = drizzlePglite({ client, schema });
    db = orm as unknown as Db;
    migrateTo = (folder) => migratePglite(orm, { migrationsFolder: folder });
    close = () => client.close();
  }
});
afterAll(async () => {
  await close();
});

describe('ledger migration', () => {
  it('when a database from before the ledger migrates, then each pad gets an opening event and its uses, and the ledger verifies', async () => {
    await migrateTo(migrationsBeforeLedger());
    await db.execute(sql`insert into company_types (id, name) values (1, 'Shipping Line') on conflict do nothing`);
    await db.execute(
      sql`insert into pad_statuses (id, name) values (1, 'Used'), (2, 'Partially Used'), (3, 'Unused'), (4, 'Cancelled'), (5, 'Lost') on conflict do nothing`,
    );
    await db.execute(sql`insert into issuance_statuses (id, name) values (1, 'Not Issued'), (2, 'Issued') on conflict do nothing`);
    await db.execute(sql`insert into user_statuses (id, name) values (1, 'Active'), (2, 'Inactive') on conflict do nothing`);
    await db.execute(sql`insert into companies (id, name, company_type_id) values (1, 'Starlite', 1)`);
    await db.execute(sql`insert into locations (id, name) values (1, 'Batangas')`);
    await db.execute(sql`insert into branches (id, company_id, name, location_id) values (1, 1, 'Head Office', 1), (2, 1, 'Batangas', 1)`);
    await db.execute(
      sql`insert into users (id, first_name, last_name, email, password_hash, user_status_id, branch_id) values (1, 'Ana', 'Cruz', 'ana@x.test', 'x', 1, 2)`,
    );
    await db.execute(sql`insert into routes (id, company_id, name, tin) values (1, 1, 'Batangas–Calapan', '123-456')`);
    await db.execute(sql`
      insert into pads (id, route_id, number, series_from, series_to, series_status, pad_status_id, issuance_status_id, holder_user_id, holder_branch_id, remarks) values
        (1, 1, 1, 101, 105, '11111', 3, 1, null, 1, null),
        (2, 1, 2, 106, 110, '12212', 2, 2, 1, 2, null),
        (3, 1, 3, 111, 115, '21111', 4, 2, 1, 2, 'Torn by rain')`);

    await migrateTo(migrationsFolder);

    const events = await db.select().from(schema.padEvents).orderBy(asc(schema.padEvents.pad_id), asc(schema.padEvents.seq));
    expect(
      events.map((e) => [e.pad_id, e.seq, e.kind, e.from_number, e.to_number, e.holder_user_id, e.holder_branch_id, e.reason]),
    ).toEqual([
      [1, 1, 'opening', 101, 105, null, 1, 'Opening balance when the ledger started'],
      [2, 1, 'opening', 106, 110, 1, 2, 'Opening balance when the ledger started'],
      [2, 2, 'used', 107, 108, 1, 2, null],
      [2, 3, 'used', 110, 110, 1, 2, null],
      [3, 1, 'opening', 111, 115, 1, 2, 'Opening balance when the ledger started'],
      [3, 2, 'used', 111, 111, 1, 2, null],
      [3, 3, 'cancelled', 112, 115, 1, 2, 'Torn by rain'],
    ]);
    const lines: string[] = [];
    expect(await runLedgerVerify(db, (line) => lines.push(line))).toBe(0);
    expect(lines.join('\n')).toContain('Ledger verified: 3 pads, 7 events, no problems.');
  });
});
