import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from './config.ts';
import { embeddedInUse, restoreEmbedded } from './db/backup.ts';
import { openDatabase, type Database } from './db/client.ts';
import { copyEmbeddedToServer, rowCounts, serverTableCount } from './db/copy-to-server.ts';
import { runLedgerVerify } from './features/ledger/verifier.ts';

export const MIGRATE_USAGE = 'Usage: DATABASE_URL=postgres://… npm run migrate-to-postgres [-- --from-backup FILE]';

/** The embedded database to copy: DATA_DIR's, or a backup file unpacked into a scratch folder removed afterwards. */
async function openSource(config: Config, backup: string | null): Promise<{ database: Database; cleanUp: () => void }> {
  if (!backup) {
    if (!fs.existsSync(path.join(config.dataDir, 'PG_VERSION'))) throw new Error(`There is no embedded database in ${config.dataDir}.`);
    if (await embeddedInUse(config.dataDir))
      throw new Error(`PadTrack is running on ${config.dataDir}: stop it first, so that nothing is written after the copy.`);
    return { database: await openDatabase({ url: null, dataDir: config.dataDir }), cleanUp: () => undefined };
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-migrate-'));
  try {
    await restoreEmbedded(scratch, path.resolve(backup), false);
    return {
      database: await openDatabase({ url: null, dataDir: scratch }),
      cleanUp: () => fs.rmSync(scratch, { recursive: true, force: true }),
    };
  } catch (error) {
    fs.rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/**
 * `npm run migrate-to-postgres`: moves a grown embedded installation (DATA_DIR, or a backup file) into the empty PostgreSQL
 * database of DATABASE_URL: the same migrations make its schema, every row and sequence is copied, the counts are
 * compared table by table, and the full ledger verifier runs on the result. A target with tables is refused, never
 * overwritten. Exit code 0 moved and verified, 1 the counts or the ledger disagree, 2 cannot run.
 */
export async function runMigrateToPostgres(config: Config, args: string[], print: (line: string) => void): Promise<number> {
  const rest = args.filter((arg) => arg !== '--');
  const backup = rest.length === 2 && rest[0] === '--from-backup' ? rest[1] : null;
  if (!config.databaseUrl || (rest.length > 0 && backup === null)) {
    print(config.databaseUrl ? MIGRATE_USAGE : `Set DATABASE_URL to the empty PostgreSQL database to move into. ${MIGRATE_USAGE}`);
    return 2;
  }
  const ownerUrl = config.databaseOwnerUrl ?? config.databaseUrl;
  const existing = await serverTableCount(ownerUrl);
  if (existing > 0) {
    print(
      `The target database already has ${existing} table(s): migrate-to-postgres moves into an empty database only, and overwrites nothing. Create an empty one (createdb) and name it in DATABASE_URL.`,
    );
    return 2;
  }
  const source = await openSource(config, backup);
  let target: Database | undefined;
  try {
    print(`Moving ${backup ? `the backup ${path.resolve(backup)}` : `the embedded database in ${config.dataDir}`} to PostgreSQL…`);
    target = await openDatabase({ url: config.databaseUrl, ownerUrl: config.databaseOwnerUrl, dataDir: null });
    const copied = await copyEmbeddedToServer(source.database.db, ownerUrl, () => undefined);
    const [from, to] = [await rowCounts(source.database.db), await rowCounts(target.db)];
    const differing = Object.keys(from).filter((table) => from[table] !== to[table] || copied[table] !== from[table]);
    const total = Object.values(to).reduce((sum, n) => sum + n, 0);
    print(
      `Copied ${total.toLocaleString('en-US')} rows in ${Object.keys(to).length} tables (pads ${to.pads ?? 0}, ledger events ${to.pad_events ?? 0}).`,
    );
    if (differing.length > 0) {
      for (const table of differing) print(`Count differs in ${table}: embedded ${from[table]}, PostgreSQL ${to[table] ?? 'missing'}.`);
      return 1;
    }
    print('Verifying the ledger on PostgreSQL (full check)…');
    const verified = await runLedgerVerify(target.db, print);
    print(
      verified === 0
        ? 'Moved. Start PadTrack with this DATABASE_URL (and DATABASE_OWNER_URL); keep the embedded DATA_DIR as a copy until you are satisfied.'
        : 'The copy is complete but the ledger verifier found problems (above): keep running on the embedded database until they are explained.',
    );
    return verified;
  } finally {
    await target?.close();
    await source.database.close();
    source.cleanUp();
  }
}
