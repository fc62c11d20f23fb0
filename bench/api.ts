/**
 * The goal of docs/BENCHMARKS.md "API lists": invoice and custody lists (get-invoices, get-in-transit-invoices, get-user-pads) and
 * get-invoice/{id} against a bare Fastify + pg server that runs the same SQL as named prepared statements
 * (bench/bare.ts), started side by side, measured in turns with autocannon (10 connections). 20,000 pads
 * (300 of them held by the caller) and 4,500 invoices, vacuumed and analysed as autovacuum leaves them. Each turn also
 * records the CPU time per request of the server answering (the app is this process, the bare server its child) and of
 * the PostgreSQL backends of the database (bench/cpu.ts), idle and again with one core kept busy. PostgreSQL only;
 * BENCH_API_ENDPOINTS=get_invoices,get_user_pads measures only those (e.g. under node --cpu-prof):
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/api.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { backendPids, idleAndBusy, measure, processCpuMs } from './cpu.ts';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../src/shared/lookups.ts';
import { createBranch, createRoute, createUser, signedIn } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { load, loadAverage, machine, median, PRODUCTION_ENV, RESULTS_DIR, ROOT, saveResult } from './support.ts';

const INVOICES = 4_500;
const HELD_PADS = 300;
const ROUNDS = 2;
const WARM_UP_SECONDS = 3;
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3197);

if (!process.env.TEST_DATABASE_URL) throw new Error('bench-api compares with a bare pg server: set TEST_DATABASE_URL');

type Statement = { text: string; values: unknown[] };
const recorded: Statement[] = [];
let recording = false;
type Query = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;
const originalQuery = pg.Client.prototype.query as unknown as Query;
(pg.Client.prototype as unknown as { query: Query }).query = function (this: pg.Client, config, values, callback) {
  if (recording && typeof config === 'object' && config !== null && 'text' in config) {
    const c = config as { text: string; values?: unknown[] };
    recorded.push({ text: c.text, values: c.values ?? (Array.isArray(values) ? values : []) });
  }
  return originalQuery.call(this, config, values, callback);
};

const t = await createTestApp(PRODUCTION_ENV);
const bare = { process: null as ReturnType<typeof spawn> | null };
try {
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const branches = [headOffice.id];
  for (const name of ['Batangas Port', 'Calapan Terminal', 'Roxas Port', 'Caticlan Jetty'])
    branches.push((await createBranch(t.db, { name })).id);
  const requesters = [];
  for (const branchId of branches.slice(1))
    requesters.push((await createUser(t.db, { role_id: ROLE.BRANCH_HEAD, branch_id: branchId })).id);
  const couriers = [];
  for (let i = 0; i < 3; i += 1) couriers.push((await createUser(t.db, { role_id: ROLE.DRIVER, branch_id: branches[1 + i] })).id);
  const routeIds = [];
  for (let i = 0; i < 3; i += 1) routeIds.push((await createRoute(t.db, { name: `Route ${i + 1}` })).id);
  const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
  const admin = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: headOffice.id });

  const generated = await t.app.inject({
    method: 'POST',
    url: '/api/add-pad',
    headers: custodian.headers,
    payload: { route_id: routeIds[0], series_from: 100_000_001, series_to: 101_000_000 },
  });
  if (generated.statusCode !== 201) throw new Error(`add-pad answered ${generated.statusCode}: ${generated.body}`);

  const arr = (ids: number[]) => `{${ids.join(',')}}`;
  await t.db.execute(sql`
    insert into invoices (invoice_type_id, invoice_status_id, user_id, created_by, from_branch_id, branch_id, route_id,
                          assigned_user_id, pad_count, accepted_by, accepted_at, created_at)
    select k.type, k.status, (${arr(requesters)}::int[])[1 + g % ${requesters.length}], ${custodian.user.id}::int,
           ${headOffice.id}::int, (${arr(branches)}::int[])[2 + g % ${branches.length - 1}], (${arr(routeIds)}::int[])[1 + g % ${routeIds.length}],
           case when k.type = ${INVOICE_TYPE.REQUEST} then null else (${arr(couriers)}::int[])[1 + g % ${couriers.length}] end, 10,
           case when k.status = ${INVOICE_STATUS.COMPLETED} then (${arr(requesters)}::int[])[1 + g % ${requesters.length}] end,
           case when k.status = ${INVOICE_STATUS.COMPLETED} then now() - g * interval '1 minute' end,
           now() - g * interval '2 minutes'
    from generate_series(1, ${INVOICES}) g
    cross join lateral (select 1 + g % 4 as type) ty
    cross join lateral (select ty.type::smallint as type,
      (case when ty.type = ${INVOICE_TYPE.REQUEST} then case when g % 8 < 4 then ${INVOICE_STATUS.PENDING} else ${INVOICE_STATUS.ISSUED} end
            else case when g % 3 = 0 then ${INVOICE_STATUS.IN_TRANSIT} else ${INVOICE_STATUS.COMPLETED} end end)::smallint as status) k`);
  await t.db.execute(sql`
    insert into activities (invoice_id, invoice_status_id, description, user_id)
    select id, invoice_status_id, 'Created', user_id from invoices`);
  await t.db.execute(sql`
    update pad_custody set holder_user_id = ${admin.user.id}, holder_branch_id = ${headOffice.id}
    where pad_id in (select id from pads order by id limit ${HELD_PADS})`);
  await t.db.execute(sql`vacuum analyze`);
  const [{ id: middleInvoice }] = (
    (await t.db.execute(
      sql`select id from invoices where invoice_status_id = ${INVOICE_STATUS.IN_TRANSIT} order by id offset ${INVOICES / 6} limit 1`,
    )) as unknown as {
      rows: Array<{ id: number }>;
    }
  ).rows;

  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const appBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const allEndpoints: Record<string, string> = {
    get_invoices: '/api/get-invoices?page=1',
    get_in_transit_invoices: '/api/get-in-transit-invoices?page=1',
    get_invoice: `/api/get-invoice/${middleInvoice}`,
    get_user_pads: '/api/get-user-pads?page=1',
  };
  const only = process.env.BENCH_API_ENDPOINTS?.split(',');
  const endpoints = Object.fromEntries(Object.entries(allEndpoints).filter(([name]) => !only || only.includes(name)));

  const statements: Record<string, Statement[]> = {};
  for (const [name, url] of Object.entries(endpoints)) {
    const warm = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    if (warm.statusCode !== 200) throw new Error(`${url} answered ${warm.statusCode}: ${warm.body}`);
    recorded.length = 0;
    recording = true;
    await t.app.inject({ method: 'GET', url, headers: admin.headers });
    recording = false;
    statements[name] = [...recorded];
  }
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const statementsFile = path.join(RESULTS_DIR, 'api-statements.json');
  fs.writeFileSync(statementsFile, JSON.stringify(statements, null, 2));

  const dbUrl = new URL(process.env.TEST_DATABASE_URL);
  const [{ db }] = ((await t.db.execute(sql`select current_database() as db`)) as unknown as { rows: Array<{ db: string }> }).rows;
  dbUrl.pathname = `/${db}`;
  bare.process = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      path.join(ROOT, 'bench/bare.ts'),
      String(BARE_PORT),
      dbUrl.toString(),
      statementsFile,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    bare.process?.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    bare.process?.on('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });

  const monitor = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await monitor.connect();
  const pgPids = () => backendPids((text, values) => monitor.query<{ pid: number }>(text, values), db);
  /** The bare server's process and its children: tsx runs the script in a child node process. */
  const withChildren = (pid: number): number[] => {
    const children = fs.existsSync(`/proc/${pid}/task/${pid}/children`)
      ? fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
      : [];
    return [pid, ...children.flatMap(withChildren)];
  };
  const barePids = withChildren(bare.process.pid ?? 0);

  /** One autocannon turn with the CPU it cost per request: the answering server's (node) and PostgreSQL's. */
  const turn = async (target: string, headers: Record<string, string>, server: 'app' | 'bare') => {
    const bareStart = processCpuMs(barePids);
    const { result, cost } = await measure(() => load(target, headers), pgPids);
    const nodeMs = server === 'app' ? cost.node_cpu_ms : processCpuMs(barePids) - bareStart;
    const perRequest = (ms: number) => Number(((ms * 1000) / Math.max(1, result.requests)).toFixed(0));
    return { ...result, node_cpu_us_per_request: perRequest(nodeMs), pg_cpu_us_per_request: perRequest(cost.pg_cpu_ms) };
  };
  type Turn = Awaited<ReturnType<typeof turn>>;

  const measureAll = async () => {
    const results: Record<string, { app: Turn[]; bare: Turn[]; load_average: number[]; statements: number }> = {};
    for (const [name, url] of Object.entries(endpoints)) {
      results[name] = { app: [], bare: [], load_average: [], statements: statements[name].length };
      /* Both servers first answer a short unmeasured load: JIT, compiled serializers and each pooled connection's prepared statements are then warm. */
      await load(`${appBase}${url}`, admin.headers, WARM_UP_SECONDS);
      await load(`http://127.0.0.1:${BARE_PORT}/bare/${name}`, {}, WARM_UP_SECONDS);
      for (let round = 0; round < ROUNDS; round += 1) {
        results[name].app.push(await turn(`${appBase}${url}`, admin.headers, 'app'));
        results[name].bare.push(await turn(`http://127.0.0.1:${BARE_PORT}/bare/${name}`, {}, 'bare'));
        results[name].load_average.push(loadAverage());
      }
    }
    return Object.fromEntries(
      Object.entries(results).map(([name, r]) => {
        const appRps = median(r.app.map((x) => x.rps));
        const bareRps = median(r.bare.map((x) => x.rps));
        return [
          name,
          {
            url: endpoints[name],
            statements: r.statements,
            app_rps: appRps,
            app_p95_ms: median(r.app.map((x) => x.p95_ms)),
            bare_rps: bareRps,
            bare_p95_ms: median(r.bare.map((x) => x.p95_ms)),
            ratio: Number((appRps / bareRps).toFixed(2)),
            app_node_cpu_us_per_request: median(r.app.map((x) => x.node_cpu_us_per_request)),
            bare_node_cpu_us_per_request: median(r.bare.map((x) => x.node_cpu_us_per_request)),
            app_pg_cpu_us_per_request: median(r.app.map((x) => x.pg_cpu_us_per_request)),
            bare_pg_cpu_us_per_request: median(r.bare.map((x) => x.pg_cpu_us_per_request)),
            load_average: r.load_average,
            runs: r,
          },
        ];
      }),
    );
  };
  type Summary = Awaited<ReturnType<typeof measureAll>>[string];
  /** bench/table.ts's side of a load run: per-request CPU in ms beside the throughput and latency. */
  const side = (e: Summary, server: 'app' | 'bare') => ({
    wall_ms: e[`${server}_p95_ms`],
    node_cpu_ms: e[`${server}_node_cpu_us_per_request`] / 1000,
    pg_cpu_ms: e[`${server}_pg_cpu_us_per_request`] / 1000,
    p95_ms: e[`${server}_p95_ms`],
    rps: e[`${server}_rps`],
  });
  try {
    const { idle, busy } = await idleAndBusy(measureAll);
    const points = Object.keys(idle).map((name) => ({
      measure: `${name} under load (10 connections), PostgreSQL: app, ratio ${idle[name].ratio} (busy ${busy[name].ratio})`,
      idle: side(idle[name], 'app'),
      busy: side(busy[name], 'app'),
      anchor: { label: 'bare server', idle: side(idle[name], 'bare'), busy: side(busy[name], 'bare') },
      goal: 'app / bare ≥ 0.70',
      met: idle[name].ratio >= 0.7,
      met_busy: busy[name].ratio >= 0.7,
    }));
    saveResult('api-postgres', {
      date: new Date().toISOString(),
      machine: machine(),
      database: 'postgres',
      data: { pads: generated.json().data.pads_created, invoices: INVOICES },
      goal: 'ratio ≥ 0.70 and app p95 ≤ 30 ms',
      endpoints: idle,
      busy_core: busy,
      points,
    });
  } finally {
    await monitor.end();
  }
} finally {
  const running = bare.process;
  if (running && running.exitCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  }
  await t.close();
}
