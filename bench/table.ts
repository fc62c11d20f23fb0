import fs from 'node:fs';
import path from 'node:path';
import type { Cost } from './cpu.ts';
import { RESULTS_DIR } from './support.ts';

/** One side of a point under one condition: bench/cpu.ts's cost, with a load run's latencies or a memory peak. */
export interface Side extends Cost {
  /** Under load (bench/support.ts `load`): the costs are per request and the latencies are autocannon's. */
  p95_ms?: number;
  p50_ms?: number;
  rps?: number;
  peak_mb?: number;
}

/**
 * One figure of a benchmark beside its anchor (the same work done bare: a bare server, a raw COPY/UPDATE, psql), at idle
 * and with one core busy (bench/cpu.ts `idleAndBusy`). A result file holding `points` gets them into the summary table.
 */
export interface BenchPoint {
  measure: string;
  idle: Side;
  busy?: Side;
  anchor?: { label: string; idle: Side; busy?: Side };
  goal: string;
  /** Whether the idle figure meets the goal (null: no goal); `met_busy` the same with one core busy. */
  met: boolean | null;
  met_busy?: boolean | null;
}

interface ApiResult {
  endpoints: Record<string, { app_rps: number; bare_rps: number; ratio: number; app_p95_ms: number }>;
}
interface ScaleResult {
  generation: { ratio_to_raw_pads: number; ratio_to_raw_pads_and_events: number };
  throughput_20k_over_200k: Record<string, number>;
}
interface ReportsResult {
  preview_ms_median_of_3: number;
  save_ms_median_of_3: number;
}
interface LedgerResult {
  requests: Array<{ label: string; median_ms: number; node_cpu_ms?: number; pg_cpu_ms?: number }>;
  budget_ms: { verify: number; holder_raaf: number; summary: number };
}
interface PhoneResult {
  login_cold: { form_ms_median: number; transferred_bytes_median: number };
  lighthouse_login: { performance: number };
  lighthouse_invoices_signed_in: { performance: number };
}
interface StartResult {
  npm_start_nothing_changed_median_ms: number;
}

interface Row {
  measure: string;
  idle: string;
  idleCpu: string;
  busy: string;
  busyCpu: string;
  anchor: string;
  goal: string;
  met: string;
}

const NONE = '—';
/** A figure measured once, wall time only: the idle column. */
const wallOnly = (measure: string, figure: string, goal: string, met: boolean, cpu = NONE): Row => ({
  measure,
  idle: figure,
  idleCpu: cpu,
  busy: NONE,
  busyCpu: NONE,
  anchor: NONE,
  goal,
  met: met ? 'yes' : '**no**',
});

/** A result this run wrote; an older file is left out so the table never mixes runs. */
function fresh<T>(name: string, since: number): T | null {
  const file = path.join(RESULTS_DIR, `${name}.json`);
  if (!fs.existsSync(file) || fs.statSync(file).mtimeMs < since) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const cpuMs = (n: number) => (n < 10 ? n.toFixed(2) : Math.round(n).toLocaleString('en-US'));
const wallOf = (side: Side | undefined) =>
  side === undefined
    ? NONE
    : side.p95_ms !== undefined
      ? `p95 ${side.p95_ms} ms`
      : `${ms(side.wall_ms)}${side.peak_mb ? `, ${side.peak_mb} MB` : ''}`;
const cpuOf = (side: Side | undefined) =>
  side === undefined ? NONE : `${cpuMs(side.node_cpu_ms)} + ${cpuMs(side.pg_cpu_ms)} ms${side.p95_ms !== undefined ? '/req' : ''}`;
const metText = (met: boolean | null | undefined) => (met === null || met === undefined ? NONE : met ? 'yes' : '**no**');

function pointRow(point: BenchPoint): Row {
  const anchor = point.anchor;
  return {
    measure: point.measure,
    idle: wallOf(point.idle),
    idleCpu: cpuOf(point.idle),
    busy: wallOf(point.busy),
    busyCpu: cpuOf(point.busy),
    anchor: anchor
      ? `${anchor.label}: ${wallOf(anchor.idle)}, ${cpuOf(anchor.idle)}${anchor.busy ? `; busy ${wallOf(anchor.busy)}, ${cpuOf(anchor.busy)}` : ''}`
      : NONE,
    goal: point.goal,
    met: point.busy && point.met_busy !== undefined ? `${metText(point.met)}; busy ${metText(point.met_busy)}` : metText(point.met),
  };
}

/** Every result file this run wrote that carries `points` (bench/history.ts and the scripts that adopt the shape). */
function pointFiles(since: number): Array<{ name: string; points: BenchPoint[] }> {
  if (!fs.existsSync(RESULTS_DIR)) return [];
  return fs
    .readdirSync(RESULTS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const result = fresh<{ points?: BenchPoint[] }>(file.slice(0, -'.json'.length), since);
      return result && Array.isArray(result.points) ? [{ name: file.slice(0, -'.json'.length), points: result.points }] : [];
    });
}
const worst = (ratios: Record<string, number>) => Math.max(...Object.values(ratios));

/**
 * The rows of every benchmark this run measured: wall and CPU time (where measured), idle and with one core busy, the
 * anchor, the goal (docs/BENCHMARKS.md, PadTrack issue 39) and whether it is met.
 */
export function benchRows(since: number): Row[] {
  const rows: Row[] = [];
  const api = fresh<ApiResult>('api-postgres', since);
  for (const [name, e] of Object.entries(api?.endpoints ?? {})) {
    rows.push(
      wallOnly(
        `${name}: app / bare, PostgreSQL`,
        `${Math.round(e.app_rps)} / ${Math.round(e.bare_rps)} req/s = ${e.ratio.toFixed(2)}, p95 ${e.app_p95_ms.toFixed(1)} ms`,
        '≥ 0.60, p95 ≤ 30 ms',
        e.ratio >= 0.6 && e.app_p95_ms <= 30,
      ),
    );
  }
  for (const db of ['postgres', 'pglite']) {
    const scale = fresh<ScaleResult>(`scale-${db}`, since);
    if (!scale) continue;
    const flat = worst(scale.throughput_20k_over_200k);
    rows.push(wallOnly(`get-pads pages and searches, 20,000 → 200,000 pads, ${db}: worst ratio`, String(flat), '≤ 1.30', flat <= 1.3));
    const g = scale.generation;
    rows.push(
      wallOnly(`add-pad of 1,000,000 numbers / raw pads, ${db}`, String(g.ratio_to_raw_pads), '≤ 1.30', g.ratio_to_raw_pads <= 1.3),
    );
    rows.push(
      wallOnly(
        `add-pad / raw pads and their events, ${db}`,
        String(g.ratio_to_raw_pads_and_events),
        '≤ 1.10',
        g.ratio_to_raw_pads_and_events <= 1.1,
      ),
    );
  }
  for (const db of ['pglite', 'postgres']) {
    const reports = fresh<ReportsResult>(`reports-${db}`, since);
    if (reports) {
      const slowest = Math.max(reports.preview_ms_median_of_3, reports.save_ms_median_of_3);
      rows.push(
        wallOnly(
          `500-invoice report PDF, preview / save, ${db}`,
          `${ms(reports.preview_ms_median_of_3)} / ${ms(reports.save_ms_median_of_3)}`,
          '< 1,000 ms',
          slowest < 1000,
        ),
      );
    }
    const ledger = fresh<LedgerResult>(`ledger-${db}`, since);
    if (!ledger) continue;
    for (const r of ledger.requests) {
      const budget = r.label.startsWith('ledger')
        ? ledger.budget_ms.verify
        : r.label.startsWith('holder')
          ? ledger.budget_ms.holder_raaf
          : ledger.budget_ms.summary;
      const cpu = r.node_cpu_ms === undefined ? NONE : `${cpuMs(r.node_cpu_ms)} + ${cpuMs(r.pg_cpu_ms ?? 0)} ms`;
      rows.push(wallOnly(`${r.label}, ${db}`, ms(r.median_ms), `≤ ${ms(budget)}`, r.median_ms <= budget, cpu));
    }
  }
  const phone = fresh<PhoneResult>('phone', since);
  if (phone) {
    const kb = phone.login_cold.transferred_bytes_median / 1000;
    rows.push(
      wallOnly(
        '/login on the phone profile: transferred, form visible',
        `${kb.toFixed(1)} kB, ${ms(phone.login_cold.form_ms_median)}`,
        '≤ 150 kB, ≤ 2,000 ms',
        kb <= 150 && phone.login_cold.form_ms_median <= 2000,
      ),
    );
    rows.push(wallOnly('Lighthouse /login', String(phone.lighthouse_login.performance), '≥ 95', phone.lighthouse_login.performance >= 95));
    rows.push(
      wallOnly(
        'Lighthouse /invoices, signed in',
        String(phone.lighthouse_invoices_signed_in.performance),
        '≥ 90',
        phone.lighthouse_invoices_signed_in.performance >= 90,
      ),
    );
  }
  const start = fresh<StartResult>('start', since);
  if (start)
    rows.push(
      wallOnly(
        'npm start to healthy, nothing changed',
        ms(start.npm_start_nothing_changed_median_ms),
        '≤ 3,000 ms',
        start.npm_start_nothing_changed_median_ms <= 3000,
      ),
    );
  for (const { name, points } of pointFiles(since))
    for (const point of points) rows.push(pointRow({ ...point, measure: `${point.measure} (${name})` }));
  return rows;
}

/** The rows as a Markdown table, ready for docs/BENCHMARKS.md. */
export function benchTable(rows: Row[]): string {
  const lines = [
    '| measure | idle: wall | idle: CPU node + pg | one core busy: wall | busy: CPU node + pg | anchor | goal | met |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(`| ${r.measure} | ${r.idle} | ${r.idleCpu} | ${r.busy} | ${r.busyCpu} | ${r.anchor} | ${r.goal} | ${r.met} |`);
  return lines.join('\n');
}
