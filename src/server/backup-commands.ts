import path from 'node:path';
import type { Config } from './config.ts';
import { backupEmbedded, backupServer, restoreEmbedded, restoreServer } from './db/backup.ts';
import { openDatabase } from './db/client.ts';
import { runLedgerVerify } from './features/ledger/verifier.ts';

/** The URL that may read and replace everything: the owner's when the app runs as a role of its own. */
const ownerUrlOf = (config: Config) => config.databaseOwnerUrl ?? config.databaseUrl;

/** `npm run backup -- FILE`: an online, consistent backup of whichever database the configuration names. */
export async function runBackup(config: Config, file: string, print: (line: string) => void): Promise<number> {
  const target = path.resolve(file);
  const url = ownerUrlOf(config);
  if (url) {
    await backupServer(url, target);
    print(`Backed up PostgreSQL (pg_dump custom format) to ${target}.`);
  } else {
    const via = await backupEmbedded(config.dataDir, target);
    print(`Backed up the embedded database in ${config.dataDir} (through the ${via}) to ${target}.`);
  }
  return 0;
}

/** `npm run restore -- FILE [--force]`: restores, then runs the ledger verifier on the result and prints what it says. */
export async function runRestore(config: Config, file: string, force: boolean, print: (line: string) => void): Promise<number> {
  const source = path.resolve(file);
  const url = ownerUrlOf(config);
  if (url) await restoreServer(url, source, force);
  else await restoreEmbedded(config.dataDir, source, force);
  print(`Restored ${source} into ${url ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`}. Verifying the ledger…`);
  const database = await openDatabase({
    url: config.databaseUrl,
    ownerUrl: config.databaseOwnerUrl,
    dataDir: config.databaseUrl ? null : config.dataDir,
  });
  try {
    return await runLedgerVerify(database.db, print);
  } finally {
    await database.close();
  }
}
