/**
 * Benchmark of five years of history on PostgreSQL (PadTrack issue 39): about 400,000 pads, over 5 M ledger events
 * spread over 60 months (≈ 90,000 a month), 350 holders and ~200,000 invoices (bench/history-seed.ts), kept in its own
 * database for re-runs. Every figure is wall time, this process's CPU (the server runs in it) and the PostgreSQL
 * backends' CPU (bench/cpu.ts `measure`), taken at idle and again with one core busy under stress-ng, beside its
 * anchor: the RAAFs (busiest person, the head office's own stock, consolidated; JSON and PDF) beside a COPY of the
 * rows they fold, consumed and discarded; the full and the incremental verify beside a COPY of what they read; accept
 * beside a raw UPDATE of its pads and invoice (rolled back); get-pads, get-invoices and find-receipt at 10 connections
 * beside bench/bare.ts running the same SQL. Then "month 59 ÷ month 1": the same holder's RAAF (and the consolidated
 * one) of an early month and of the latest, picked from the data so their opening stocks are alike.
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/history.ts [pads=400000]
 * `pads=20000` is the short-history baseline: the same monthly activity, the operator holding those 20,000 pads when
 * the month reported on begins. BENCH_HISTORY_DB names another database (e.g. a copy made with `createdb -T`).
 */
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../src/shared/lookups.ts';
import { closeEndedMonths, monthBounds, nextMonth, previousMonth } from '../src/server/features/ledger/month-balances.ts';
import { verifyLedger } from '../src/server/features/ledger/verifier.ts';
import { startApp } from '../src/server/start.ts';
import { backendPids, type Cost, idleAndBusy, measure, processCpuMs } from './cpu.ts';
import { seedHistory, seedWorld } from './history-seed.ts';
import {
  benchClient,
  benchConfig,
  load,
  loadAverage,
  machine,
  median,
  peakMb,
  recordStatements,
  resetPeak,
  ROOT,
  sampleCost,
  saveResult,
  startBare,
  type Statement,
} from './support.ts';
import type { BenchPoint, Side } from './table.ts';

const targetPads = Number(process.argv[2] ?? process.env.BENCH_HISTORY_PADS ?? 400_000);
const seedOnly = process.argv.includes('--seed-only');
const PADS_PER_MONTH = 6_700;
const HOLDERS = 350;
/** Timed runs of each report, after one untimed run (the first after the day of work also compiles the code). */
const REPEATS = 3;
/** The busiest person's RAAF takes tens of milliseconds, where a median of 3 moves by a third: timed more often. */
const PERSON_REPEATS = Number(process.env.BENCH_HISTORY_PERSON_REPEATS ?? 9);
/** Invoices accepted in each half of the day of work (one half idle, one with a core busy). */
const ACCEPTS = 50;
const PORT = Number(process.env.BENCH_HISTORY_PORT ?? 4241);
const BARE_PORT = Number(process.env.BENCH_HISTORY_BARE_PORT ?? 4242);
/** Opening stocks within this share of each other count as "about the same" for the month-for-month ratio. */
const SAME_STOCK = 0.05;
/** How far into the history the early month of the month-for-month ratio is looked for. */
const EARLY_MONTHS = 12;
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('bench-history runs on PostgreSQL: set TEST_DATABASE_URL');
const dbName =
  process.env.BENCH_HISTORY_DB ??
  `padtrack_bench_${targetPads >= 100_000 ? `${Math.round(targetPads / 100_000)}x100k` : `${Math.round(targetPads / 1000)}k`}`;
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;
const shortHistory = targetPads < 100_000;
const months = Math.max(1, Math.round(targetPads / PADS_PER_MONTH) - (shortHistory ? 0 : 1));
/**
 * The history ends a day before now, so the day of API work and the reads are later than every seeded event. The
 * short baseline ends with last month instead, the month reported on: three months (Jul–Sep, 20,100 pads) come before
 * it, as many as a pad's life, so that month is as busy as the long history's and only the history behind it differs.
 */
const MANILA_MS = 8 * 3_600_000;
const manilaNow = new Date(Date.now() + MANILA_MS);
const until = shortHistory
  ? new Date(Date.UTC(manilaNow.getUTCFullYear(), manilaNow.getUTCMonth(), 1) - MANILA_MS - 1)
  : new Date(Date.now() - 86_400_000);

const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function ensureDatabase(): Promise<boolean> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount === 1;
  if (!exists) await admin.query(`create database ${dbName}`);
  await admin.end();
  return exists;
}

const appConfig = () => benchConfig({ DATABASE_URL: url.toString(), ADMIN_EMAIL: 'admin@history.test' });

async function seed() {
  const existed = await ensureDatabase();
  // No jobs: 'close-months' would close the months the seed has not written yet, and their stored balances would be wrong.
  const seeding = await startApp(appConfig(), { logger: pino({ level: 'silent' }), jobs: false });
  const database = seeding.ctx.db;
  const [{ n }] = ((await database.execute(sql`select count(*)::int as n from pads`)) as unknown as { rows: Array<{ n: number }> }).rows;
  if (existed && n > 0) {
    log(`${dbName} already holds ${n} pads: reusing it`);
  } else {
    const started = Date.now();
    const world = await seedWorld(database, HOLDERS);
    const result = await seedHistory(database, world, {
      months,
      padsPerMonth: PADS_PER_MONTH,
      until,
      timeZone: seeding.ctx.config.timeZone,
      log,
    });
    log(`seeded ${result.pads} pads and ${result.events} events in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  await seeding.app.close();
}

if (seedOnly) {
  await seed();
  process.exit(0);
}

execFileSync(
  process.execPath,
  [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), import.meta.filename, String(targetPads), '--seed-only'],
  { stdio: 'inherit', env: process.env },
);

const started = await startApp(appConfig(), { logger: pino({ level: 'silent' }), jobs: false });
const { app, ctx } = started;
const db = ctx.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
/** A connection of the benchmark's own: lists the database's backends for `measure` and runs the anchors' raw SQL. */
const raw = new pg.Client({ connectionString: url.toString() });
await raw.connect();
const backends = () => backendPids((text, values) => raw.query<{ pid: number }>(text, values), dbName);

/**
 * The benchmark's only calls into month closing and the verifier, which other work is changing (a job closing months,
 * the verifier's modes): adapt them here.
 */
const ledger = {
  closeEndedMonths: () => closeEndedMonths(ctx),
  verify: (mode: 'full' | 'incremental') => verifyLedger(db, { mode }),
};

const round2 = (n: number) => Number(n.toFixed(2));

/** `sampleCost` over this database's backends, the memory peak kept only when asked for. */
async function sample(work: () => Promise<unknown>, repeats: number, options: { peak?: boolean; warm?: boolean } = {}): Promise<Side> {
  const { peak_mb, ...cost } = await sampleCost(work, repeats, backends, options);
  return { ...cost, ...(options.peak ? { peak_mb } : {}) };
}

/** A COPY … TO STDOUT through node-postgres, which reads the rows off the socket and drops them. */
const copyOut = (select: string) => async () => {
  await raw.query(`copy (${select}) to stdout`);
};

type RawHolder = { userId: number } | { branchId: number } | null;

/** The rows a RAAF folds (repo.streamRaafRows): the stored balances at the end of `base`, then the events up to the month's end. */
function raafRowsSelect(month: string, base: string | null, holder: RawHolder): string {
  const { end } = monthBounds(month);
  const balanceHolder =
    holder === null
      ? 'true'
      : 'userId' in holder
        ? `holder_type = 'user' and holder_id = ${holder.userId}`
        : `holder_type = 'branch' and holder_id = ${holder.branchId}`;
  const eventHolder =
    holder === null
      ? 'true'
      : 'userId' in holder
        ? `holder_user_id = ${holder.userId}`
        : `holder_user_id is null and holder_branch_id = ${holder.branchId}`;
  const balances =
    base === null
      ? ''
      : `select pad_id, 0 as seq, route_id, 'balance' as kind, 0::bigint as from_number, 0::bigint as to_number, holder_id,
           ranges from raaf_month_balances where month = '${base}' and ${balanceHolder} union all `;
  const from = base === null ? '' : `and business_date >= '${monthBounds(nextMonth(base)).start}'::date`;
  return `${balances}select pad_id, seq, route_id, kind, from_number, to_number, coalesce(holder_user_id, holder_branch_id),
      null::text from pad_events where business_date < '${end}'::date ${from} and ${eventHolder} order by pad_id, seq`;
}

try {
  const [ho] = await rows<{ id: number }>(sql`select id from branches where name = 'Head Office' order by id limit 1`);
  ctx.config.headOfficeBranchId = ho.id;
  const { signIn: login, call } = benchClient(app, db);
  const admin = await login('bench-admin@history.test', ROLE.ADMIN, ho.id);
  const custodian = await login('stock@history.test', ROLE.CUSTODIAN, ho.id);

  const [counts] = await rows<{ pads: number; events: number; invoices: number; holders: number }>(
    sql`select (select count(*) from pads)::int as pads, (select count(*) from pad_events)::int as events, (select count(*) from invoices)::int as invoices,
      (select count(distinct holder_user_id) from pad_events where holder_user_id is not null)::int as holders`,
  );
  log(`${dbName}: ${JSON.stringify(counts)}`);
  const points: BenchPoint[] = [];
  const details: Record<string, unknown> = {};
  const result: Record<string, unknown> = {
    machine: machine(),
    date: new Date().toISOString(),
    database: dbName,
    ...counts,
    load_before: loadAverage(),
    points,
    details,
  };

  // Closing the ended months is one-time work on a database: measured once, at idle.
  resetPeak();
  const closing = await measure(() => ledger.closeEndedMonths(), backends);
  points.push({
    measure: `first close of ${closing.result.length} ended months (one-time)`,
    idle: { ...closing.cost, peak_mb: peakMb() },
    goal: '—',
    met: null,
  });
  log(`closed ${closing.result.length} months: ${JSON.stringify(closing.cost)}`);

  const fullVerify = await idleAndBusy(async () => {
    resetPeak();
    const { result: full, cost } = await measure(() => ledger.verify('full'), backends);
    if (full.problems.length > 0) throw new Error(`the seeded ledger does not verify: ${JSON.stringify(full.problems.slice(0, 5))}`);
    const verified = { ...cost, peak_mb: peakMb() };
    const anchor = await sample(
      async () => {
        await copyOut('select * from pads order by id')();
        await copyOut('select * from pad_events order by pad_id, seq')();
      },
      1,
      { warm: false },
    );
    log(`full verify: ${JSON.stringify(verified)}, COPY of every pad and event: ${JSON.stringify(anchor)}`);
    return { verified, anchor, pads: full.pads, events: full.events };
  });
  points.push({
    measure: `ledger:verify --full (${fullVerify.idle.pads.toLocaleString('en-US')} pads, ${fullVerify.idle.events.toLocaleString('en-US')} events)`,
    idle: fullVerify.idle.verified,
    busy: fullVerify.busy.verified,
    anchor: { label: 'COPY of every pad and every event', idle: fullVerify.idle.anchor, busy: fullVerify.busy.anchor },
    goal: '≤ 60 s',
    met: fullVerify.idle.verified.wall_ms <= 60_000,
    met_busy: fullVerify.busy.verified.wall_ms <= 60_000,
  });

  // A day of work through the API, in two halves (idle, then one core busy): add-pad, request → issue → accept of
  // four pads for each of 50 holders (the accepts measured), uses marked; then the incremental verify.
  const routeId = (await rows<{ id: number }>(sql`select id from routes order by id limit 1`))[0].id;
  const [{ last }] = await rows<{ last: number }>(sql`select max(series_to)::bigint as last from pads where route_id = ${routeId}`);
  await call(
    custodian,
    'POST',
    '/api/add-pad',
    { route_id: routeId, series_from: Number(last) + 1, series_to: Number(last) + 800 * 50 },
    201,
  );
  const fresh = await rows<{ id: number }>(
    sql`select id from pads where route_id = ${routeId} and series_from > ${last}::bigint order by id`,
  );
  const holderRows = await rows<{ id: number; email: string; branch_id: number }>(
    sql`select id, email, branch_id from users where email like 'holder%@history.test' order by id limit ${ACCEPTS}`,
  );
  const holders: Array<(typeof holderRows)[number] & { who: { headers: Record<string, string> } }> = [];
  for (const holder of holderRows) holders.push({ ...holder, who: await login(holder.email, ROLE.BRANCH_HEAD, holder.branch_id) });
  const courier = (await rows<{ id: number }>(sql`select id from users where email = 'courier@history.test'`))[0].id;
  let half = 0;
  const day = await idleAndBusy(async () => {
    const firstPad = half * ACCEPTS * 4;
    half += 1;
    const dayStart = new Date();
    const issued: Array<{ invoiceId: number; padIds: number[]; holder: (typeof holders)[number] }> = [];
    for (const [i, holder] of holders.entries()) {
      const padIds = fresh.slice(firstPad + i * 4, firstPad + i * 4 + 4).map((p) => p.id);
      const request = (await call(holder.who, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 4 }, 201)).json() as {
        data: { id: number };
      };
      await call(
        custodian,
        'POST',
        '/api/issue-invoice',
        { invoice_id: request.data.id, pads: padIds, assigned_user_id: courier, expected_return: 3 },
        201,
      );
      const [invoice] = await rows<{ id: number }>(
        sql`select id from invoices where invoice_type_id = ${INVOICE_TYPE.ISSUED} and request_invoice_id = ${request.data.id}`,
      );
      issued.push({ invoiceId: invoice.id, padIds, holder });
    }
    const anchorMs: number[] = [];
    const anchor = await measure(async () => {
      for (const { invoiceId, padIds, holder } of issued) {
        const start = performance.now();
        await raw.query('begin');
        await raw.query(
          'update pad_custody set holder_user_id = $1, holder_branch_id = $2, locked_by_invoice_id = null where pad_id = any($3)',
          [holder.id, holder.branch_id, padIds],
        );
        await raw.query('update invoices set invoice_status_id = $1, accepted_by = $2, accepted_at = now() where id = $3', [
          INVOICE_STATUS.COMPLETED,
          holder.id,
          invoiceId,
        ]);
        await raw.query('rollback');
        anchorMs.push(performance.now() - start);
      }
    }, backends);
    const acceptMs: number[] = [];
    const accepted = await measure(async () => {
      for (const { invoiceId, holder } of issued) {
        const start = performance.now();
        await call(holder.who, 'POST', `/api/accept-invoice/${invoiceId}`);
        acceptMs.push(performance.now() - start);
      }
    }, backends);
    for (const [i, { padIds, holder }] of issued.entries()) {
      for (const padId of padIds) {
        const pad = (await call(holder.who, 'GET', `/api/get-pad/${padId}`)).json().data as {
          number: number;
          pad_status_id: number;
          issuance_status_id: number;
          remarks: string | null;
          series: Array<{ number: number }>;
        };
        const series = pad.series.map((entry, k) => ({ number: entry.number, status: k < 5 + (i % 20) ? 2 : 1 }));
        await call(holder.who, 'PUT', `/api/update-pad/${padId}`, {
          number: pad.number,
          pad_status_id: pad.pad_status_id,
          issuance_status_id: pad.issuance_status_id,
          remarks: pad.remarks,
          series,
        });
      }
    }
    const perRequest = (cost: Cost, times: number[]): Side => {
      const sorted = [...times].sort((a, b) => a - b);
      return {
        wall_ms: Math.round(median(times)),
        node_cpu_ms: round2(cost.node_cpu_ms / times.length),
        pg_cpu_ms: round2(cost.pg_cpu_ms / times.length),
        p50_ms: round2(median(times)),
        p95_ms: round2(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]),
      };
    };
    resetPeak();
    const incremental = await measure(() => ledger.verify('incremental'), backends);
    const verifyAnchor = await sample(
      copyOut(
        `select * from pad_events where pad_id in (select pad_id from pad_events where recorded_at >= '${dayStart.toISOString()}') order by pad_id, seq`,
      ),
      1,
      { warm: false },
    );
    const out = {
      accept: perRequest(accepted.cost, acceptMs),
      acceptAnchor: perRequest(anchor.cost, anchorMs),
      verify: { ...incremental.cost, peak_mb: peakMb() },
      verifyAnchor,
      verified: { pads: incremental.result.pads, events: incremental.result.events, problems: incremental.result.problems.length },
    };
    log(`day of work: ${JSON.stringify(out)}`);
    return out;
  });
  points.push({
    measure: `accept of a 4-pad Issued invoice (${ACCEPTS} each), per request`,
    idle: day.idle.accept,
    busy: day.busy.accept,
    anchor: { label: 'raw UPDATE of its pads and invoice, rolled back', idle: day.idle.acceptAnchor, busy: day.busy.acceptAnchor },
    goal: 'p95 ≤ 200 ms',
    met: (day.idle.accept.p95_ms ?? Infinity) <= 200,
    met_busy: (day.busy.accept.p95_ms ?? Infinity) <= 200,
  });
  points.push({
    measure: `incremental verify after half a day of API work (${day.idle.verified.pads} pads, ${day.idle.verified.events} events)`,
    idle: day.idle.verify,
    busy: day.busy.verify,
    anchor: { label: "COPY of the touched pads' events", idle: day.idle.verifyAnchor, busy: day.busy.verifyAnchor },
    goal: '≤ 5 s',
    met: day.idle.verify.wall_ms <= 5_000,
    met_busy: day.busy.verify.wall_ms <= 5_000,
  });
  details.day = day;

  const today = new Date().toISOString().slice(0, 7);
  const lastMonth = previousMonth(today);
  const baseOf = async (month: string) =>
    (await rows<{ base: string | null }>(sql`select max(month) as base from raaf_month_closes where month < ${month}`))[0].base;

  /** One holder's (or the consolidated) RAAF of a month, JSON and PDF, beside a COPY of the rows it folds; idle and busy. */
  const raafOf = async (target: string, month: string, holder: RawHolder, repeats: number) => {
    const anchorSelect = raafRowsSelect(month, await baseOf(month), holder);
    return idleAndBusy(async () => ({
      json: await sample(() => call(admin, 'GET', target), repeats, { peak: true }),
      pdf: await sample(() => call(admin, 'GET', `${target}&format=pdf`), repeats, { peak: true }),
      anchor: await sample(copyOut(anchorSelect), repeats),
    }));
  };
  const raafPoints = (label: string, measured: Awaited<ReturnType<typeof raafOf>>, goal: { json: number; pdf: number; mb?: number }) => {
    const meets = (side: Side, ms: number) => side.wall_ms <= ms && (goal.mb === undefined || (side.peak_mb ?? 0) <= goal.mb);
    const memory = goal.mb === undefined ? '' : `, ≤ ${goal.mb} MB`;
    const anchor = { label: 'COPY of the rows it folds', idle: measured.idle.anchor, busy: measured.busy.anchor };
    for (const format of ['json', 'pdf'] as const) {
      points.push({
        measure: `${label}, ${format}`,
        idle: measured.idle[format],
        busy: measured.busy[format],
        anchor,
        goal: `≤ ${goal[format] / 1000} s${memory}`,
        met: meets(measured.idle[format], goal[format]),
        met_busy: meets(measured.busy[format], goal[format]),
      });
    }
  };

  const [busiest] = await rows<{ id: number }>(
    sql`select holder_user_id as id from pad_events where business_date >= ${`${lastMonth}-01`}::date and business_date < ${`${today}-01`}::date and holder_user_id is not null
      group by holder_user_id order by count(*) desc limit 1`,
  );
  const person = await raafOf(`/api/raaf?month=${lastMonth}&user_id=${busiest.id}`, lastMonth, { userId: busiest.id }, PERSON_REPEATS);
  raafPoints(`RAAF, busiest person (#${busiest.id}), ${lastMonth}`, person, { json: 1000, pdf: 2000 });
  const headOffice = await raafOf(`/api/raaf?month=${lastMonth}&branch_id=${ho.id}`, lastMonth, { branchId: ho.id }, REPEATS);
  raafPoints(`RAAF, head office's own stock, ${lastMonth}`, headOffice, { json: 1000, pdf: 2000 });
  const consolidated = await raafOf(`/api/raaf-summary?month=${lastMonth}`, lastMonth, null, REPEATS);
  raafPoints(`consolidated RAAF, ${lastMonth}`, consolidated, { json: 5000, pdf: 10_000, mb: 768 });
  details.raaf = { person, headOffice, consolidated };
  log(`RAAFs: ${JSON.stringify(details.raaf)}`);

  // Month 59 ÷ month 1: the same RAAF of an early month and of the latest, their opening stocks (the balances at the
  // end of the month before) about the same, so only the history behind them differs.
  const numbersOf = `coalesce(sum((select sum(split_part(r, '-', 2)::bigint - split_part(r, '-', 1)::bigint + 1)
      from unnest(string_to_array(nullif(ranges, ''), ',')) r)), 0)::bigint`;
  const [{ first }] = await rows<{ first: string | null }>(sql`select to_char(min(business_date), 'YYYY-MM') as first from pad_events`);
  const earlyMonths: string[] = [];
  for (let month = nextMonth(first ?? lastMonth); earlyMonths.length < EARLY_MONTHS && month < lastMonth; month = nextMonth(month))
    earlyMonths.push(month);
  type Stock = { month: string; pads: number; numbers: number };
  /** The opening stock of each month (keyed by that month): the stored balances at the end of the month before. */
  const openings = (list: Stock[]) =>
    new Map(list.map((s) => [nextMonth(s.month), { ...s, month: nextMonth(s.month), numbers: Number(s.numbers) }]));
  const closest = (stocks: Map<string, Stock>) => {
    const latest = stocks.get(lastMonth);
    if (!latest || latest.numbers === 0) return null;
    let best: { early: Stock; latest: Stock; off: number } | null = null;
    for (const month of earlyMonths) {
      const early = stocks.get(month);
      if (!early) continue;
      const off = Math.abs(early.numbers - latest.numbers) / latest.numbers;
      if (off <= SAME_STOCK) return { early, latest, off };
      if (!best || off < best.off) best = { early, latest, off };
    }
    return best;
  };
  const candidates = await rows<{ id: number }>(
    sql`select holder_user_id as id from pad_events where business_date >= ${`${lastMonth}-01`}::date and business_date < ${`${today}-01`}::date and holder_user_id is not null
      group by holder_user_id order by count(*) desc limit 10`,
  );
  const stockRows = await rows<Stock & { holder: number }>(
    sql`select holder_id as holder, month, count(*) filter (where ranges <> '')::int as pads, ${sql.raw(numbersOf)} as numbers
      from raaf_month_balances where holder_type = 'user' and holder_id in (${sql.join(
        candidates.map((c) => sql`${c.id}`),
        sql`, `,
      )}) group by holder_id, month`,
  );
  /** The busiest holder whose early opening stock is within SAME_STOCK of the latest; else the closest pair. */
  let pick: { holder: number; early: Stock; latest: Stock; off: number } | null = null;
  for (const candidate of candidates) {
    const found = closest(openings(stockRows.filter((s) => s.holder === candidate.id)));
    if (found && (!pick || found.off < pick.off)) pick = { holder: candidate.id, ...found };
    if (pick && pick.off <= SAME_STOCK) break;
  }
  const monthEvents = async (month: string, holder: { userId: number } | null) => {
    const { start, end } = monthBounds(month);
    const where = holder === null ? sql`true` : sql`holder_user_id = ${holder.userId}`;
    return (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from pad_events where business_date >= ${start}::date and business_date < ${end}::date and ${where}`,
      )
    )[0].n;
  };
  const cpuOf = (side: Side) => side.node_cpu_ms + side.pg_cpu_ms;
  const ratioPoints = async (
    label: string,
    target: (month: string) => string,
    holder: { userId: number } | null,
    pair: { early: Stock; latest: Stock; off: number },
    repeats: number,
  ) => {
    const early = await raafOf(target(pair.early.month), pair.early.month, holder, repeats);
    const latest = await raafOf(target(pair.latest.month), pair.latest.month, holder, repeats);
    const stock = (s: Stock) => `${s.pads.toLocaleString('en-US')} pads / ${s.numbers.toLocaleString('en-US')} numbers`;
    const ratios: Record<string, { cpu: number; wall: number }> = {};
    for (const condition of ['idle', 'busy'] as const)
      for (const format of ['json', 'pdf'] as const)
        ratios[`${condition}_${format}`] = {
          cpu: round2(cpuOf(latest[condition][format]) / Math.max(1, cpuOf(early[condition][format]))),
          wall: round2(latest[condition][format].wall_ms / Math.max(1, early[condition][format].wall_ms)),
        };
    for (const format of ['json', 'pdf'] as const) {
      const idle = ratios[`idle_${format}`];
      const busy = ratios[`busy_${format}`];
      points.push({
        measure: `${label}, ${format}: ${pair.latest.month} (opening ${stock(pair.latest)}) ÷ ${pair.early.month} (opening ${stock(pair.early)}): CPU ×${idle.cpu}, wall ×${idle.wall}; busy CPU ×${busy.cpu}, wall ×${busy.wall}`,
        idle: latest.idle[format],
        busy: latest.busy[format],
        anchor: { label: `the same RAAF of ${pair.early.month}`, idle: early.idle[format], busy: early.busy[format] },
        goal: 'CPU ≤ 1.3×',
        met: idle.cpu <= 1.3,
        met_busy: busy.cpu <= 1.3,
      });
    }
    return {
      early: { ...pair.early, events_in_month: await monthEvents(pair.early.month, holder), measured: early },
      latest: { ...pair.latest, events_in_month: await monthEvents(pair.latest.month, holder), measured: latest },
      opening_off: round2(pair.off),
      ratios,
    };
  };
  const monthRatio: Record<string, unknown> = {};
  if (pick) {
    monthRatio.person = {
      holder: pick.holder,
      same_stock: pick.off <= SAME_STOCK,
      ...(await ratioPoints(
        `RAAF month for month, holder #${pick.holder}`,
        (month) => `/api/raaf?month=${month}&user_id=${pick.holder}`,
        { userId: pick.holder },
        pick,
        PERSON_REPEATS,
      )),
    };
  } else
    monthRatio.person = { note: `no holder among the 10 busiest of ${lastMonth} has stored balances in the first ${EARLY_MONTHS} months` };
  const allStock = openings(
    await rows<Stock>(
      sql`select month, count(*) filter (where ranges <> '')::int as pads, ${sql.raw(numbersOf)} as numbers from raaf_month_balances group by month`,
    ),
  );
  const consolidatedPair = closest(allStock);
  if (consolidatedPair && consolidatedPair.off <= SAME_STOCK) {
    monthRatio.consolidated = await ratioPoints(
      'consolidated RAAF month for month',
      (month) => `/api/raaf-summary?month=${month}`,
      null,
      consolidatedPair,
      REPEATS,
    );
  } else {
    monthRatio.consolidated = {
      note: consolidatedPair
        ? `no month among the first ${EARLY_MONTHS} opens within ${SAME_STOCK * 100} % of ${lastMonth}'s stock; the closest, ${consolidatedPair.early.month}, opens with ${consolidatedPair.early.numbers} numbers against ${consolidatedPair.latest.numbers}`
        : `${lastMonth} has no stored opening balances`,
      openings: Object.fromEntries(allStock),
    };
  }
  details.month_ratio = monthRatio;
  log(`month for month: ${JSON.stringify(monthRatio, (key, value: unknown) => (key === 'measured' ? undefined : value))}`);

  // Lists at 10 connections, beside bench/bare.ts serving the SQL the app ran for each (recorded here).
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const [aPad] = await rows<{ series_from: number }>(sql`select series_from from pads where id = (select max(id) / 2 from pads)`);
  const lists = {
    get_pads: '/api/get-pads?page=3&per_page=10',
    get_invoices: '/api/get-invoices?page=3&per_page=10',
    find_receipt: `/api/find-receipt?number=${Number(aPad.series_from) + 7}`,
  };
  const statements: Record<string, Statement[]> = {};
  for (const [name, target] of Object.entries(lists)) {
    await call(admin, 'GET', target);
    statements[name] = await recordStatements(() => call(admin, 'GET', target));
  }
  const bare = await startBare(BARE_PORT, url.toString(), statements);
  try {
    const underLoad = async (target: string, headers: Record<string, string>, cpuOfServer: () => number): Promise<Side> => {
      const serverStart = cpuOfServer();
      const { result: loaded, cost } = await measure(() => load(target, headers), backends);
      const requests = Math.max(1, loaded.requests);
      return {
        wall_ms: cost.wall_ms,
        node_cpu_ms: round2((cpuOfServer() - serverStart) / requests),
        pg_cpu_ms: round2(cost.pg_cpu_ms / requests),
        p50_ms: loaded.p50_ms,
        p95_ms: loaded.p95_ms,
        rps: loaded.rps,
      };
    };
    const ownCpu = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    for (const [name, target] of Object.entries(lists)) {
      await load(`${base}${target}`, admin.headers, 2);
      await load(`http://127.0.0.1:${BARE_PORT}/bare/${name}`, {}, 2);
    }
    const listed = await idleAndBusy(async () => {
      const out: Record<string, { app: Side; bare: Side }> = {};
      for (const [name, target] of Object.entries(lists)) {
        out[name] = {
          app: await underLoad(`${base}${target}`, admin.headers, ownCpu),
          bare: await underLoad(`http://127.0.0.1:${BARE_PORT}/bare/${name}`, {}, () => processCpuMs([bare.pid])),
        };
        log(`${name}: ${JSON.stringify(out[name])}`);
      }
      return out;
    });
    for (const name of Object.keys(lists) as Array<keyof typeof lists>) {
      points.push({
        measure: `${name.replace('_', '-')} at 10 connections (${statements[name].length} statements)`,
        idle: listed.idle[name].app,
        busy: listed.busy[name].app,
        anchor: { label: 'bare server, same SQL', idle: listed.idle[name].bare, busy: listed.busy[name].bare },
        goal: 'p95 ≤ 50 ms',
        met: (listed.idle[name].app.p95_ms ?? Infinity) <= 50,
        met_busy: (listed.busy[name].app.p95_ms ?? Infinity) <= 50,
      });
    }
    details.lists = listed;
  } finally {
    await bare.stop();
  }
  result.load_after = loadAverage();
  saveResult(`bench-history-${dbName}`, result);
} finally {
  await raw.end();
  await app.close();
}
