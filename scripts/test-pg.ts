import { spawnSync } from 'node:child_process';
import pg from 'pg';

/** Runs the API suite against a real PostgreSQL server; each test file gets a database of its own there. */
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const client = new pg.Client({ connectionString: url });
try {
  await client.connect();
  await client.query('select 1');
} catch (error) {
  console.error(
    `PostgreSQL is not reachable at ${url}: ${(error as Error).message}. Set TEST_DATABASE_URL to a server where this user may create databases.`,
  );
  process.exit(1);
} finally {
  await client.end().catch(() => undefined);
}
/** Named files or filters run alone; without them, the whole API suite. */
const filters = process.argv.slice(2);
const result = spawnSync('npx', ['vitest', 'run', ...(filters.length > 0 ? filters : ['src/server'])], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);
