import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { currentRole, grantAppRole, ownedTables } from './app-role.ts';
import * as reference from './schema/reference.ts';
import * as users from './schema/users.ts';
import * as registeredSeries from './schema/registered-series.ts';
import * as pads from './schema/pads.ts';
import * as invoices from './schema/invoices.ts';
import * as idempotency from './schema/idempotency.ts';
import * as reports from './schema/reports.ts';
import * as imports from './schema/imports.ts';
import * as ledger from './schema/ledger.ts';
import * as outcomes from './schema/outcomes.ts';
import * as incidents from './schema/incidents.ts';
import * as counts from './schema/counts.ts';
import * as settings from './schema/settings.ts';
import * as paperUse from './schema/paper-use.ts';
import * as infrastructure from './schema/infrastructure.ts';
import * as deliveries from './schema/deliveries.ts';
import * as notifications from './schema/notifications.ts';

/** Every table, for the ORM's relational API and its types. */
export const schema = {
  ...reference,
  ...users,
  ...registeredSeries,
  ...pads,
  ...invoices,
  ...idempotency,
  ...reports,
  ...imports,
  ...ledger,
  ...outcomes,
  ...incidents,
  ...counts,
  ...settings,
  ...paperUse,
  ...infrastructure,
  ...deliveries,
  ...notifications,
};
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or an open transaction: data access functions take whichever the service hands them. */
export type Conn = Db | Tx;

/** Called with each notification's payload, or with null after a lost listening connection came back (some may be missed). */
export type Listener = (payload: string | null) => void;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** PostgreSQL: the app's connection address (DATABASE_URL), for the connection an export worker opens with the same role. */
  url?: string;
  ping(): Promise<void>;
  /** LISTEN on a channel until the returned function is called; survives the server going away and coming back. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  /** What the operator should hear at start: the app's role owning the tables it should only use. */
  warnings: string[];
  /** PGlite only: a consistent gzipped tarball of the data directory, taken while the app runs (backup.ts). */
  dumpDataDir?: () => Promise<Buffer>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/**
 * The embedded database's buffer pool. PGlite's default (128 MB) is set up at every start, a CPU cost of its own (issue 39:
 * 1.9 s of start against 1.4 s at 32 MB); a page outside the pool is read from the operating system's cache, and the hot
 * part of a small operator's data (the recommended size, README) fits in 32 MB.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * How much WebAssembly a function runs before V8 compiles it again with its optimising compiler: ten times V8's default
 * (1,800,000). PGlite's boot and first statements make hundreds of postgres functions hot at once, and their optimising
 * compiles took both cores from the JavaScript starting beside them: registering the routes ran 2–3× slower than on
 * PostgreSQL (issue 39 point 6). A function that stays hot is still optimised, a few milliseconds of its work later.
 */
const PGLITE_WASM_TIERING_BUDGET = 18_000_000;

export interface PoolTimeouts {
  /** Longest a statement may run before the server cancels it. */
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

export const DEFAULT_POOL_TIMEOUTS: PoolTimeouts = { statementTimeoutMs: 30_000, connectTimeoutMs: 5_000, idleTimeoutMs: 30_000 };

/**
 * A pool that survives the database going away: every client, idle or checked out, has an error
 * listener (an unheard 'error' event would end the process), and connect, statement and idle timeouts
 * turn a frozen server into errors the API answers with 503 instead of requests that hang.
 */
function resilientPool(url: string, timeouts: PoolTimeouts, size: { max: number; name?: string } = { max: 10 }): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: size.max,
    ...(size.name ? { application_name: size.name } : {}),
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    idleTimeoutMillis: timeouts.idleTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + 5_000,
  });
  const ignore = () => {
    // the failed query rejects on its own and the pool discards the broken client
  };
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  return pool;
}

const RELISTEN_MS = 1_000;

/**
 * A connection of its own that LISTENs on PostgreSQL. When it breaks, it reconnects every second and then
 * tells the listener null, since notifications sent meanwhile are lost.
 */
async function listenOnServer(url: string, channel: string, listener: Listener, timeouts: PoolTimeouts): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeouts.connectTimeoutMs });
    const lost = () => {
      next.removeAllListeners('notification');
      if (client === next) client = null;
      if (!stopped && !retry) retry = setTimeout(reconnect, RELISTEN_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel) listener(message.payload ?? '');
    });
    await next.connect();
    await next.query(`LISTEN "${channel.replaceAll('"', '')}"`);
    client = next;
  };
  const reconnect = () => {
    retry = null;
    connect().then(
      () => listener(null),
      () => {
        if (!stopped && !retry) retry = setTimeout(reconnect, RELISTEN_MS);
      },
    );
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/** PostgreSQL when a URL is given, otherwise PGlite in dataDir (or in memory when dataDir is null). */
/** Namespace of the advisory lock under which one starting instance at a time migrates ("MIGR"). */
const MIGRATION_LOCK = 0x4d494752;

/** Instances starting together migrate one after the other: the lock is held by a session of its own. */
async function oneAtATime(pool: pg.Pool, work: () => Promise<unknown>): Promise<void> {
  const holder = await pool.connect();
  try {
    await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await work();
    } finally {
      await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    holder.release();
  }
}

/**
 * Migrates as the owner and grants the app's role what it needs (app-role.ts); without an owner URL the
 * app's own role migrates, owns the tables, and a warning says so.
 */
async function migrateServer(pool: pg.Pool, ownerUrl: string | null | undefined): Promise<string[]> {
  // Cast: node-postgres' and PGlite's drizzle databases differ only in their driver types; every query the app runs is typed through the one Db type.
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  if (!ownerUrl) {
    await oneAtATime(pool, () => migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder }));
    return [
      'DATABASE_OWNER_URL is not set: the app migrates and runs as one role, which owns the tables and could switch off the ledger\'s append-only triggers. Set DATABASE_OWNER_URL to the owner and DATABASE_URL to a role that owns nothing (README, "Running on PostgreSQL").',
    ];
  }
  const ownerPool = new pg.Pool({ connectionString: ownerUrl, max: 3 });
  ownerPool.on('error', () => undefined);
  try {
    // Cast: node-postgres' and PGlite's drizzle databases differ only in their driver types; every query the app runs is typed through the one Db type.
    const owner = drizzlePg({ client: ownerPool, schema }) as unknown as Db;
    await oneAtATime(ownerPool, async () => {
      await migratePg(drizzlePg({ client: ownerPool, schema }), { migrationsFolder });
      const appRole = await currentRole(db);
      if (appRole !== (await currentRole(owner))) await grantAppRole(owner, appRole);
    });
  } finally {
    await ownerPool.end();
  }
  const owned = await ownedTables(db);
  return owned.length > 0
    ? [
        `The app's database role owns ${owned.length} table(s) (${owned.slice(0, 3).join(', ')}…): it could switch off the ledger's triggers. Give them to the owner role (ALTER TABLE … OWNER TO …).`,
      ]
    : [];
}

/**
 * True when the embedded database's last applied migration is the journal's last, with the same SQL (drizzle's hash):
 * the migrator would then only read and hash every migration file and run three statements to do nothing, a cost of
 * every start on the embedded database, where each statement runs in this process.
 */
async function migrationsCurrent(client: PGlite): Promise<boolean> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  const last = journal.entries.at(-1);
  if (!last) return false;
  const hash = createHash('sha256')
    .update(fs.readFileSync(path.join(migrationsFolder, `${last.tag}.sql`)).toString())
    .digest('hex');
  const applied = await client
    .query<{ hash: string; created_at: string }>(
      'select hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1',
    )
    .catch(() => null);
  const row = applied?.rows[0];
  return row !== undefined && row.hash === hash && Number(row.created_at) === last.when;
}

export async function openDatabase(options: {
  url: string | null;
  ownerUrl?: string | null;
  dataDir: string | null;
  timeouts?: PoolTimeouts;
}): Promise<Database> {
  if (options.url) {
    const timeouts = options.timeouts ?? DEFAULT_POOL_TIMEOUTS;
    const pool = resilientPool(options.url, timeouts);
    /* A database that cannot be migrated is not opened: its connections go too, or a failed command would wait out their idle timeout before it exits. */
    const warnings = await migrateServer(pool, options.ownerUrl).catch(async (error: unknown) => {
      await pool.end();
      throw error;
    });
    return serverDatabase(pool, options.url, timeouts, warnings);
  }
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  // Read by V8 when the module is instantiated, so it holds for every PGlite this process opens from here on.
  v8.setFlagsFromString(`--wasm-tiering-budget=${PGLITE_WASM_TIERING_BUDGET}`);
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    extensions: { btree_gist, pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const pgliteDb = drizzlePglite({ client, schema });
  if (!(await migrationsCurrent(client))) await migratePglite(pgliteDb, { migrationsFolder });
  // Cast: node-postgres' and PGlite's drizzle databases differ only in their driver types; every query the app runs is typed through the one Db type.
  const db = pgliteDb as unknown as Db;
  return {
    kind: 'pglite',
    db,
    ping: async () => {
      if (client.closed) throw new Error('database closed');
      await db.execute(sql`select 1`);
    },
    listen: async (channel, listener) => {
      const stop = await client.listen(channel, (payload) => listener(payload));
      return async () => {
        if (!client.closed) await stop();
      };
    },
    warnings: [],
    dumpDataDir: async () => {
      const blob = await client.transaction(async (tx) => {
        await tx.exec('CHECKPOINT');
        return client.dumpDataDir('gzip');
      });
      return Buffer.from(await blob.arrayBuffer());
    },
    close: () => client.close(),
  };
}

/** What an export worker's connection is named in pg_stat_activity. */
export const EXPORT_CONNECTION_NAME = 'padtrack export';

/**
 * One connection to the app's PostgreSQL database with the app's role and timeouts, for an export worker
 * (src/server/exports/worker.ts): nothing is migrated, and pg_stat_activity names it EXPORT_CONNECTION_NAME.
 */
export function exportDatabase(url: string, timeouts: PoolTimeouts): Database {
  return serverDatabase(resilientPool(url, timeouts, { max: 1, name: EXPORT_CONNECTION_NAME }), url, timeouts, []);
}

function serverDatabase(pool: pg.Pool, url: string, timeouts: PoolTimeouts, warnings: string[]): Database {
  // Cast: node-postgres' and PGlite's drizzle databases differ only in their driver types; every query the app runs is typed through the one Db type.
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, listener) => listenOnServer(url, channel, listener, timeouts),
    url,
    warnings,
    close: () => pool.end(),
  };
}

/** The SQLSTATE of a database error, looking through the wrappers the ORM adds. */
export function sqlState(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (typeof current === 'object' && current !== null) {
      // Cast: a driver error and its causes are untyped; the field is read as unknown and checked before it is used.
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
      // Cast: a driver error and its causes are untyped; the field is read as unknown and checked before it is used.
      current = (current as { cause?: unknown }).cause;
    } else break;
  }
  return null;
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '57014',
]);
const UNAVAILABLE_MESSAGE =
  /connection terminated|connection timeout|timeout exceeded|not queryable|query read timeout|pglite is closed|database closed/i;

/**
 * True when the database is away rather than the request being wrong: refused or dropped connections,
 * SQLSTATE class 08, an administrator shutdown or cancel (57P01–57P03, 57014) and client timeouts.
 */
export function databaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth += 1) {
    if (typeof current !== 'object' || current === null) break;
    // Cast: a driver error and its causes are untyped; the field is read as unknown and checked before it is used.
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (Array.isArray(errors) && errors.some(databaseUnavailable)) return true;
    // Cast: a driver error and its causes are untyped; the field is read as unknown and checked before it is used.
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The constraint named by a database error, if any. */
export function violatedConstraint(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (typeof current === 'object' && current !== null) {
      // Cast: a driver error and its causes are untyped; the field is read as unknown and checked before it is used.
      const constraint = (current as { constraint?: unknown }).constraint;
      if (typeof constraint === 'string') return constraint;
      // Cast: a driver error and its causes are untyped; the field is read as unknown and checked before it is used.
      current = (current as { cause?: unknown }).cause;
    } else break;
  }
  return null;
}
