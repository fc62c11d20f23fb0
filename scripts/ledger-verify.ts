/**
 * `npm run ledger:verify`: checks the pads whose ledger grew since they were last verified (and any never
 * verified); `-- --full` checks every pad and event; `-- --balances=all` recomputes every pad's stored
 * month-end balances instead of a sample.
 */
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { runLedgerVerify } from '../src/server/features/ledger/verifier.ts';

const args = process.argv.slice(2);
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, ownerUrl: config.databaseOwnerUrl, dataDir: config.dataDir });
try {
  process.exitCode = await runLedgerVerify(database.db, (line) => console.log(line), {
    mode: args.includes('--full') ? 'full' : 'incremental',
    balances: args.includes('--balances=all') ? 'all' : 'sample',
  });
} finally {
  await database.close();
}
