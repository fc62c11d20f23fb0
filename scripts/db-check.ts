/**
 * `npm run db:check` fails when `drizzle-kit generate` would write a migration, i.e. when the tables of src/server/db/schema/
 * and the snapshot in src/server/db/migrations/meta/ disagree. `npm run db:snapshot` writes the snapshot of schema/ as
 * meta/<last journal idx>_snapshot.json, the only snapshot kept, and no migration. Both generate into a scratch copy
 * of the migrations folder; the migrations themselves are hand-written (src/server/db/migrations/README.md).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const migrations = path.join(root, 'src/server/db/migrations');
const meta = path.join(migrations, 'meta');
const scratch = path.join(root, '.tmp', `db-check-${process.pid}`);
const snapshotsIn = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('_snapshot.json'))
    .sort();

/** Runs drizzle-kit generate against the newest snapshot alone; returns what it printed, the SQL and the snapshot it wrote. */
function generate(): { output: string; sql: string; written: string | null } {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.cpSync(migrations, scratch, { recursive: true });
  const snapshots = snapshotsIn(path.join(scratch, 'meta'));
  for (const older of snapshots.slice(0, -1)) fs.rmSync(path.join(scratch, 'meta', older));
  const output = execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/drizzle-kit/bin.cjs'),
      'generate',
      '--dialect',
      'postgresql',
      '--schema',
      './src/server/db/schema/*.ts',
      '--out',
      `./${path.relative(root, scratch)}`,
    ],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 120_000 },
  );
  const written = snapshotsIn(path.join(scratch, 'meta')).find((f) => f !== snapshots.at(-1)) ?? null;
  const newSql = fs.readdirSync(scratch).filter((f) => f.endsWith('.sql') && !fs.existsSync(path.join(migrations, f)));
  return { output, sql: newSql.map((f) => fs.readFileSync(path.join(scratch, f), 'utf8')).join('\n'), written };
}

try {
  const { output, sql, written } = generate();
  const unchanged = /No schema changes/.test(output);
  if (process.argv.includes('--snapshot')) {
    if (unchanged) {
      console.log('The snapshot already matches schema/.');
    } else if (!written) {
      console.error(output);
      process.exitCode = 1;
    } else {
      const journal = JSON.parse(fs.readFileSync(path.join(meta, '_journal.json'), 'utf8')) as { entries: Array<{ idx: number }> };
      const name = `${String(journal.entries.at(-1)?.idx ?? 0).padStart(4, '0')}_snapshot.json`;
      for (const older of snapshotsIn(meta)) fs.rmSync(path.join(meta, older));
      fs.copyFileSync(path.join(scratch, 'meta', written), path.join(meta, name));
      console.log(`Wrote src/server/db/migrations/meta/${name}.`);
    }
  } else if (!unchanged) {
    console.error(sql || output);
    console.error('schema/ and the migration snapshot disagree: drizzle-kit generate would write the migration above.');
    console.error('Write the migration SQL by hand (src/server/db/migrations/README.md), then run npm run db:snapshot.');
    process.exitCode = 1;
  } else {
    console.log('schema/ matches the migration snapshot.');
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
