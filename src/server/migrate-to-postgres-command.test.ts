import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type Config } from './config.ts';
import { backupEmbedded } from './db/backup.ts';
import { openDatabase } from './db/client.ts';
import { rowCounts } from './db/copy-to-server.ts';
import { runMigrateToPostgres } from './migrate-to-postgres-command.ts';
import { startApp } from './start.ts';
import { createBranch, createRoute, signedIn } from './test/factories.ts';
import type { TestApp } from './test/test-app.ts';

/** The move needs a PostgreSQL server to move into: the suite's, or on PGlite runs the local one. */
const pgServerUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-migrate-test-'));
const names: string[] = [];

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: pgServerUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new empty PostgreSQL database, named in DATABASE_URL of the embedded installation's configuration. */
async function emptyTarget(config: Config): Promise<Config> {
  const name = `padtrack_mv_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  names.push(name);
  const url = new URL(pgServerUrl);
  url.pathname = `/${name}`;
  return { ...config, databaseUrl: url.toString() };
}

/** An embedded installation that issued pads through the API, stopped; the counts of its tables. */
async function embeddedWithPads(): Promise<{ config: Config; counts: Record<string, number> }> {
  const config: Config = {
    ...loadConfig({
      DATA_DIR: path.join(scratch, `data-${randomBytes(4).toString('hex')}`),
      ADMIN_EMAIL: 'admin@padtrack.test',
      ADMIN_PASSWORD: 'Admin@12345',
      APP_URL: 'http://padtrack.test',
    }),
    databaseUrl: null,
    databaseOwnerUrl: null,
    webDir: null,
  };
  const started = await startApp(config, { logger: pino({ level: 'silent' }), jobs: false });
  const t = { app: started.app, ctx: started.ctx, db: started.ctx.db } as unknown as TestApp;
  const office = await createBranch(t.db);
  t.ctx.config.headOfficeBranchId = office.id;
  const custodian = await signedIn(t, { role_id: 3, branch_id: office.id });
  for (const from of [9_200_001, 9_300_001]) {
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/add-pad',
      headers: custodian.headers,
      payload: { route_id: (await createRoute(t.db)).id, series_from: from, series_to: from + 249 },
    });
    expect(added.statusCode).toBe(201);
  }
  const counts = await rowCounts(t.db);
  await started.app.close();
  return { config, counts };
}

afterAll(async () => {
  for (const name of names) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  fs.rmSync(scratch, { recursive: true, force: true });
});

const run = async (config: Config, args: string[] = []) => {
  const lines: string[] = [];
  const code = await runMigrateToPostgres(config, args, (line) => lines.push(line));
  return { code, output: lines.join('\n') };
};

/** The target's counts, less the verifier's own bookkeeping of the check that ended the move. */
async function countsOn(url: string | null): Promise<Record<string, number>> {
  const database = await openDatabase({ url, dataDir: null });
  try {
    return { ...(await rowCounts(database.db)), ledger_verified_heads: 0, ledger_verify_runs: 0 };
  } finally {
    await database.close();
  }
}

describe('npm run migrate-to-postgres', () => {
  it('when an embedded installation with pads and events is moved, then PostgreSQL holds the same rows and the full ledger check passes', async () => {
    const { config, counts } = await embeddedWithPads();
    expect(counts.pads).toBe(10);
    expect(counts.pad_events).toBeGreaterThanOrEqual(10);
    const target = await emptyTarget(config);

    const moved = await run(target);

    expect(moved.code).toBe(0);
    expect(moved.output).toContain(`pads 10, ledger events ${counts.pad_events}`);
    expect(moved.output).toContain(`Ledger verified: 10 pads, ${counts.pad_events} events, no problems.`);
    expect(await countsOn(target.databaseUrl)).toEqual(counts);
  }, 240_000);

  it('when the target already has tables, then it refuses and says to name an empty database', async () => {
    const { config } = await embeddedWithPads();
    const target = await emptyTarget(config);
    expect((await run(target)).code).toBe(0);

    const again = await run(target);

    expect(again.code).toBe(2);
    expect(again.output).toMatch(/^The target database already has \d+ table\(s\): migrate-to-postgres moves into an empty database only/);
  }, 240_000);

  it('when a backup file is named, then its data is moved and the ledger verified', async () => {
    const { config, counts } = await embeddedWithPads();
    const file = path.join(scratch, `backup-${randomBytes(4).toString('hex')}.tar.gz`);
    await backupEmbedded(config.dataDir, file);
    const target = await emptyTarget({ ...config, dataDir: path.join(scratch, 'no-such-dir') });

    const moved = await run(target, ['--', '--from-backup', file]);

    expect(moved.code).toBe(0);
    expect(await countsOn(target.databaseUrl)).toEqual(counts);
  }, 240_000);

  it('when DATABASE_URL is not set, then it says what to set and does nothing', async () => {
    expect(await run(loadConfig({ DATA_DIR: path.join(scratch, 'none') }))).toEqual({
      code: 2,
      output:
        'Set DATABASE_URL to the empty PostgreSQL database to move into. Usage: DATABASE_URL=postgres://… npm run migrate-to-postgres [-- --from-backup FILE]',
    });
  });
});
