import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { runBackup, runRestore } from '../backup-commands.ts';
import { loadConfig, type Config } from '../config.ts';
import { startApp } from '../start.ts';
import { createBranch, createRoute, signedIn } from '../test/factories.ts';
import type { TestApp } from '../test/test-app.ts';
import { pruneBackups, serveBackups } from './backup.ts';
import { openDatabase, type Database } from './client.ts';
import { pads } from './schema/pads.ts';

/**
 * The backup CLI against a running app: the embedded database through the app's control socket, or
 * PostgreSQL (TEST_DATABASE_URL) with pg_dump, each restored into an empty target and verified.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-backup-'));
const names: string[] = [];
const cleanups: Array<() => Promise<void>> = [];

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database to run on or restore into: its configuration. */
async function freshTarget(): Promise<Config> {
  const base = loadConfig({
    DATA_DIR: path.join(scratch, `data-${randomBytes(4).toString('hex')}`),
    ADMIN_EMAIL: 'admin@padtrack.test',
    ADMIN_PASSWORD: 'Admin@12345',
    APP_URL: 'http://padtrack.test',
  });
  if (!serverUrl) return { ...base, webDir: null };
  const name = `padtrack_bk_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  names.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { ...base, webDir: null, databaseUrl: url.toString() };
}

let source: Config;
let database: Database;
let t: Pick<TestApp, 'app' | 'ctx' | 'db'>;
let custodian: { authorization: string };

beforeAll(async () => {
  source = await freshTarget();
  database = await openDatabase({ url: source.databaseUrl, dataDir: source.databaseUrl ? null : source.dataDir });
  if (!source.databaseUrl) cleanups.push(await serveBackups(database, source.dataDir));
  const started = await startApp(source, { database, logger: pino({ level: 'silent' }), jobs: false });
  t = { app: started.app, ctx: started.ctx, db: started.ctx.db };
  cleanups.unshift(() => started.app.close());
  const branch = await createBranch(t.db);
  t.ctx.config.headOfficeBranchId = branch.id;
  custodian = (await signedIn(t as TestApp, { role_id: 3, branch_id: branch.id })).headers;
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const name of names) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('when a backup is taken during a burst of writes, then the restore holds every write acknowledged before it started and the verifier passes', async () => {
    const routes = await Promise.all(Array.from({ length: 24 }, () => createRoute(t.db)));
    const acknowledged = new Map<number, number>();
    const burst = routes.map((route, i) =>
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, i * 40));
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/add-pad',
          headers: custodian,
          payload: { route_id: route.id, series_from: 1, series_to: 150 },
        });
        expect(res.statusCode, res.body).toBe(201);
        acknowledged.set(route.id, performance.now());
      })(),
    );
    await expect.poll(() => acknowledged.size, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(6);
    const startedAt = performance.now();
    const before = [...acknowledged.entries()].filter(([, at]) => at < startedAt).map(([id]) => id);
    const file = path.join(scratch, `backup-${source.databaseUrl ? 'pg.dump' : 'embedded.tar.gz'}`);
    const backupLines: string[] = [];
    expect(await runBackup(source, file, (line) => backupLines.push(line))).toBe(0);
    await Promise.all(burst);
    expect(backupLines.join('\n')).toMatch(
      source.databaseUrl ? /Backed up PostgreSQL \(pg_dump custom format\)/ : /through the running app/,
    );
    expect(fs.statSync(file).size).toBeGreaterThan(1000);

    const target = await freshTarget();
    const lines: string[] = [];
    expect(await runRestore(target, file, false, (line) => lines.push(line)), lines.join('\n')).toBe(0);
    expect(lines.join('\n')).toMatch(/Ledger verified: \d+ pads, \d+ events, no problems\./);

    const restored = await openDatabase({ url: target.databaseUrl, dataDir: target.databaseUrl ? null : target.dataDir });
    try {
      for (const routeId of before) {
        const rows = await restored.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId));
        expect(rows, `route ${routeId}, acknowledged before the backup`).toHaveLength(3);
      }
      const [{ events }] = (
        (await restored.db.execute(sql`select count(*)::int as events from pad_events`)) as unknown as { rows: Array<{ events: number }> }
      ).rows;
      expect(events).toBeGreaterThanOrEqual(before.length * 3);
    } finally {
      await restored.close();
    }

    await expect(runRestore(target, file, false, () => undefined)).rejects.toThrow(/already (holds a database|has \d+ table)/);
    const again: string[] = [];
    expect(await runRestore(target, file, true, (line) => again.push(line))).toBe(0);
    expect(again.join('\n')).toMatch(/Ledger verified/);
  });

  it('when the daily backups outnumber BACKUP_KEEP, then the oldest are deleted and other files stay', () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'daily-'));
    for (const day of ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'])
      fs.writeFileSync(path.join(dir, `padtrack-${day}.dump`), 'x');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'keep me');
    expect(pruneBackups(dir, 2)).toEqual(['padtrack-2026-11-20.dump', 'padtrack-2026-11-21.dump']);
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.txt', 'padtrack-2026-11-22.dump', 'padtrack-2026-11-23.dump']);
  });
});
