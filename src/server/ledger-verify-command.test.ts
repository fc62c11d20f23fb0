import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { ledgerChecks } from './db/schema/ledger.ts';
import { pads } from './db/schema/pads.ts';
import { runLedgerVerifyCommand } from './ledger-verify-command.ts';
import { startApp } from './start.ts';
import { createBranch, createRoute, signedIn } from './test/factories.ts';
import type { TestApp } from './test/test-app.ts';

/** `npm run ledger:verify` as an operator runs it: on its own connection to a database the app has written, the app stopped. */
const serverUrl = process.env.TEST_DATABASE_URL;
/** The app-role case needs a login role of its own, which only a PostgreSQL server has: the suite's, or on PGlite runs the local one. */
const pgServerUrl = serverUrl ?? 'postgres://postgres@127.0.0.1:5432/test';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-verify-'));
const names: string[] = [];
const roles: string[] = [];

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: pgServerUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const urlOf = (user: string | null, name: string) => {
  const url = new URL(pgServerUrl);
  if (user) url.username = user;
  url.pathname = `/${name}`;
  return url.toString();
};

/** A fresh database (a data folder, or a new PostgreSQL database) and its configuration. */
async function freshConfig(): Promise<Config> {
  const base = loadConfig({
    DATA_DIR: path.join(scratch, `data-${randomBytes(4).toString('hex')}`),
    ADMIN_EMAIL: 'admin@padtrack.test',
    ADMIN_PASSWORD: 'Admin@12345',
    APP_URL: 'http://padtrack.test',
  });
  if (!serverUrl) return { ...base, webDir: null };
  const name = `padtrack_lv_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  names.push(name);
  return { ...base, webDir: null, databaseUrl: urlOf(null, name) };
}

afterAll(async () => {
  for (const name of names) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  for (const role of roles) await admin(`DROP ROLE IF EXISTS ${role}`);
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('npm run ledger:verify', () => {
  it('when an old event is edited behind the app, then the default (full) check finds it where --quick passes it by, and each run is stored', async () => {
    const config = await freshConfig();
    const started = await startApp(config, { logger: pino({ level: 'silent' }), jobs: false });
    const t = { app: started.app, ctx: started.ctx, db: started.ctx.db } as unknown as TestApp;
    const office = await createBranch(t.db);
    t.ctx.config.headOfficeBranchId = office.id;
    const custodian = await signedIn(t, { role_id: 3, branch_id: office.id });
    const route = await createRoute(t.db);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/add-pad',
      headers: custodian.headers,
      payload: { route_id: route.id, series_from: 9_100_001, series_to: 9_100_100 },
    });
    expect(added.statusCode).toBe(201);
    const [pad] = await t.db.select().from(pads).where(eq(pads.route_id, route.id)).orderBy(asc(pads.id));
    await started.app.close();

    const run = async (args: string[]) => {
      const lines: string[] = [];
      const code = await runLedgerVerifyCommand(config, args, (line) => lines.push(line));
      return { code, output: lines.join('\n') };
    };
    expect(await run([])).toEqual({ code: 0, output: 'Ledger verified: 2 pads, 2 events, no problems.' });

    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? null : config.dataDir });
    try {
      await database.db.execute(sql`alter table pad_events disable trigger pad_events_no_update_delete`);
      await database.db.execute(sql`update pad_events set reason = 'edited' where pad_id = ${pad.id}`);
      await database.db.execute(sql`alter table pad_events enable trigger pad_events_no_update_delete`);
    } finally {
      await database.close();
    }

    expect(await run(['--quick'])).toEqual({ code: 0, output: 'Ledger verified: 0 pads, 0 events, no problems.' });
    const full = await run([]);
    expect(full.code).toBe(1);
    expect(full.output).toContain(`pad ${pad.id} (route ${route.id}, pad no. 1, 9100001-9100050):`);
    expect(full.output).toMatch(/event \d+ \(seq 1, received\) was altered: its hash does not match its content/);
    expect(full.output).toContain('Ledger verification FAILED: 1 problem(s) on 1 pad(s) (2 pads, 2 events checked).');
    expect((await run(['--full'])).code).toBe(1);
    expect(await run(['--fast'])).toEqual({
      code: 2,
      output: 'Unknown option --fast. Usage: npm run ledger:verify [-- --quick] [--balances=all]',
    });

    const stored = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? null : config.dataDir });
    try {
      const rows = await stored.db.select().from(ledgerChecks).orderBy(asc(ledgerChecks.id));
      expect(rows.map((row) => [row.mode, row.source, row.ok, row.pads, row.problems])).toEqual([
        ['full', 'command', true, 2, 0],
        ['incremental', 'command', true, 0, 0],
        ['full', 'command', false, 2, 1],
        ['full', 'command', false, 2, 1],
      ]);
      expect(rows[0].ran_by).toBe(`npm run ledger:verify by ${os.userInfo().username} on ${os.hostname()}`);
    } finally {
      await stored.close();
    }
  });

  /* The app's own login role exists only on PostgreSQL (the embedded database has one user, who owns everything), so this case always runs on a server. */
  it("when DATABASE_URL is the app's role and DATABASE_OWNER_URL is not set, then the command prints one line naming DATABASE_OWNER_URL and exits 2", async () => {
    const role = `padtrack_app_${randomBytes(5).toString('hex')}`;
    const name = `padtrack_lv_${randomBytes(5).toString('hex')}`;
    await admin(`CREATE ROLE ${role} LOGIN`);
    roles.push(role);
    await admin(`CREATE DATABASE ${name}`);
    names.push(name);
    const owned = await openDatabase({ url: urlOf(role, name), ownerUrl: urlOf(null, name), dataDir: null });
    await owned.close();

    const script = path.resolve(import.meta.dirname, '../../scripts/ledger-verify.ts');
    const tsx = path.resolve(import.meta.dirname, '../../node_modules/.bin/tsx');
    const env = { ...process.env, DATABASE_URL: urlOf(role, name), DATABASE_OWNER_URL: '' };
    const result = await promisify(execFile)(tsx, [script], { env }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `ledger:verify needs DATABASE_OWNER_URL (the URL of the role that owns the tables, README "Running on PostgreSQL"): the app's role ${role} in DATABASE_URL may not migrate the database before checking it (permission denied for database ${name}).\n`,
    );
    const client = new pg.Client({ connectionString: urlOf(null, name) });
    await client.connect();
    try {
      expect((await client.query('select count(*)::int as n from ledger_checks')).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});
