/**
 * Issue 39: what a RAAF costs on five years of history, and what closing a month costs. On a copy of the five-year
 * database (bench/history.ts seeds `padtrack_bench_4x100k`; `createdb -T padtrack_bench_4x100k padtrack_5y_raaf`):
 * the head office's own RAAF of this month and of last month, JSON and PDF, and the consolidated RAAF of last month,
 * each as wall, node CPU and PostgreSQL CPU (bench/cpu.ts), idle and with one core busy, beside the anchor: the same
 * month's events of the same holder read by psql (`\copy … to /dev/null`). Then the RAAF PDF's remark layout against
 * its table drawing, and the close-months job closing one month (last month's balances dropped and written again).
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/raaf.ts [database=padtrack_5y_raaf]
 */
import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { ROLE } from '../src/shared/lookups.ts';
import { variant } from './raaf-variant.ts';
import { closeMonthsJob } from '../src/server/features/ledger/jobs.ts';
import { lastEndedMonth, monthBounds, monthOf, previousMonth } from '../src/server/features/ledger/month-balances.ts';
import { businessDate } from '../src/server/features/ledger/lifecycle.ts';
import { computeRaaf, raafPdf, resolveHolder } from '../src/server/features/ledger/raaf.ts';
import { runJobOnce } from '../src/server/db/jobs.ts';
import { paragraph } from '../src/server/lib/pdf/draw.ts';
import { Pdf } from '../src/server/lib/pdf/document.ts';
import { remarks } from '../src/server/lib/pdf/raaf-pdf.ts';
import { pdfText } from '../src/server/lib/pdf/text.ts';
import { startApp } from '../src/server/start.ts';
import { backendPids, type Cost, idleAndBusy, measure, processCpuMs } from './cpu.ts';
import { benchClient, benchConfig, loadAverage, machine, median, peakMb, resetPeak, sampleCost, saveResult } from './support.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('bench/raaf.ts runs on PostgreSQL: set TEST_DATABASE_URL');
const dbName = process.argv[2] ?? 'padtrack_5y_raaf';
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;
const REPEATS = Number(process.env.BENCH_RAAF_REPEATS ?? 3);

const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** `sampleCost` of REPEATS runs after one untimed run, with the memory peak of all of them. */
const sample = (work: () => Promise<unknown>, pids: () => Promise<number[]>) => sampleCost(work, REPEATS, pids);

/**
 * The anchor: psql reading the same rows to /dev/null. One psql session: its backend's pid first, then the \copy
 * between two reads of that backend's CPU time, so the figure is the copy's alone (psql's own CPU beside it).
 */
async function psqlCopy(query: string): Promise<Cost & { rows: number }> {
  const psql = spawn('psql', ['-X', '-At', '-d', url.toString()], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const waiters: Array<{ marker: string; resolve: () => void }> = [];
  psql.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const waiter of [...waiters]) {
      if (out.includes(waiter.marker)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const send = (command: string, marker: string) =>
    new Promise<void>((resolve) => {
      waiters.push({ marker, resolve });
      psql.stdin.write(`${command}\nselect '${marker}';\n`);
    });
  await send('select pg_backend_pid();', 'ready');
  const backend = Number(out.trim().split('\n')[0]);
  const pgStart = processCpuMs([backend]);
  const clientStart = processCpuMs([psql.pid ?? 0]);
  const start = performance.now();
  await send(`\\copy (${query}) to /dev/null`, 'copied');
  const wall = performance.now() - start;
  const cost = {
    wall_ms: Math.round(wall),
    node_cpu_ms: processCpuMs([psql.pid ?? 0]) - clientStart,
    pg_cpu_ms: processCpuMs([backend]) - pgStart,
  };
  const counted = out.match(/COPY (\d+)/);
  psql.stdin.end();
  await new Promise((resolve) => psql.once('exit', resolve));
  return { ...cost, rows: counted ? Number(counted[1]) : -1 };
}

async function anchor(query: string) {
  await psqlCopy(query);
  const runs: Array<Cost & { rows: number }> = [];
  for (let i = 0; i < REPEATS; i += 1) runs.push(await psqlCopy(query));
  const of = (key: 'wall_ms' | 'node_cpu_ms' | 'pg_cpu_ms') => Math.round(median(runs.map((run) => run[key])));
  return { wall_ms: of('wall_ms'), psql_cpu_ms: of('node_cpu_ms'), pg_cpu_ms: of('pg_cpu_ms'), rows: runs[0].rows };
}

/** Drawing one RAAF's PDF to the end, in this process. */
const drawn = (pdf: Pdf) => pdf.finish();

const config = benchConfig({ DATABASE_URL: url.toString() });
const { app, ctx } = await startApp(config, { logger: pino({ level: 'silent' }), jobs: false });
const db = ctx.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const raw = new pg.Client({ connectionString: url.toString() });
await raw.connect();
const backends = () => backendPids((text, values) => raw.query<{ pid: number }>(text, values), dbName);

try {
  const [ho] = await rows<{ id: number }>(sql`select id from branches where name = 'Head Office' order by id limit 1`);
  ctx.config.headOfficeBranchId = ho.id;
  const client = benchClient(app, db);
  const admin = await client.signIn('bench-admin@raaf.test', ROLE.ADMIN, ho.id);
  const call = async (target: string) => {
    await client.call(admin, 'GET', target);
  };

  const [counts] = await rows<{ pads: number; events: number; ho_events: number }>(
    sql`select (select count(*) from pads)::int as pads, (select count(*) from pad_events)::int as events,
      (select count(*) from pad_events where holder_branch_id = ${ho.id} and holder_user_id is null)::int as ho_events`,
  );
  log(`${dbName}: ${JSON.stringify(counts)}`);
  const result: Record<string, unknown> = {
    machine: machine(),
    date: new Date().toISOString(),
    database: dbName,
    ...counts,
    load_before: loadAverage(),
  };

  // The close-months job on one month: last month's balances dropped, then the job (its period not yet run) writes them.
  const lastEnded = lastEndedMonth(ctx);
  await db.execute(sql`delete from raaf_month_balances where month >= ${lastEnded}`);
  await db.execute(sql`delete from raaf_month_closes where month >= ${lastEnded}`);
  await db.execute(sql`delete from job_runs where name = 'close-months'`);
  const closeFirst = await rows<{ n: number }>(sql`select count(*)::int as n from raaf_month_closes where month < ${lastEnded}`);
  resetPeak();
  const closed = await measure(() => runJobOnce(db, closeMonthsJob(ctx)), backends);
  const [written] = await rows<{ n: number }>(sql`select balances as n from raaf_month_closes where month = ${lastEnded}`);
  result.close_one_month = {
    month: lastEnded,
    earlier_closes: closeFirst[0].n,
    balances: written?.n ?? 0,
    ...closed.cost,
    peak_mb: peakMb(),
  };
  log(`close-months job, ${lastEnded}: ${JSON.stringify(result.close_one_month)}`);

  const thisMonth = monthOf(businessDate(new Date(), ctx.config.timeZone));
  const lastMonth = previousMonth(thisMonth);
  const reports: Record<string, unknown> = {};
  for (const month of [thisMonth, lastMonth]) {
    const { start, end } = monthBounds(month);
    const copy = await anchor(
      `select pad_id, seq, route_id, kind, from_number, to_number, holder_user_id, holder_branch_id, counterparty_user_id, counterparty_branch_id, invoice_id, reason, business_date from pad_events where holder_branch_id = ${ho.id} and holder_user_id is null and business_date between '${start}' and (date '${end}' - 1)`,
    );
    const target = `/api/raaf?month=${month}&branch_id=${ho.id}`;
    const figures = await idleAndBusy(async () => ({
      json: await sample(() => call(target), backends),
      pdf: await sample(() => call(`${target}&format=pdf`), backends),
    }));
    reports[`head_office_${month === thisMonth ? 'this' : 'last'}_month`] = { month, ...figures, anchor_psql_copy: copy };
    log(`head office ${month}: ${JSON.stringify(reports[`head_office_${month === thisMonth ? 'this' : 'last'}_month`])}`);
  }
  {
    const { start, end } = monthBounds(lastMonth);
    const copy = await anchor(
      `select pad_id, seq, route_id, kind, from_number, to_number, holder_user_id, holder_branch_id, counterparty_user_id, counterparty_branch_id, invoice_id, reason, business_date from pad_events where business_date between '${start}' and (date '${end}' - 1)`,
    );
    const target = `/api/raaf-summary?month=${lastMonth}`;
    const figures = await idleAndBusy(async () => ({
      json: await sample(() => call(target), backends),
      pdf: await sample(() => call(`${target}&format=pdf`), backends),
    }));
    reports.consolidated_last_month = { month: lastMonth, ...figures, anchor_psql_copy: copy };
    log(`consolidated ${lastMonth}: ${JSON.stringify(reports.consolidated_last_month)}`);
  }
  result.reports = reports;

  // The PDF's parts: the table alone, the remarks alone, and the remark layout as paragraph() did it before issue 39.
  const holder = await resolveHolder(ctx, { branch_id: ho.id });
  const raaf = await computeRaaf(ctx, holder, thisMonth);
  const pdfOf = async (keep: { table: boolean; remarks: boolean }) =>
    sample(
      async () => drawn(await raafPdf(ctx, variant(raaf, keep))),
      async () => [],
    );
  const whole = await pdfOf({ table: true, remarks: true });
  const tableOnly = await pdfOf({ table: true, remarks: false });
  const remarksOnly = await pdfOf({ table: false, remarks: true });
  const neither = await pdfOf({ table: false, remarks: false });
  const remarkTexts = raaf.rows.flatMap((row) => row.remarks.map((remark) => `${row.route.name}: ${remark}`));
  const layoutWith = (draw: (pdf: Pdf) => void) =>
    sample(
      async () => {
        const pdf = new Pdf({
          size: 'A4',
          landscape: true,
          margins: { left: 36, right: 36, top: 32, bottom: 36 },
          info: { title: 'remarks' },
        });
        pdf.addPage();
        draw(pdf);
        await pdf.finish();
      },
      async () => [],
    );
  const before = await layoutWith((pdf) => {
    for (const text of remarkTexts) paragraph(pdf, `- ${pdfText(text)}`);
  });
  const after = await layoutWith((pdf) => {
    for (const step of remarks(pdf, remarkTexts)) void step;
  });
  result.pdf_parts = {
    routes: raaf.rows.length,
    ranges: raaf.rows.reduce(
      (sum, row) =>
        sum + Math.max(row.beginning.ranges.length, row.receipt.ranges.length, row.issued.ranges.length, row.ending.ranges.length),
      0,
    ),
    remarks: remarkTexts.length,
    whole_cpu_ms: whole.node_cpu_ms,
    table_cpu_ms: tableOnly.node_cpu_ms - neither.node_cpu_ms,
    remarks_cpu_ms: remarksOnly.node_cpu_ms - neither.node_cpu_ms,
    frame_cpu_ms: neither.node_cpu_ms,
    remark_layout_paragraph_cpu_ms: before.node_cpu_ms,
    remark_layout_wrapped_cpu_ms: after.node_cpu_ms,
  };
  log(`pdf parts: ${JSON.stringify(result.pdf_parts)}`);
  result.load_after = loadAverage();
  saveResult(`bench-raaf-${dbName}`, result);
} finally {
  await raw.end();
  await app.close();
}
