/**
 * Issue 15 goals 2 and 5: get-pads pages and searches at 20,000 and at 200,000 pads (autocannon, 10
 * connections, side by side in one run), issuing and accepting 10 pads at both sizes, and add-pad of
 * 1,000,000 numbers (pads and their ledger events) against a raw INSERT … SELECT of the same pad rows,
 * alternating, on the same table. Next to each wall-clock figure stands the CPU time it took (this process
 * plus the PostgreSQL server processes of its database), which other work on a shared machine does not inflate;
 * each URL is loaded for 2 s first, so the first figures do not carry the JIT's warm-up.
 *   npx tsx scripts/bench-scale.ts            (fresh in-memory PGlite)
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx scripts/bench-scale.ts
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { ISSUANCE_STATUS, PAD_STATUS, ROLE } from '../src/shared/lookups.ts';
import { createBranch, createRoute, signedIn } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { load, loadAverage, machine, median, saveResult, type LoadResult } from './bench-support.ts';

const NUMBERS = 1_000_000;
const PAD_SIZE = 50;
const GENERATIONS = 10;
/** Every route's pads start here: ranges may repeat across routes. */
const SERIES_FROM = 100_000_001;

const t = await createTestApp();
try {
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  const branch = await createBranch(t.db, { name: 'Calapan Terminal' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
  const requester = await signedIn(t, { role_id: ROLE.BRANCH_HEAD, branch_id: branch.id });
  const courier = await signedIn(t, { role_id: ROLE.DRIVER, branch_id: branch.id });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

  /** CPU milliseconds used so far by this process and by each server process of the database, by pid. */
  const cpuNow = async (): Promise<Map<number, number>> => {
    const own = process.cpuUsage();
    const used = new Map([[0, (own.user + own.system) / 1000]]);
    if (t.kind !== 'postgres') return used;
    const { rows } = (await t.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as { rows: Array<{ pid: number }> };
    for (const { pid } of rows) {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      used.set(Number(pid), (Number(fields[11]) + Number(fields[12])) * 10);
    }
    return used;
  };
  const cpuSince = async (before: Map<number, number>) => {
    let ms = 0;
    for (const [pid, now] of await cpuNow()) ms += now - (before.get(pid) ?? 0);
    return ms;
  };

  const call = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
    const start = performance.now();
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const ms = performance.now() - start;
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return { body: res.json(), ms };
  };

  const appGeneration = async (routeId: number, from: number) => {
    const cpu = await cpuNow();
    const { ms } = await call('POST', '/api/add-pad', custodian.headers, { route_id: routeId, series_from: from, series_to: from + NUMBERS - 1, pad_size: PAD_SIZE });
    return { ms, cpu_ms: await cpuSince(cpu) };
  };

  /** The same rows as add-pad writes, straight into the table: the floor generation can be compared with. */
  const rawGeneration = async (routeId: number, from: number) => {
    const cpu = await cpuNow();
    const start = performance.now();
    await t.db.execute(sql`
      insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, issuance_status_id, holder_branch_id, created_by)
      select ${routeId}::int, 1 + g.i::int, ${from}::bigint + g.i * ${PAD_SIZE}::bigint, ${from}::bigint + (g.i + 1) * ${PAD_SIZE}::bigint - 1,
             repeat('1', ${PAD_SIZE}::int), ${PAD_STATUS.UNUSED}::smallint, ${ISSUANCE_STATUS.NOT_ISSUED}::smallint, ${headOffice.id}::int, ${custodian.user.id}::int
      from generate_series(0::bigint, ${NUMBERS / PAD_SIZE - 1}::bigint) as g(i)`);
    const ms = performance.now() - start;
    return { ms, cpu_ms: await cpuSince(cpu) };
  };

  /** Request 10 pads, issue them to the courier, accept them: the wall time of issue and of accept. */
  const issueAndAccept = async (routeId: number) => {
    const request = await call('POST', '/api/create-request-invoice', requester.headers, { route_id: routeId, pads: 10 });
    const available = await call('GET', `/api/available-pads?route_id=${routeId}&per_page=10`, custodian.headers);
    const issued = await call('POST', '/api/issue-invoice', custodian.headers, {
      invoice_id: request.body.data.id,
      pads: available.body.data.map((p: { id: number }) => p.id),
      assigned_user_id: courier.user.id,
      expected_return: 7,
    });
    const accepted = await call('POST', `/api/accept-invoice/${issued.body.data.id}`, requester.headers);
    return { issue_ms: Number(issued.ms.toFixed(1)), accept_ms: Number(accepted.ms.toFixed(1)) };
  };

  const measureLists = async (routeId: number, pads: number) => {
    const lastPage = Math.ceil(pads / 10);
    const receipt = SERIES_FROM + Math.floor(NUMBERS / 2) + 7;
    const urls: Array<[string, string]> = [
      ['first page', '/api/get-pads?page=1'],
      ['middle page', `/api/get-pads?page=${Math.ceil(lastPage / 2)}`],
      ['last page', `/api/get-pads?page=${lastPage}`],
      ['route filter, its last page', `/api/get-pads?route=${routeId}&page=${NUMBERS / PAD_SIZE / 10}`],
      ['search: receipt number', `/api/get-pads?search=${receipt}`],
      ['search: series text', `/api/get-pads?search=${String(receipt).slice(0, 7)}`],
      ['search: pad number', '/api/get-pads?search=12345'],
    ];
    const results: Record<string, LoadResult & { found: number; cpu_ms_per_request: number; load_average: number }> = {};
    for (const [label, url] of urls) {
      const check = await call('GET', url, custodian.headers);
      if (url.includes('page=') && !url.includes('search') && check.body.data.length === 0) throw new Error(`${url} is an empty page`);
      await load(`${base}${url}`, custodian.headers, 2);
      const cpu = await cpuNow();
      const result = await load(`${base}${url}`, custodian.headers);
      const cpuMs = await cpuSince(cpu);
      results[label] = { ...result, found: check.body.total, cpu_ms_per_request: Number((cpuMs / result.requests).toFixed(2)), load_average: loadAverage() };
    }
    return results;
  };

  const routes = [];
  for (let i = 0; i < GENERATIONS; i += 1) routes.push((await createRoute(t.db, { name: `Route ${i + 1}` })).id);

  const generations: Array<{ kind: 'add-pad' | 'raw insert'; ms: number; cpu_ms: number; pads_before: number }> = [];
  generations.push({ kind: 'add-pad', ...(await appGeneration(routes[0], SERIES_FROM)), pads_before: 0 });
  const at20k = { lists: await measureLists(routes[0], NUMBERS / PAD_SIZE), ...(await issueAndAccept(routes[0])) };
  for (let i = 1; i < GENERATIONS; i += 1) {
    const padsBefore = i * (NUMBERS / PAD_SIZE);
    const measured = i % 2 === 1 ? await rawGeneration(routes[i], SERIES_FROM) : await appGeneration(routes[i], SERIES_FROM);
    generations.push({ kind: i % 2 === 1 ? 'raw insert' : 'add-pad', ...measured, pads_before: padsBefore });
  }
  await t.db.execute(sql`analyze pads`);
  const totalPads = GENERATIONS * (NUMBERS / PAD_SIZE);
  const at200k = { lists: await measureLists(routes[0], totalPads), ...(await issueAndAccept(routes[0])) };

  const of = (kind: string, key: 'ms' | 'cpu_ms') => generations.filter((g) => g.kind === kind).map((g) => g[key]);
  const ratio = (key: 'ms' | 'cpu_ms') => Number((median(of('add-pad', key)) / median(of('raw insert', key))).toFixed(2));
  const flat = (perLabel: (label: string) => number) => Object.fromEntries(Object.keys(at20k.lists).map((label) => [label, Number(perLabel(label).toFixed(2))]));
  const [events] = ((await t.db.execute(sql`select count(*)::int as n from pad_events where kind = 'received'`)) as unknown as { rows: Array<{ n: number }> }).rows;
  saveResult(`scale-${t.kind}`, {
    date: new Date().toISOString(),
    machine: machine(),
    database: t.kind,
    load_average_1m: loadAverage(),
    generation: {
      add_pad_ms: of('add-pad', 'ms').map(Math.round),
      raw_insert_ms: of('raw insert', 'ms').map(Math.round),
      ratio_of_medians: ratio('ms'),
      add_pad_cpu_ms: of('add-pad', 'cpu_ms').map(Math.round),
      raw_insert_cpu_ms: of('raw insert', 'cpu_ms').map(Math.round),
      cpu_ratio_of_medians: ratio('cpu_ms'),
      received_events: Number(events.n),
      goal: '≤ 1.10 (issue 15), ≤ 1.30 (issue 13)',
    },
    at_20000_pads: at20k,
    at_200000_pads: at200k,
    throughput_20k_over_200k: flat((label) => at20k.lists[label].rps / at200k.lists[label].rps),
    cpu_per_request_200k_over_20k: flat((label) => at200k.lists[label].cpu_ms_per_request / at20k.lists[label].cpu_ms_per_request),
    goal: 'each ratio ≤ 1.30',
  });
} finally {
  await t.close();
}
