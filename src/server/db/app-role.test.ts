import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { runLedgerVerify } from '../features/ledger/verifier.ts';
import { startApp } from '../start.ts';
import { createRoute } from '../test/factories.ts';
import { currentRole, grantAppRole, ownedTables } from './app-role.ts';
import { openDatabase, sqlState, type Database, type Db } from './client.ts';

/**
 * On PostgreSQL (TEST_DATABASE_URL) the app really connects as a login role of its own, migrated for by the
 * owner; on PGlite, which has one login, the same grants are checked by switching to the role (SET ROLE).
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const role = `padtrack_app_${randomBytes(5).toString('hex')}`;
const dbName = `padtrack_role_${randomBytes(5).toString('hex')}`;
let database: Database;
let owner: Database | null = null;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const urlOf = (base: string, user: string | null, name: string) => {
  const url = new URL(base);
  if (user) url.username = user;
  url.pathname = `/${name}`;
  return url.toString();
};

beforeAll(async () => {
  if (serverUrl) {
    await admin(`CREATE ROLE ${role} LOGIN`);
    await admin(`CREATE DATABASE ${dbName}`);
    database = await openDatabase({ url: urlOf(serverUrl, role, dbName), ownerUrl: urlOf(serverUrl, null, dbName), dataDir: null });
  } else {
    database = await openDatabase({ url: null, dataDir: null });
    owner = database;
    await database.db.execute(sql.raw(`create role ${role} nologin`));
    await grantAppRole(database.db, role);
    // PGlite's one login is its superuser, so the verifier's COPY into PGlite's in-memory /dev/blob needs this right of the stand-in role too.
    await database.db.execute(sql.raw(`grant pg_write_server_files to ${role}`));
    await database.db.execute(sql.raw(`set role ${role}`));
  }
});
afterAll(async () => {
  if (owner) await owner.db.execute(sql`reset role`);
  await database.close();
  if (serverUrl) {
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin(`DROP ROLE IF EXISTS ${role}`);
  }
});

async function refused(db: Db, statement: string): Promise<string | null> {
  try {
    await db.execute(sql.raw(statement));
    return null;
  } catch (error) {
    return sqlState(error);
  }
}

describe('the app role owns nothing', () => {
  it('when the app role tries to switch off, drop or bypass the ledger triggers, then the database refuses (42501)', async () => {
    expect(await currentRole(database.db)).toBe(role);
    expect(await ownedTables(database.db)).toEqual([]);
    expect(database.warnings).toEqual([]);
    for (const statement of [
      'alter table pad_events disable trigger pad_events_no_update_delete',
      'alter table pad_events disable trigger all',
      'alter table raaf_certificates disable trigger raaf_certificates_one_way',
      'drop trigger pad_events_no_update_delete on pad_events',
      'update pad_events set kind = kind',
      'delete from pad_events',
      'truncate pad_events',
      'delete from raaf_certificates',
      "update raaf_certificates set report_json = '{}'",
      'truncate raaf_certificates',
      'alter table pads owner to current_user',
      'drop table pads',
    ]) {
      expect(await refused(database.db, statement), statement).toBe('42501');
    }
  });

  it('when the app runs as that role, then it signs in, generates pads (writing the ledger) and the verifier passes', async () => {
    const config = {
      ...loadConfig({ ADMIN_EMAIL: 'admin@padtrack.test', ADMIN_PASSWORD: 'Admin@12345', APP_URL: 'http://padtrack.test' }),
      webDir: null,
    };
    const started = await startApp(config, {
      database: { ...database, close: async () => undefined },
      logger: pino({ level: 'silent' }),
      jobs: false,
    });
    try {
      const login = await started.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'admin@padtrack.test', password: 'Admin@12345' },
      });
      expect(login.statusCode, login.body).toBe(200);
      const headers = { authorization: `Bearer ${login.json().token as string}` };
      const route = await createRoute(started.ctx.db);
      const res = await started.app.inject({
        method: 'POST',
        url: '/api/add-pad',
        headers,
        payload: { route_id: route.id, series_from: 1, series_to: 120 },
      });
      expect(res.statusCode, res.body).toBe(201);
      const logout = await started.app.inject({ method: 'POST', url: '/api/logout', headers });
      expect(logout.statusCode).toBe(200);
      const lines: string[] = [];
      expect(await runLedgerVerify(started.ctx.db, (line) => lines.push(line))).toBe(0);
      expect(lines.join('\n')).toContain('Ledger verified: 3 pads, 3 events, no problems.');
    } finally {
      await started.app.close();
    }
  });
});
