import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.ts';

const run = promisify(execFile);

/**
 * Where a running app on the embedded database answers its backup CLI: a Unix socket only this user can
 * open, outside DATA_DIR (which the dump copies). The embedded database is held by that one process, so
 * the CLI asks it for the dump instead of opening the files itself.
 */
export function controlSocketPath(dataDir: string): string {
  return path.join(os.tmpdir(), `padtrack-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}.sock`);
}

/** Serves POST /backup on the control socket with a consistent dump of the running embedded database. */
export async function serveBackups(database: Database, dataDir: string): Promise<() => Promise<void>> {
  const dump = database.dumpDataDir;
  if (!dump) throw new Error('Only the embedded database is backed up through its process.');
  const socket = controlSocketPath(dataDir);
  if (await askControl(socket, 'GET', '/ping').catch(() => null)) throw new Error(`Another PadTrack process already serves ${dataDir}.`);
  fs.rmSync(socket, { force: true });
  const server = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/ping') return response.end('pong');
    if (request.method !== 'POST' || request.url !== '/backup') return response.writeHead(404).end();
    dump().then(
      (bytes) => response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length }).end(bytes),
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  fs.chmodSync(socket, 0o600);
  server.unref();
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socket, { force: true });
    });
}

function askControl(socket: string, method: string, urlPath: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath: socket, method, path: urlPath }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(Buffer.concat(chunks))
          : reject(new Error(Buffer.concat(chunks).toString() || `status ${response.statusCode}`)),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** True when a PadTrack process holds this data directory now. */
export async function embeddedInUse(dataDir: string): Promise<boolean> {
  return (await askControl(controlSocketPath(dataDir), 'GET', '/ping').catch(() => null)) !== null;
}

const writeAtomically = (file: string, bytes: Buffer) => {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, bytes, { mode: 0o600 });
  fs.renameSync(partial, file);
};

/** The running embedded database of this process to a file (the scheduled backup). */
export async function dumpToFile(database: Database, file: string): Promise<void> {
  if (!database.dumpDataDir) throw new Error('Only the embedded database is dumped in process.');
  writeAtomically(file, await database.dumpDataDir());
}

/** The embedded database to a gzipped tarball: through the running app when there is one, else straight from the files. */
export async function backupEmbedded(dataDir: string, file: string): Promise<'running app' | 'data directory'> {
  if (await embeddedInUse(dataDir)) {
    writeAtomically(file, await askControl(controlSocketPath(dataDir), 'POST', '/backup'));
    return 'running app';
  }
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) throw new Error(`There is no embedded database in ${dataDir}.`);
  const client = await PGlite.create({ dataDir });
  try {
    writeAtomically(file, Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()));
  } finally {
    await client.close();
  }
  return 'data directory';
}

/** Replaces the embedded database in dataDir by the backup; refuses a database in use, and an existing one without force. */
export async function restoreEmbedded(dataDir: string, file: string, force: boolean): Promise<void> {
  if (await embeddedInUse(dataDir)) throw new Error(`PadTrack is running on ${dataDir}: stop it before restoring.`);
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (!force) throw new Error(`${dataDir} already holds a database. Restore into an empty DATA_DIR, or add --force to replace it.`);
    for (const entry of fs.readdirSync(dataDir))
      if (entry !== 'mail') fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, loadDataDir: new Blob([fs.readFileSync(file)]) });
  await client.close();
}

async function serverMajor(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>('show server_version_num');
    return Math.floor(Number(rows[0].v) / 10_000);
  } finally {
    await client.end();
  }
}

/** pg_dump and pg_restore must be at least the server's major version, or the dump may miss what the server has. */
async function checkClientVersion(tool: 'pg_dump' | 'pg_restore', url: string): Promise<void> {
  const { stdout } = await run(tool, ['--version']).catch(() => {
    throw new Error(`${tool} is not installed (Debian: apt-get install postgresql-client).`);
  });
  const client = Number(/(\d+)(?:\.\d+)?/.exec(stdout)?.[1] ?? 0);
  const server = await serverMajor(url);
  if (client < server)
    throw new Error(`${tool} ${client} is older than the server (PostgreSQL ${server}); install postgresql-client-${server}.`);
}

/** A consistent online backup of PostgreSQL: pg_dump's custom format, from one snapshot while the app runs. */
export async function backupServer(url: string, file: string): Promise<void> {
  await checkClientVersion('pg_dump', url);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  await run('pg_dump', ['--format=custom', `--file=${partial}`, `--dbname=${url}`]);
  fs.chmodSync(partial, 0o600);
  fs.renameSync(partial, file);
}

/** Restores a pg_dump into the database at url (as its owner); refuses one that has tables unless force, which drops them first. */
export async function restoreServer(url: string, file: string, force: boolean): Promise<void> {
  await checkClientVersion('pg_restore', url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')",
    );
    if (rows[0].n > 0) {
      if (!force)
        throw new Error(
          `The target database already has ${rows[0].n} table(s). Restore into an empty database, or add --force to replace them.`,
        );
      await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
    }
  } finally {
    await client.end();
  }
  await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, file]);
}

/** The scheduled copies in dir, oldest first, beyond `keep` removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const ours = fs
    .readdirSync(dir)
    .filter((name) => /^padtrack-\d{4}-\d{2}-\d{2}\.(tar\.gz|dump)$/.test(name))
    .sort();
  const gone = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of gone) fs.rmSync(path.join(dir, name));
  return gone;
}
