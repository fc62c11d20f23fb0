/**
 * How large an operator the embedded database (PGlite) serves (PadTrack issue 39, point 6): a small operator of 24
 * months, ~2,100 pads a month (≈ 50,000 pads, ≈ 500,000+ ledger events, bench/history-seed.ts), seeded once into a PGlite
 * data directory kept in .tmp/bench-embedded-data and into a PostgreSQL database kept for re-runs, then on each: the
 * start on that data, the first close of the ended months, the full verify, a holder's and the consolidated RAAF (JSON
 * and PDF), and get-pads, get-invoices and find-receipt at 10 connections (p95), with this process's memory peak (the
 * app and, embedded, its database run in it). Wall time, this process's CPU and the PostgreSQL backends' CPU
 * (bench/cpu.ts), idle and with one core busy; PostgreSQL is the anchor of every embedded figure.
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/embedded.ts [pads=50000] [--seed-only]
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { ROLE } from '../src/shared/lookups.ts';
import { closeEndedMonths, previousMonth } from '../src/server/features/ledger/month-balances.ts';
import { verifyLedger } from '../src/server/features/ledger/verifier.ts';
import { startApp } from '../src/server/start.ts';
import { backendPids, type Cost, idleAndBusy, measure } from './cpu.ts';
import { seedHistory, seedWorld } from './history-seed.ts';
import { benchClient, benchConfig, load, loadAverage, machine, peakMb, resetPeak, ROOT, sampleCost, saveResult } from './support.ts';

const targetPads = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 50_000);
const seedOnly = process.argv.includes('--seed-only');
const MONTHS = 24;
const PADS_PER_MONTH = Math.round(targetPads / MONTHS);
const HOLDERS = 120;
const REPEATS = 3;
const PORT = Number(process.env.BENCH_EMBEDDED_PORT ?? 4251);
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('bench/embedded.ts compares with PostgreSQL: set TEST_DATABASE_URL');
const dbName = `padtrack_bench_embedded_${Math.round(targetPads / 1000)}k`;
const pgUrl = new URL(serverUrl);
pgUrl.pathname = `/${dbName}`;
const dataDir = path.join(ROOT, `.tmp/bench-embedded-data-${Math.round(targetPads / 1000)}k`);
const until = new Date(Date.now() - 86_400_000);
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

type Side = 'embedded' | 'postgresql';

const configOf = (side: Side) =>
  benchConfig({
    ...(side === 'postgresql' ? { DATABASE_URL: pgUrl.toString() } : {}),
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@embedded.test',
  });

async function ensurePgDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  if ((await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount === 0)
    await admin.query(`create database ${dbName}`);
  await admin.end();
}

type Figure = Cost & { peak_mb?: number; p95_ms?: number; requests?: number; cpu_per_request_ms?: number };

async function runSide(side: Side): Promise<Record<string, unknown>> {
  if (side === 'postgresql') await ensurePgDatabase();
  resetPeak();
  const opened = await measure(() => startApp(configOf(side), { logger: pino({ level: 'silent' }), jobs: false }));
  const start = { ...opened.cost, peak_mb: peakMb() };
  const { app, ctx } = opened.result;
  const db = ctx.db;
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const raw = side === 'postgresql' ? new pg.Client({ connectionString: pgUrl.toString() }) : null;
  await raw?.connect();
  const backends = async () => (raw ? backendPids((text, values) => raw.query<{ pid: number }>(text, values), dbName) : []);
  try {
    const [{ n }] = await rows<{ n: number }>(sql`select count(*)::int as n from pads`);
    if (n === 0) {
      const started = Date.now();
      const world = await seedWorld(db, HOLDERS);
      const seeded = await seedHistory(db, world, {
        months: MONTHS,
        padsPerMonth: PADS_PER_MONTH,
        until,
        timeZone: ctx.config.timeZone,
        log,
      });
      log(`${side}: seeded ${seeded.pads} pads and ${seeded.events} events in ${Math.round((Date.now() - started) / 1000)} s`);
      if (side === 'embedded') await db.execute(sql`checkpoint`);
    }
    if (seedOnly) return {};
    const [counts] = await rows<{ pads: number; events: number; invoices: number }>(
      sql`select (select count(*) from pads)::int as pads, (select count(*) from pad_events)::int as events, (select count(*) from invoices)::int as invoices`,
    );
    log(`${side}: ${JSON.stringify(counts)}; start ${JSON.stringify(start)}`);
    const [ho] = await rows<{ id: number }>(sql`select id from branches where name = 'Head Office' order by id limit 1`);
    ctx.config.headOfficeBranchId = ho.id;
    const client = benchClient(app, db);
    const admin = await client.signIn('bench-admin@embedded.test', ROLE.ADMIN, ho.id);
    const call = async (target: string) => {
      await client.call(admin, 'GET', target);
    };
    const sample = (work: () => Promise<unknown>): Promise<Figure> => sampleCost(work, REPEATS, backends);

    resetPeak();
    const closing = await measure(() => closeEndedMonths(ctx), backends);
    const firstClose = { ...closing.cost, peak_mb: peakMb(), months: closing.result.length };
    log(`${side}: first close ${JSON.stringify(firstClose)}`);

    const verify = await idleAndBusy(async () => {
      resetPeak();
      const { result, cost } = await measure(() => verifyLedger(db, { mode: 'full' }), backends);
      if (result.problems.length > 0) throw new Error(`the seeded ledger does not verify: ${JSON.stringify(result.problems.slice(0, 3))}`);
      return { ...cost, peak_mb: peakMb() };
    });
    log(`${side}: full verify ${JSON.stringify(verify)}`);

    const lastMonth = previousMonth(new Date().toISOString().slice(0, 7));
    const [busiest] = await rows<{ id: number }>(
      sql`select holder_user_id as id from pad_events where to_char(business_date, 'YYYY-MM') = ${lastMonth} and holder_user_id is not null
        group by holder_user_id order by count(*) desc limit 1`,
    );
    const raafs = await idleAndBusy(async () => ({
      holder_json: await sample(() => call(`/api/raaf?month=${lastMonth}&user_id=${busiest.id}`)),
      holder_pdf: await sample(() => call(`/api/raaf?month=${lastMonth}&user_id=${busiest.id}&format=pdf`)),
      consolidated_json: await sample(() => call(`/api/raaf-summary?month=${lastMonth}`)),
      consolidated_pdf: await sample(() => call(`/api/raaf-summary?month=${lastMonth}&format=pdf`)),
    }));
    log(`${side}: RAAFs ${JSON.stringify(raafs)}`);

    await app.listen({ port: PORT, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const [aPad] = await rows<{ series_from: number }>(sql`select series_from from pads order by id desc limit 1`);
    const lists = {
      get_pads: '/api/get-pads?page=3&per_page=10',
      get_invoices: '/api/get-invoices?page=3&per_page=10',
      find_receipt: `/api/find-receipt?number=${Number(aPad.series_from) + 7}`,
    };
    const listed = await idleAndBusy(async () => {
      const out: Record<string, Figure> = {};
      for (const [name, target] of Object.entries(lists)) {
        await load(`${base}${target}`, admin.headers, 2);
        resetPeak();
        const { result, cost } = await measure(() => load(`${base}${target}`, admin.headers), backends);
        out[name] = {
          ...cost,
          p95_ms: result.p95_ms,
          requests: result.requests,
          cpu_per_request_ms: Number(((cost.node_cpu_ms + cost.pg_cpu_ms) / Math.max(1, result.requests)).toFixed(2)),
          peak_mb: peakMb(),
        };
      }
      return out;
    });
    log(`${side}: lists ${JSON.stringify(listed)}`);
    const size =
      side === 'embedded'
        ? { data_dir_mb: Math.round(dirBytes(dataDir) / 2 ** 20) }
        : {
            database_mb: Math.round(
              Number((await rows<{ b: string }>(sql`select pg_database_size(current_database())::text as b`))[0].b) / 2 ** 20,
            ),
          };
    return { ...counts, ...size, start, first_close: firstClose, full_verify: verify, raaf: raafs, lists_10_connections: listed };
  } finally {
    await raw?.end();
    await app.close();
  }
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : fs.statSync(full).size;
  }
  return total;
}

const sides = (process.env.BENCH_EMBEDDED_SIDES ?? 'embedded,postgresql').split(',') as Side[];
const result: Record<string, unknown> = { date: new Date().toISOString(), machine: machine(), load_before: loadAverage(), months: MONTHS };
for (const side of sides) result[side] = await runSide(side);
result.load_after = loadAverage();
if (!seedOnly) saveResult(`embedded-${Math.round(targetPads / 1000)}k${sides.length === 1 ? `-${sides[0]}` : ''}`, result);
log('done');
