/**
 * `npm run ledger:verify`: checks every pad and every event (the full check; `-- --full` is accepted and changes nothing);
 * `-- --quick` checks only the pads whose ledger grew since they were last verified, and misses an old event edited or
 * deleted; `-- --balances=all` recomputes every pad's stored month-end balances instead of a sample. Exit code 0 clean,
 * 1 problems, 2 cannot run (an unknown option, or DATABASE_URL is the app's role and DATABASE_OWNER_URL is not set).
 * How far the check has got (pads and events, percent, events a second) goes to stderr once a second.
 */
import { loadConfig } from '../src/server/config.ts';
import { runLedgerVerifyCommand } from '../src/server/ledger-verify-command.ts';

process.exitCode = await runLedgerVerifyCommand(
  loadConfig(),
  process.argv.slice(2),
  (line) => console.log(line),
  (line) => console.error(line),
);
