/**
 * docs/BENCHMARKS.md "Pad generation" (docs/design.md §5 "Pads"): generate 1,000,000 receipt numbers in one add-pad request (20,000 pads of 50),
 * then time get-pads pages (first, middle, last) and searches with those 20,000 pads in the table.
 * Runs on a fresh in-memory PGlite, or on the PostgreSQL server named by TEST_DATABASE_URL:
 *   npx tsx bench/pads.ts [numbers=1000000] [repeats=40]
 *
 * Besides wall time it records CPU time: this process's, plus (on PostgreSQL on the same machine) that of
 * the server backends serving this benchmark's database, read from /proc. On a shared machine the CPU
 * time shows what a request costs when wall time is inflated by other work.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { ROLE } from '../src/shared/lookups.ts';
import { createBranch, createRoute, signedIn } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { measure } from './cpu.ts';
import { PRODUCTION_ENV, testAppBackends } from './support.ts';

const numbers = Number(process.argv[2] ?? 1_000_000);
const repeats = Number(process.argv[3] ?? 40);
const SERIES_FROM = 100_000_001;

const t = await createTestApp(PRODUCTION_ENV);

try {
  const budget = { generate_ms: t.kind === 'postgres' ? 10_000 : 30_000, list_p95_ms: 50 };
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const route = await createRoute(t.db, { name: 'Batangas - Calapan', tin: '000-123-456-000' });
  const { headers } = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
  await Promise.all(Array.from({ length: 10 }, () => t.db.execute(sql`select pg_sleep(0.05)`)));
  const pids = await testAppBackends(t);

  const generation = await measure(
    () =>
      t.app.inject({
        method: 'POST',
        url: '/api/add-pad',
        headers,
        payload: { route_id: route.id, series_from: SERIES_FROM, series_to: SERIES_FROM + numbers - 1 },
      }),
    pids,
  );
  if (generation.result.statusCode !== 201) throw new Error(`add-pad answered ${generation.result.statusCode}: ${generation.result.body}`);
  const padCount: number = generation.result.json().data.pads_created;
  const lastPage = Math.ceil(padCount / 10);

  const time = async (label: string, url: string) => {
    const get = async () => {
      const res = await t.app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return res.json().total as number;
    };
    const total = await get();
    await get();
    const samples: number[] = [];
    const { cost: batch } = await measure(async () => {
      for (let i = 0; i < repeats; i += 1) {
        const start = performance.now();
        await get();
        samples.push(performance.now() - start);
      }
    }, pids);
    samples.sort((a, b) => a - b);
    const at = (q: number) => Number(samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)].toFixed(1));
    return {
      label,
      url,
      matches: total,
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      cpu_ms_per_request: Number(((batch.node_cpu_ms + batch.pg_cpu_ms) / repeats).toFixed(1)),
      of_which_database_server_ms: Number((batch.pg_cpu_ms / repeats).toFixed(1)),
    };
  };

  const middleReceipt = SERIES_FROM + Math.floor(numbers / 2) + 7;
  const requests = [
    await time('first page', '/api/get-pads?page=1'),
    await time('middle page', `/api/get-pads?page=${Math.ceil(lastPage / 2)}`),
    await time('last page', `/api/get-pads?page=${lastPage}`),
    await time('last page, route filter', `/api/get-pads?page=${lastPage}&route=${route.id}`),
    await time('search: receipt number', `/api/get-pads?search=${middleReceipt}`),
    await time('search: series text', `/api/get-pads?search=${String(middleReceipt).slice(0, 7)}`),
    await time('search: pad number', '/api/get-pads?search=12345'),
    await time('available-pads, last page', `/api/available-pads?route_id=${route.id}&page=${lastPage}`),
  ];

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const result = {
    date: new Date().toISOString(),
    machine: `${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    database: t.kind,
    numbers,
    pads: padCount,
    load_average_1m: Number(os.loadavg()[0].toFixed(2)),
    generate_ms: generation.cost.wall_ms,
    generate_cpu_ms: generation.cost.node_cpu_ms + generation.cost.pg_cpu_ms,
    requests,
    budget,
  };
  console.log(JSON.stringify(result, null, 2));
  const slowList = requests.filter((r) => r.p95_ms > budget.list_p95_ms);
  if (generation.cost.wall_ms > budget.generate_ms || (t.kind === 'postgres' && slowList.length > 0)) {
    console.error(
      `Over budget: generation ${generation.cost.wall_ms} ms (budget ${budget.generate_ms} ms); p95 over ${budget.list_p95_ms} ms: ${
        slowList.map((r) => `${r.label} ${r.p95_ms} ms`).join(', ') || 'none'
      }`,
    );
    process.exitCode = 1;
  }
} finally {
  await t.close();
}
