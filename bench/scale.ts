/**
 * Goals of docs/BENCHMARKS.md "Pads at scale" and "Pad generation": get-pads pages and searches at 20,000 and at 200,000 pads (autocannon, 10
 * connections, side by side in one run), issuing and accepting 10 pads at both sizes, and add-pad of
 * 1,000,000 numbers (pads and their ledger events) against two floors on the same table: a raw
 * INSERT … SELECT of the same pad rows (generation before the ledger), and raw INSERT … SELECTs of the
 * same pad and event rows. The three take turns in a Latin square, so none always runs first. Next to each
 * wall-clock figure stands the CPU time it took (this process plus the PostgreSQL server processes of its
 * database), which other work on a shared machine does not inflate;
 * each URL is loaded for 2 s first, so the first figures do not carry the JIT's warm-up.
 *   npx tsx bench/scale.ts            (fresh in-memory PGlite)
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/scale.ts
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { ISSUANCE_STATUS, PAD_STATUS, ROLE } from '../src/shared/lookups.ts';
import { createBranch, createRoute, signedIn } from '../src/server/test/factories.ts';
import { createTestApp, type TestApp } from '../src/server/test/test-app.ts';
import { load, loadAverage, type LoadResult, machine, median, PRODUCTION_ENV, saveResult } from './support.ts';

const NUMBERS = 1_000_000;
const PAD_SIZE = 50;
/** The pads the lists are measured over: 10 generations of 20,000 pads. */
const FILL_GENERATIONS = 10;
/** add-pad, raw pads, raw pads and events: each cycle runs all three, in a rotated order. */
const CYCLES: Array<Array<GenerationKind>> = [
  ['add-pad', 'raw pads', 'raw pads + events'],
  ['raw pads', 'raw pads + events', 'add-pad'],
  ['raw pads + events', 'add-pad', 'raw pads'],
  ['add-pad', 'raw pads + events', 'raw pads'],
  ['raw pads', 'add-pad', 'raw pads + events'],
];
type GenerationKind = 'add-pad' | 'raw pads' | 'raw pads + events';
type Executor = Pick<TestApp['db'], 'execute'>;
/** The first route's pads start here, each later route's where the one before it ended, so one receipt number is on one pad. */
const SERIES_FROM = 100_000_001;
/** Each URL under load this long, as the issue measured it. */
const LOAD_SECONDS = 15;

const t = await createTestApp(PRODUCTION_ENV);
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
    const { rows } = (await t.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)) as unknown as {
      rows: Array<{ pid: number }>;
    };
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
    const { ms } = await call('POST', '/api/add-pad', custodian.headers, {
      route_id: routeId,
      series_from: from,
      series_to: from + NUMBERS - 1,
      pad_size: PAD_SIZE,
    });
    return { ms, cpu_ms: await cpuSince(cpu) };
  };

  /** The same pad rows as add-pad writes, straight into the table: generation as it was before the ledger. */
  const rawPads = (conn: Executor, routeId: number, from: number) =>
    conn.execute(sql`
      with made as (insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, created_by)
      select ${routeId}::int, 1 + g.i::int, ${from}::bigint + g.i * ${PAD_SIZE}::bigint, ${from}::bigint + (g.i + 1) * ${PAD_SIZE}::bigint - 1,
             repeat('1', ${PAD_SIZE}::int), ${PAD_STATUS.UNUSED}::smallint, ${custodian.user.id}::int
      from generate_series(0::bigint, ${NUMBERS / PAD_SIZE - 1}::bigint) as g(i) returning id)
      insert into pad_custody (pad_id, issuance_status_id, holder_branch_id)
      select id, ${ISSUANCE_STATUS.NOT_ISSUED}::smallint, ${headOffice.id}::int from made`);

  /** The same event rows as add-pad writes, one `received` per pad with its chained hash, straight into the ledger. */
  const rawEvents = (conn: Executor, routeId: number) => {
    const at = new Date();
    const day = at.toISOString().slice(0, 10);
    const genesis = '0'.repeat(64);
    return conn.execute(sql`
      insert into pad_events (pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id, actor_user_id, recorded_at, business_date, prev_hash, hash)
      select p.id, 1, p.route_id, 'received', p.series_from, p.series_to, (p.series_to - p.series_from + 1)::int, c.holder_user_id, c.holder_branch_id,
        ${custodian.user.id}::int, ${at.toISOString()}::timestamptz, ${day}::date, ${genesis}::text,
        encode(sha256(convert_to(concat_ws('|', p.id, 1, 'received', p.route_id, p.series_from, p.series_to, p.series_to - p.series_from + 1,
          coalesce(c.holder_user_id::text, ''), coalesce(c.holder_branch_id::text, ''), '', '', '', ${custodian.user.id}::int, '',
          ${at.getTime()}::bigint, ${day}::text, ${genesis}::text), 'UTF8')), 'hex')
      from pads p join pad_custody c on c.pad_id = p.id where p.route_id = ${routeId}::int order by p.id`);
  };

  const generate = async (kind: GenerationKind, routeId: number, from: number) => {
    if (kind === 'add-pad') return appGeneration(routeId, from);
    const cpu = await cpuNow();
    const start = performance.now();
    await t.db.transaction(async (tx) => {
      await rawPads(tx, routeId, from);
      if (kind === 'raw pads + events') await rawEvents(tx, routeId);
    });
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
      const result = await load(`${base}${url}`, custodian.headers, LOAD_SECONDS);
      const cpuMs = await cpuSince(cpu);
      results[label] = {
        ...result,
        found: check.body.total,
        cpu_ms_per_request: Number((cpuMs / result.requests).toFixed(2)),
        load_average: loadAverage(),
      };
    }
    return results;
  };

  let routeCount = 0;
  const newRoute = async () => (await createRoute(t.db, { name: `Route ${(routeCount += 1)}` })).id;
  const seriesOf = () => SERIES_FROM + (routeCount - 1) * NUMBERS;
  const firstRoute = await newRoute();
  const firstGeneration = await appGeneration(firstRoute, seriesOf());
  const at20k = { lists: await measureLists(firstRoute, NUMBERS / PAD_SIZE), ...(await issueAndAccept(firstRoute)) };
  for (let i = 1; i < FILL_GENERATIONS; i += 1) await appGeneration(await newRoute(), seriesOf());
  await t.db.execute(sql`analyze pads`);
  const totalPads = FILL_GENERATIONS * (NUMBERS / PAD_SIZE);
  const at200k = { lists: await measureLists(firstRoute, totalPads), ...(await issueAndAccept(firstRoute)) };

  /**
   * Before each timed generation: the ANALYZE an add-pad starts after answering has finished. Then a
   * CHECKPOINT: each generation writes tens of megabytes of WAL, and a checkpoint one of them set off would otherwise land
   * inside whichever generation came next.
   */
  const settle = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      const { rows } = (await t.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and query ilike 'analyze%'`,
      )) as unknown as { rows: Array<{ n: number }> };
      if (t.kind !== 'postgres' || rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await t.db.execute(sql`checkpoint`);
  };

  const generations: Array<{ kind: GenerationKind; ms: number; cpu_ms: number; pads_before: number }> = [];
  for (const cycle of CYCLES) {
    for (const kind of cycle) {
      const padsBefore = routeCount * (NUMBERS / PAD_SIZE);
      const routeId = await newRoute();
      await settle();
      generations.push({ kind, ...(await generate(kind, routeId, seriesOf())), pads_before: padsBefore });
    }
  }

  const of = (kind: GenerationKind, key: 'ms' | 'cpu_ms') => generations.filter((g) => g.kind === kind).map((g) => g[key]);
  const ratio = (floor: GenerationKind, key: 'ms' | 'cpu_ms') => Number((median(of('add-pad', key)) / median(of(floor, key))).toFixed(2));
  const flat = (perLabel: (label: string) => number) =>
    Object.fromEntries(Object.keys(at20k.lists).map((label) => [label, Number(perLabel(label).toFixed(2))]));
  const [events] = (
    (await t.db.execute(sql`select count(*)::int as n from pad_events where kind = 'received'`)) as unknown as {
      rows: Array<{ n: number }>;
    }
  ).rows;
  saveResult(`scale-${t.kind}`, {
    date: new Date().toISOString(),
    machine: machine(),
    database: t.kind,
    load_average_1m: loadAverage(),
    generation: {
      first_add_pad_on_an_empty_table_ms: Math.round(firstGeneration.ms),
      order: CYCLES.map((cycle) => cycle.join(' → ')),
      add_pad_ms: of('add-pad', 'ms').map(Math.round),
      raw_pads_ms: of('raw pads', 'ms').map(Math.round),
      raw_pads_and_events_ms: of('raw pads + events', 'ms').map(Math.round),
      add_pad_cpu_ms: of('add-pad', 'cpu_ms').map(Math.round),
      raw_pads_cpu_ms: of('raw pads', 'cpu_ms').map(Math.round),
      raw_pads_and_events_cpu_ms: of('raw pads + events', 'cpu_ms').map(Math.round),
      ratio_to_raw_pads: ratio('raw pads', 'ms'),
      cpu_ratio_to_raw_pads: ratio('raw pads', 'cpu_ms'),
      ratio_to_raw_pads_and_events: ratio('raw pads + events', 'ms'),
      cpu_ratio_to_raw_pads_and_events: ratio('raw pads + events', 'cpu_ms'),
      received_events: Number(events.n),
      goal: 'ratio to raw pads ≤ 1.30 (with its events, against generation before the ledger); ratio to raw pads and events ≤ 1.10 (against the same rows)',
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
