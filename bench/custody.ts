/**
 * Issue 39 point 4, custody moves: a request of 1,000 pads issued, then accepted, through the API on PostgreSQL, with the
 * database's backend CPU beside wall and node CPU, at idle and with one core busy (bench/cpu.ts). Its anchor is the floor
 * of the same write in raw SQL: psql updating the 1,000 custody rows (pad_custody, migration 0028) and COPYing 2,000 event
 * rows in one transaction.
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/custody.ts [database]
 * With a database name (e.g. a copy of the five-year history) the app runs on it and adds its own pads at the end of
 * the first route; without one it runs on a fresh database.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { ROLE } from '../src/shared/lookups.ts';
import { loadConfig } from '../src/server/config.ts';
import { startApp } from '../src/server/start.ts';
import { createBranch, createRoute, createUser, TEST_PASSWORD } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { backendPids, measure, withBusyCore, type Cost } from './cpu.ts';
import { loadAverage, machine, median, PRODUCTION_ENV, saveResult } from './support.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('bench/custody.ts runs on PostgreSQL: set TEST_DATABASE_URL');
const existing = process.argv[2];
const PADS = 1000;
const PAD_SIZE = 50;
const REPEATS = Number(process.env.BENCH_CUSTODY_REPEATS ?? 3);

async function open() {
  if (!existing) {
    const t = await createTestApp(PRODUCTION_ENV);
    return { app: t.app, ctx: t.ctx, close: () => t.close() };
  }
  const url = new URL(serverUrl ?? '');
  url.pathname = `/${existing}`;
  const config = {
    ...loadConfig({
      ...PRODUCTION_ENV,
      DATABASE_URL: url.toString(),
      DATA_DIR: path.join(os.tmpdir(), 'padtrack-bench-custody'),
      APP_URL: 'http://padtrack.test',
      ADMIN_EMAIL: 'admin@custody.test',
      ADMIN_PASSWORD: 'Admin@12345',
    }),
    webDir: null,
  };
  const started = await startApp(config, { logger: pino({ level: 'silent' }), jobs: false });
  return { app: started.app, ctx: started.ctx, close: () => started.app.close() };
}

const { app, ctx, close } = await open();
const db = ctx.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const [{ datname }] = await rows<{ datname: string }>(sql`select current_database() as datname`);
const pgUrl = new URL(serverUrl);
pgUrl.pathname = `/${datname}`;
const pids = () =>
  backendPids(
    async () => ({
      rows: await rows<{ pid: number }>(
        sql`select pid from pg_stat_activity where datname = ${datname} and backend_type = 'client backend'`,
      ),
    }),
    datname,
  );

type Who = { id: number; headers: Record<string, string> };
async function login(email: string, roleId: number, branchId: number): Promise<Who> {
  const [found] = await rows<{ id: number }>(sql`select id from users where email = ${email}`);
  const id =
    found?.id ?? (await createUser(db, { email, role_id: roleId, branch_id: branchId, first_name: 'Bench', last_name: 'Custody' })).id;
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: TEST_PASSWORD } });
  return { id, headers: { authorization: `Bearer ${(res.json() as { token: string }).token}` } };
}
async function call(who: Who, method: 'POST', url: string, payload?: object, status = 200) {
  const res = await app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  if (res.statusCode !== status) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res.json() as { data: { id: number } };
}

const [ho] = await rows<{ id: number }>(sql`select id from branches where id = ${ctx.config.headOfficeBranchId}`);
const headOfficeId = ho?.id ?? (await createBranch(db, { name: 'Head Office' })).id;
ctx.config.headOfficeBranchId = headOfficeId;
const [firstRoute] = await rows<{ id: number }>(sql`select id from routes order by id limit 1`);
const routeId = firstRoute?.id ?? (await createRoute(db)).id;
const branch = (await createBranch(db, { name: `Custody bench ${Date.now()}` })).id;
const custodian = await login('custody-stock@bench.test', ROLE.CUSTODIAN, headOfficeId);
const courier = await login('custody-courier@bench.test', ROLE.DRIVER, branch);
const holder = await login(`custody-holder-${Date.now()}@bench.test`, ROLE.BRANCH_HEAD, branch);

/** A fresh batch of 1,000 pads at the end of the route, so each round issues pads nobody held before. */
async function newPads(): Promise<number[]> {
  const [{ last }] = await rows<{ last: number | null }>(sql`select max(series_to)::bigint as last from pads where route_id = ${routeId}`);
  const from = Number(last ?? 100_000_000) + 1;
  await call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: from, series_to: from + PADS * PAD_SIZE - 1 }, 201);
  const fresh = await rows<{ id: number }>(
    sql`select id from pads where route_id = ${routeId} and series_from >= ${from}::bigint order by id`,
  );
  await db.execute(sql`analyze pads`);
  return fresh.map((p) => p.id);
}

interface Round {
  issue: Cost;
  accept: Cost;
  hot_updates: number;
  updates: number;
}

async function hotCounters() {
  const [row] = await rows<{ upd: number; hot: number }>(
    sql`select coalesce(sum(n_tup_upd), 0)::int as upd, coalesce(sum(n_tup_hot_upd), 0)::int as hot from pg_stat_user_tables
      where relname in ('pads', 'pad_custody')`,
  );
  return row;
}

/** One request of 1,000 pads issued and accepted, each timed on its own. */
async function round(): Promise<Round> {
  const padIds = await newPads();
  const request = await call(holder, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: PADS }, 201);
  await db.execute(sql`select pg_stat_clear_snapshot()`);
  const before = await hotCounters();
  const issued = await measure(
    () =>
      call(
        custodian,
        'POST',
        '/api/issue-invoice',
        { invoice_id: request.data.id, pads: padIds, assigned_user_id: courier.id, expected_return: 3 },
        201,
      ),
    pids,
  );
  const accepted = await measure(() => call(holder, 'POST', `/api/accept-invoice/${issued.result.data.id}`), pids);
  await new Promise((resolve) => setTimeout(resolve, 700));
  await db.execute(sql`select pg_stat_clear_snapshot()`);
  const after = await hotCounters();
  return { issue: issued.cost, accept: accepted.cost, hot_updates: after.hot - before.hot, updates: after.upd - before.upd };
}

const medianCost = (costs: Cost[]): Cost => ({
  wall_ms: median(costs.map((c) => c.wall_ms)),
  node_cpu_ms: median(costs.map((c) => c.node_cpu_ms)),
  pg_cpu_ms: median(costs.map((c) => c.pg_cpu_ms)),
});

/** REPEATS rounds and as many anchors; the medians, and every round's database CPU (it is counted in 10 ms ticks). */
async function rounds() {
  const done: Round[] = [];
  const anchors: Cost[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    done.push(await round());
    anchors.push(anchor());
  }
  return {
    issue: medianCost(done.map((r) => r.issue)),
    accept: medianCost(done.map((r) => r.accept)),
    anchor: medianCost(anchors),
    pg_cpu_ms_each: done.map((r) => ({ issue: r.issue.pg_cpu_ms, accept: r.accept.pg_cpu_ms })),
    anchor_pg_cpu_ms_each: anchors.map((a) => a.pg_cpu_ms),
    hot_updates: done.reduce((sum, r) => sum + r.hot_updates, 0),
    updates: done.reduce((sum, r) => sum + r.updates, 0),
  };
}

/** The anchor: psql, in one transaction, the same UPDATE of 1,000 custody rows and COPY of 2,000 event rows; CPU of its backend. */
function anchor(): Cost {
  const padIdsText = execFileSync('psql', [
    pgUrl.toString(),
    '-Atc',
    `select string_agg(id::text, ',' order by id) from (select id from pads where route_id = ${routeId} order by id desc limit ${PADS}) s`,
  ])
    .toString()
    .trim();
  const ids = padIdsText.split(',').map(Number);
  const now = new Date().toISOString();
  const lines: string[] = [];
  for (const [i, id] of ids.entries()) {
    for (const [k, kind] of ['transfer_out', 'transfer_in'].entries()) {
      lines.push(
        [
          id,
          1_000_000 + k,
          routeId,
          kind,
          1,
          PAD_SIZE,
          PAD_SIZE,
          holder.id,
          branch,
          custodian.id,
          headOfficeId,
          '\\N',
          custodian.id,
          '\\N',
          now,
          now.slice(0, 10),
          'x'.repeat(64),
          `${i}${k}`.padStart(64, '0'),
        ].join('\t'),
      );
    }
  }
  const script = [
    'select pg_backend_pid() as pid \\gset',
    '\\set ON_ERROR_STOP on',
    "select (regexp_split_to_array(split_part(pg_read_file('/proc/' || :pid || '/stat'), ') ', 2), ' '))[12:13] as t0, clock_timestamp() as w0 \\gset",
    'begin;',
    `update pad_custody set holder_user_id = ${holder.id}, holder_branch_id = ${branch}, locked_by_invoice_id = null, updated_at = now() where pad_id = any('{${ids.join(',')}}'::int[]);`,
    `copy pad_events (pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id, counterparty_user_id, counterparty_branch_id, invoice_id, actor_user_id, reason, recorded_at, business_date, prev_hash, hash) from stdin;`,
    ...lines,
    '\\.',
    'rollback;',
    "select (regexp_split_to_array(split_part(pg_read_file('/proc/' || :pid || '/stat'), ') ', 2), ' '))[12:13] as t1, extract(epoch from clock_timestamp() - :'w0') * 1000 as wall \\gset",
    "select :'t0', :'t1', :wall;",
  ].join('\n');
  const file = path.join(os.tmpdir(), `custody-anchor-${process.pid}.sql`);
  fs.writeFileSync(file, `${script}\n`);
  const out = execFileSync('psql', [pgUrl.toString(), '-q', '-At', '-f', file]).toString().trim().split('\n').pop() ?? '';
  fs.rmSync(file);
  const [t0, t1, wall] = out.split('|');
  const ticks = (text: string) =>
    text
      .replace(/[{}]/g, '')
      .split(',')
      .reduce((sum, n) => sum + Number(n), 0);
  return { wall_ms: Math.round(Number(wall)), node_cpu_ms: 0, pg_cpu_ms: (ticks(t1) - ticks(t0)) * 10 };
}

try {
  const [{ pads: padCount, events }] = await rows<{ pads: number; events: number }>(
    sql`select (select count(*) from pads)::int as pads, (select count(*) from pad_events)::int as events`,
  );
  await round(); // warm-up: compiles the code paths and fills the caches
  const idle = await rounds();
  const busy = await withBusyCore(rounds);
  const result = {
    machine: machine(),
    load: loadAverage(),
    database: existing ?? 'fresh',
    pads: padCount,
    events,
    idle,
    busy,
  };
  console.log(JSON.stringify(result, null, 2));
  saveResult(`custody-${existing ? 'history' : 'fresh'}`, result);
} finally {
  await close();
}
