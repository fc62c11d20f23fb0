import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { runLedgerVerify } from '../src/server/features/ledger/verifier.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  process.exitCode = await runLedgerVerify(database.db, (line) => console.log(line));
} finally {
  await database.close();
}
