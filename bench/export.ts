/**
 * docs/BENCHMARKS.md "List export": 200,000 pads exported as CSV and as .xlsx in ≤ 15 s each, streamed with flat
 * memory (docs/design.md §10). The pads are written straight into the table; the export goes over real HTTP and
 * the client counts the bytes as they arrive, while the process's resident memory and V8 heap are sampled.
 * Runs on a fresh in-memory PGlite (or the PostgreSQL server named by TEST_DATABASE_URL):
 *   npx tsx bench/export.ts [pads=200000]
 */
import { sql } from 'drizzle-orm';
import { ROLE } from '../src/shared/lookups.ts';
import { createRoute, signedIn } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { loadAverage, machine, PRODUCTION_ENV, saveResult } from './support.ts';

const padCount = Number(process.argv[2] ?? 200_000);
const LIMIT_MS = 15_000;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const t = await createTestApp(PRODUCTION_ENV);
try {
  const route = await createRoute(t.db, { name: 'Export bench route' });
  const seedStart = performance.now();
  for (let from = 1; from <= padCount; from += 5_000) {
    const to = Math.min(padCount, from + 4_999);
    await t.db
      .execute(sql`insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, issuance_status_id, remarks)
      select ${route.id}, n, n::bigint * 50 + 1, n::bigint * 50 + 50, repeat('1', 50), 3, 1,
        case when n % 10 = 0 then 'kept at the "front" desk, shelf ' || n end
      from generate_series(${from}::int, ${to}::int) n`);
  }
  await t.db.execute(sql`analyze pads`);
  const seedMs = performance.now() - seedStart;
  const { headers } = await signedIn(t, { role_id: ROLE.CUSTODIAN, first_name: 'Bench', last_name: 'Custodian' });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });

  const run = async (format: 'csv' | 'xlsx') => {
    global.gc?.();
    const baseline = process.memoryUsage();
    let peak = baseline.rss;
    let heapPeak = baseline.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss);
      heapPeak = Math.max(heapPeak, now.heapUsed);
    }, 25);
    const start = performance.now();
    const response = await fetch(`${address}/api/get-pads?route=${route.id}&format=${format}`, { headers });
    if (!response.ok || !response.body) throw new Error(`export ${format}: ${response.status}`);
    let bytes = 0;
    let lines = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (format === 'csv') for (const byte of value) if (byte === 10) lines += 1;
    }
    const ms = Math.round(performance.now() - start);
    clearInterval(sampler);
    return {
      format,
      ms,
      within_limit: ms <= LIMIT_MS,
      mb: mb(bytes),
      rows: format === 'csv' ? lines - 1 : undefined,
      rss_before_mb: mb(baseline.rss),
      rss_peak_mb: mb(peak),
      rss_growth_mb: mb(peak - baseline.rss),
      heap_before_mb: mb(baseline.heapUsed),
      heap_peak_mb: mb(heapPeak),
    };
  };

  const results = [await run('csv'), await run('xlsx')];
  saveResult('export', {
    pads: padCount,
    database: process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite',
    seed_ms: Math.round(seedMs),
    limit_ms: LIMIT_MS,
    results,
    load_average: loadAverage(),
    machine: machine(),
  });
} finally {
  await t.close();
}
