/**
 * `npm run import -- pads FILE.csv [--dry-run]` (or `users`, or an .xlsx): the go-live import of docs/design.md §10
 * from the command line, through the same service as POST imports. Prints each row's result and each error with its
 * line and column; exits 1 when the file has errors (nothing is then applied). On the embedded database, stop the
 * server first (one process opens the data folder at a time).
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/server/config.ts';
import { IMPORT_KINDS, type ImportKind } from '../src/shared/schemas/imports.ts';
import { runImport } from '../src/server/features/imports/lifecycle.ts';
import { startApp } from '../src/server/start.ts';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const [kind, file] = args.filter((arg) => !arg.startsWith('--'));
if (!IMPORT_KINDS.includes(kind as ImportKind) || !file) {
  console.error('Usage: npm run import -- pads|users FILE.csv|FILE.xlsx [--dry-run]');
  process.exit(2);
}
const started = await startApp(loadConfig(), { jobs: false, logger: pino({ level: 'warn' }) });
try {
  const result = await runImport(started.ctx, null, {
    kind: kind as ImportKind,
    dryRun,
    fileName: path.basename(file),
    content: fs.readFileSync(file),
  });
  for (const row of result.rows) console.log(`line ${row.line}: ${row.result}`);
  for (const error of result.errors) console.log(`line ${error.line}, column ${error.column}: ${error.message}`);
  const { totals } = result;
  console.log(
    `Import #${result.id} (${result.dry_run ? 'dry run' : 'apply'}): ${totals.rows} rows, ${totals.ok} ok, ${totals.errors} errors; ` +
      `${totals.pads} pads, ${totals.numbers_used} numbers used, ${totals.numbers_cancelled} cancelled, ${totals.users} users. ` +
      (result.applied ? 'Applied.' : 'Nothing was changed.'),
  );
  process.exitCode = result.errors.length > 0 ? 1 : 0;
} finally {
  await started.app.close();
}
