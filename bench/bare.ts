/**
 * The baseline of docs/BENCHMARKS.md "API lists": a bare Fastify + pg server that runs, for each endpoint, exactly the SQL
 * statements the app ran for it (recorded by bench/api.ts), each as a named prepared statement, all
 * at once, and sends the rows back as JSON. No validation, authentication, mapping or response schema.
 *   npx tsx bench/bare.ts <port> <database url> <statements.json>
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

type Statement = { text: string; values: unknown[] };

const [port, url, file] = process.argv.slice(2);
const endpoints = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Statement[]>;
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on('error', () => {
  // the benchmark drops its database at the end; idle connections lose it first
});
const app = Fastify();

for (const [name, statements] of Object.entries(endpoints)) {
  app.get(`/bare/${name}`, async () => {
    const results = await Promise.all(statements.map((s, i) => pool.query({ name: `${name}_${i}`, text: s.text, values: s.values })));
    return results.map((r) => r.rows);
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log('listening');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app.close().then(() => pool.end().then(() => process.exit(0)));
  });
}
