import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../src/shared/lookups.ts';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { seedLookups } from '../src/server/db/seed.ts';
import { padEvents } from '../src/server/db/schema/ledger.ts';
import { pads } from '../src/server/db/schema/pads.ts';
import { createBranch, createRoute, createUser } from '../src/server/test/factories.ts';
import { verifyLedger } from '../src/server/features/ledger/verifier.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = path.join(ROOT, '.tmp', `import-cli-${randomBytes(4).toString('hex')}`);
const dataDir = path.join(dir, 'data');
let databaseUrl = '';
let dropDatabase: () => Promise<void> = async () => undefined;

/** The embedded database in a data folder, or a new PostgreSQL database when TEST_DATABASE_URL is set. */
async function open(): Promise<Database> {
  return openDatabase({ url: databaseUrl || null, dataDir: databaseUrl ? null : dataDir });
}

function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ADMIN_PASSWORD: 'Admin@12345', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

const csv = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join('\n'));
  return file;
};

const counts = async () => {
  const database = await open();
  try {
    return {
      pads: (await database.db.select({ n: count() }).from(pads))[0].n,
      events: (await database.db.select({ n: count() }).from(padEvents))[0].n,
    };
  } finally {
    await database.close();
  }
};

beforeAll(async () => {
  fs.mkdirSync(dataDir, { recursive: true });
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const name = `padtrack_cli_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: server });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    };
  }
  const database = await open();
  await seedLookups(database.db);
  const branch = await createBranch(database.db, { name: 'Batangas Port' });
  await createRoute(database.db, { name: 'Batangas - Calapan', tin: '000-111-222' });
  await createUser(database.db, { email: 'cashier@padtrack.test', role_id: ROLE.TICKETING_OFFICER, branch_id: branch.id });
  await database.close();
}, 60_000);

afterAll(async () => {
  await dropDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});

const HEADER = 'route,series_from,series_to,pad_number,holder,used,cancelled,remarks';

describe('npm run import (docs/design.md §10)', () => {
  it('when a file with a bad row is given, then the CLI names its line and column, exits 1 and changes nothing', async () => {
    const file = csv('bad.csv', [
      HEADER,
      '000-111-222,1201,1250,1,cashier@padtrack.test,1201-1210,,',
      '000-111-222,1251,1240,2,Batangas Port,,,',
    ]);
    const result = await cli(['pads', file]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('line 3, column series_to: series_to must not be less than series_from');
    expect(result.stdout).toContain('Nothing was changed.');
    expect(await counts()).toEqual({ pads: 0, events: 0 });
  }, 120_000);

  it('when a good file is dry-run, then every row is printed and nothing changes; applied, the pads and their events are stored and verify', async () => {
    const file = csv('good.csv', [
      HEADER,
      '000-111-222,1201,1250,1,cashier@padtrack.test,1201-1210,1211,',
      'Batangas - Calapan,1251,1300,2,Batangas Port,,,',
    ]);
    const dry = await cli(['pads', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      'line 2: New pad 1 of 000-111-222, 1201-1250, held by cashier@padtrack.test: 39 not used, 10 used, 1 cancelled',
    );
    expect(await counts()).toEqual({ pads: 0, events: 0 });
    const applied = await cli(['pads', file]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied.');
    const database = await open();
    try {
      const [pad] = await database.db.select().from(pads).where(eq(pads.number, 1));
      expect(pad.series_status).toBe('2'.repeat(10) + '3' + '1'.repeat(39));
      expect((await database.db.select({ n: count() }).from(padEvents))[0].n).toBe(4);
      expect((await verifyLedger(database.db)).problems).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);
});
