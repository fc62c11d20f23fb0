/**
 * Benchmark of issue 4: generate 1,000,000 receipt numbers in one add-pad request (20,000 pads of 50),
 * then time get-pads pages (first, middle, last) and searches with those 20,000 pads in the table.
 * Runs on a fresh in-memory PGlite, or on the PostgreSQL server named by TEST_DATABASE_URL:
 *   npx tsx scripts/bench-pads.ts [numbers=1000000] [repeats=40]
 */
import os from 'node:os';
import { ROLE } from '../src/shared/lookups.ts';
import { createBranch, createRoute, signedIn } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';

const numbers = Number(process.argv[2] ?? 1_000_000);
const repeats = Number(process.argv[3] ?? 40);
const SERIES_FROM = 100_000_001;

const t = await createTestApp();
try {
  const budget = { generate_ms: t.kind === 'postgres' ? 10_000 : 30_000, list_p95_ms: 50 };
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const route = await createRoute(t.db, { name: 'Batangas - Calapan', tin: '000-123-456-000' });
  const { headers } = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });

  const generateCpu = process.cpuUsage();
  const generateStart = performance.now();
  const generated = await t.app.inject({
    method: 'POST',
    url: '/api/add-pad',
    headers,
    payload: { route_id: route.id, series_from: SERIES_FROM, series_to: SERIES_FROM + numbers - 1 },
  });
  const generateMs = performance.now() - generateStart;
  const used = process.cpuUsage(generateCpu);
  const generateCpuMs = Math.round((used.user + used.system) / 1000);
  if (generated.statusCode !== 201) throw new Error(`add-pad answered ${generated.statusCode}: ${generated.body}`);
  const padCount: number = generated.json().data.pads_created;
  const lastPage = Math.ceil(padCount / 10);

  const time = async (label: string, url: string) => {
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < repeats + 3; i += 1) {
      const start = performance.now();
      const res = await t.app.inject({ method: 'GET', url, headers });
      const ms = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      total = res.json().total;
      if (i >= 3) samples.push(ms);
    }
    samples.sort((a, b) => a - b);
    const at = (q: number) => Number(samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)].toFixed(1));
    return { label, url, matches: total, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1) };
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
    generate_ms: Math.round(generateMs),
    generate_cpu_ms_in_process: generateCpuMs,
    requests,
    budget,
  };
  console.log(JSON.stringify(result, null, 2));
  const slowList = requests.filter((r) => r.p95_ms > budget.list_p95_ms);
  if (generateMs > budget.generate_ms || (t.kind === 'postgres' && slowList.length > 0)) {
    console.error(`Over budget: generation ${Math.round(generateMs)} ms; slow lists: ${slowList.map((r) => r.label).join(', ') || 'none'}`);
    process.exitCode = 1;
  }
} finally {
  await t.close();
}
