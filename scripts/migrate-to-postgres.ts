/**
 * `npm run migrate-to-postgres [-- --from-backup FILE]`: moves the embedded database (DATA_DIR, or a backup file) into the
 * empty PostgreSQL database of DATABASE_URL and runs the full ledger verifier on it (README "How large the embedded
 * database goes"). Exit code 0 moved and verified, 1 counts or ledger disagree, 2 cannot run.
 */
import { loadConfig } from '../src/server/config.ts';
import { runMigrateToPostgres } from '../src/server/migrate-to-postgres-command.ts';

try {
  process.exitCode = await runMigrateToPostgres(loadConfig(), process.argv.slice(2), (line) => console.log(line));
} catch (error) {
  console.error(`migrate-to-postgres failed: ${(error as Error).message}`);
  process.exitCode = 2;
}
