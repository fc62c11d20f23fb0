import os from 'node:os';
import pino from 'pino';
import type { Config } from './config.ts';
import { openDatabase, sqlState, type Database } from './db/client.ts';
import { runLedgerCheck } from './features/ledger/checks.ts';
import { createMailer } from './lib/mail.ts';
import { ledgerCheckProgressText } from '../shared/schemas/ledger.ts';

const OPTIONS = ['--quick', '--full', '--balances=all'];
/** How often the command tells, on `progress`, how far the check has got. */
const PROGRESS_EVERY_MS = 1_000;
export const LEDGER_VERIFY_USAGE = 'Usage: npm run ledger:verify [-- --quick] [--balances=all]';

/** The role named in a PostgreSQL URL, for the message that says it may not do what the check needs. */
const roleOf = (url: string) => decodeURIComponent(new URL(url).username) || 'of DATABASE_URL';

/**
 * `npm run ledger:verify`: the full check (every pad and every event; `--full` is still accepted and changes nothing), or
 * with `--quick` only the pads whose chain grew since they were last verified, which misses an old event edited or
 * deleted behind the app. The result is stored and a failure mailed like the scheduled check's; `progress`, when given, hears
 * once a second how far the check has got (the script writes it to stderr). Opening the database
 * migrates it, which the app's own role may not do: with DATABASE_URL alone as that role, one line names the URL it needs.
 */
export async function runLedgerVerifyCommand(
  config: Config,
  args: string[],
  print: (line: string) => void,
  progress?: (line: string) => void,
): Promise<number> {
  const unknown = args.find((arg) => arg !== '--' && !OPTIONS.includes(arg));
  if (unknown) {
    print(`Unknown option ${unknown}. ${LEDGER_VERIFY_USAGE}`);
    return 2;
  }
  let database: Database | undefined;
  let shownAt = Date.now();
  try {
    database = await openDatabase({
      url: config.databaseUrl,
      ownerUrl: config.databaseOwnerUrl,
      dataDir: config.databaseUrl ? null : config.dataDir,
    });
    const log = pino({ level: 'warn' }, pino.destination(2));
    const { result } = await runLedgerCheck(
      {
        db: database.db,
        config,
        log,
        mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
      },
      {
        mode: args.includes('--quick') ? 'incremental' : 'full',
        balances: args.includes('--balances=all') ? 'all' : 'sample',
        source: 'command',
        ranBy: `npm run ledger:verify by ${os.userInfo().username} on ${os.hostname()}`,
        onProgress: (done) => {
          const now = Date.now();
          if (!progress || now - shownAt < PROGRESS_EVERY_MS) return;
          shownAt = now;
          progress(ledgerCheckProgressText(done, new Date(now)));
        },
      },
    );
    for (const line of [...result.lines, ...result.summary]) print(line);
    return result.ok ? 0 : 1;
  } catch (error) {
    if (!config.databaseUrl || config.databaseOwnerUrl || sqlState(error) !== '42501') throw error;
    print(
      // -- whatever a failed check throws is reported by message and cause; both read undefined when absent.
      `ledger:verify needs DATABASE_OWNER_URL (the URL of the role that owns the tables, README "Running on PostgreSQL"): the app's role ${roleOf(config.databaseUrl)} in DATABASE_URL may not migrate the database before checking it (${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}).`,
    );
    return 2;
  } finally {
    await database?.close();
  }
}
