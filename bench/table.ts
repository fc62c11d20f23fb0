import fs from 'node:fs';
import path from 'node:path';
import { RESULTS_DIR } from './support.ts';

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
  requests: Array<{ label: string; median_ms: number }>;
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

type Row = [measure: string, figure: string, goal: string, met: boolean];

/** A result this run wrote; an older file is left out so the table never mixes runs. */
function fresh<T>(name: string, since: number): T | null {
  const file = path.join(RESULTS_DIR, `${name}.json`);
  if (!fs.existsSync(file) || fs.statSync(file).mtimeMs < since) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const worst = (ratios: Record<string, number>) => Math.max(...Object.values(ratios));

/** The rows of every benchmark this run measured: the figure, its goal (docs/BENCHMARKS.md) and whether it is met. */
export function benchRows(since: number): Row[] {
  const rows: Row[] = [];
  const api = fresh<ApiResult>('api-postgres', since);
  for (const [name, e] of Object.entries(api?.endpoints ?? {})) {
    rows.push([
      `${name}: app / bare, PostgreSQL`,
      `${Math.round(e.app_rps)} / ${Math.round(e.bare_rps)} req/s = ${e.ratio.toFixed(2)}, p95 ${e.app_p95_ms.toFixed(1)} ms`,
      '≥ 0.60, p95 ≤ 30 ms',
      e.ratio >= 0.6 && e.app_p95_ms <= 30,
    ]);
  }
  for (const db of ['postgres', 'pglite']) {
    const scale = fresh<ScaleResult>(`scale-${db}`, since);
    if (!scale) continue;
    const flat = worst(scale.throughput_20k_over_200k);
    rows.push([`get-pads pages and searches, 20,000 → 200,000 pads, ${db}: worst ratio`, String(flat), '≤ 1.30', flat <= 1.3]);
    const g = scale.generation;
    rows.push([`add-pad of 1,000,000 numbers / raw pads, ${db}`, String(g.ratio_to_raw_pads), '≤ 1.30', g.ratio_to_raw_pads <= 1.3]);
    rows.push([
      `add-pad / raw pads and their events, ${db}`,
      String(g.ratio_to_raw_pads_and_events),
      '≤ 1.10',
      g.ratio_to_raw_pads_and_events <= 1.1,
    ]);
  }
  for (const db of ['pglite', 'postgres']) {
    const reports = fresh<ReportsResult>(`reports-${db}`, since);
    if (reports) {
      const slowest = Math.max(reports.preview_ms_median_of_3, reports.save_ms_median_of_3);
      rows.push([
        `500-invoice report PDF, preview / save, ${db}`,
        `${ms(reports.preview_ms_median_of_3)} / ${ms(reports.save_ms_median_of_3)}`,
        '< 1,000 ms',
        slowest < 1000,
      ]);
    }
    const ledger = fresh<LedgerResult>(`ledger-${db}`, since);
    if (!ledger) continue;
    for (const r of ledger.requests) {
      const budget = r.label.startsWith('ledger')
        ? ledger.budget_ms.verify
        : r.label.startsWith('holder')
          ? ledger.budget_ms.holder_raaf
          : ledger.budget_ms.summary;
      rows.push([`${r.label}, ${db}`, ms(r.median_ms), `≤ ${ms(budget)}`, r.median_ms <= budget]);
    }
  }
  const phone = fresh<PhoneResult>('phone', since);
  if (phone) {
    const kb = phone.login_cold.transferred_bytes_median / 1000;
    rows.push([
      '/login on the phone profile: transferred, form visible',
      `${kb.toFixed(1)} kB, ${ms(phone.login_cold.form_ms_median)}`,
      '≤ 150 kB, ≤ 2,000 ms',
      kb <= 150 && phone.login_cold.form_ms_median <= 2000,
    ]);
    rows.push(['Lighthouse /login', String(phone.lighthouse_login.performance), '≥ 95', phone.lighthouse_login.performance >= 95]);
    rows.push([
      'Lighthouse /invoices, signed in',
      String(phone.lighthouse_invoices_signed_in.performance),
      '≥ 90',
      phone.lighthouse_invoices_signed_in.performance >= 90,
    ]);
  }
  const start = fresh<StartResult>('start', since);
  if (start)
    rows.push([
      'npm start to healthy, nothing changed',
      ms(start.npm_start_nothing_changed_median_ms),
      '≤ 3,000 ms',
      start.npm_start_nothing_changed_median_ms <= 3000,
    ]);
  return rows;
}

/** The rows as a Markdown table, ready for docs/BENCHMARKS.md. */
export function benchTable(rows: Row[]): string {
  const lines = ['| measure | figure | goal | met |', '|---|---|---|---|'];
  for (const [measure, figure, goal, met] of rows) lines.push(`| ${measure} | ${figure} | ${goal} | ${met ? 'yes' : '**no**'} |`);
  return lines.join('\n');
}
