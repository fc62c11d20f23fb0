/**
 * Issue 39 point 2 without the five-year database: a RAAF PDF of the head office's November shape (4 routes, ≈ 500 table
 * lines, 1,470 pads transferred a route, 4 contiguous pads an invoice, each invoice one remark as the fold condenses it,
 * ≈ 1,500 remarks) drawn in this process. It reports the
 * CPU time (median of BENCH_RAAF_REPEATS runs after one untimed run) of the remarks section and of the table section
 * (each: the document with it less the document without it, headers, footers and compression included), and the remark
 * layout alone on a bare page as bench/raaf.ts measures it. BENCH_RAAF_PDF=<file> also writes the whole document there.
 *   npx tsx bench/raaf-layout.ts
 */
import fs from 'node:fs';
import { numberRange } from '../src/shared/format.ts';
import type { Raaf, RaafRouteRow } from '../src/shared/schemas/ledger.ts';
import { variant } from './raaf-variant.ts';
import { NO_IDENTITY } from '../src/shared/schemas/operator-identity.ts';
import { Pdf } from '../src/server/lib/pdf/document.ts';
import { remarks, renderRaafPdf } from '../src/server/lib/pdf/raaf-pdf.ts';
import { loadAverage, machine, median, saveResult } from './support.ts';

const REPEATS = Number(process.env.BENCH_RAAF_REPEATS ?? 7);
const ROUTES = 4;
const TABLE_LINES_PER_ROUTE = 124;
const TRANSFERS_PER_ROUTE = 1_470;
const PAD = 50;

const PEOPLE = [
  'Maria Clara Santos',
  'Juan Dela Cruz',
  'Ana Reyes-Villanueva',
  'Jose Rizal Mercado',
  'Liza Soberano Cruz',
  'Ramon Magsaysay Jr.',
  'Teresita Bautista',
  'Eduardo Manalo',
  'Corazon Aquino Lim',
  'Fernando Poe Garcia',
  'Imelda Ocampo',
  'Andres Bonifacio Tan',
];
const BRANCHES = ['Calapan Port', 'Batangas Terminal', 'Iloilo Port', 'Bacolod Terminal', 'Dumaguete Pier', 'Roxas Port'];
const ROUTE_NAMES = ['Batangas - Calapan', 'Iloilo - Bacolod', 'Dumaguete - Dapitan', 'Roxas - Caticlan'];

/** A small deterministic generator, so every run draws the same document. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function ranges(count: number, start: number): Array<[number, number]> {
  return Array.from({ length: count }, (_, i) => [start + i * 3 * PAD + 1, start + i * 3 * PAD + PAD]);
}

/** One route of the head office's month: its table lines and the remarks the ledger writes for it. */
function routeRow(index: number, rand: () => number): RaafRouteRow {
  const base = 1_000_000 + index * 1_000_000;
  const group = (count: number, offset: number) => ({ qty: count * PAD, ranges: ranges(count, base + offset) });
  const texts: string[] = [];
  let invoice = 40_000 + index * 2_000;
  let pad = base + 500_001;
  for (let i = 0; i < TRANSFERS_PER_ROUTE; i += 4) {
    const person = PEOPLE[Math.floor(rand() * PEOPLE.length)];
    const branch = BRANCHES[Math.floor(rand() * BRANCHES.length)];
    invoice += 1 + Math.floor(rand() * 3);
    texts.push(`Transferred ${numberRange(pad, pad + 4 * PAD - 1)} (${4 * PAD}) to ${person} (${branch}) on invoice #${invoice}`);
    pad += 4 * PAD;
  }
  for (let i = 0; i < 6; i += 1) {
    const number = base + 600_000 + i * 7;
    texts.push(`Cancelled ${numberRange(number, number)} (1): Spoiled in printing, torn when the pad was opened at the pier`);
  }
  texts.push(`Voided ${numberRange(base + 700_001, base + 700_050)} (50): pad deleted`);
  for (let i = 0; i < 3; i += 1)
    texts.push(`In transit at month end on invoice #${invoice + 10 + i} with ${PEOPLE[i]}: still on this holder's Ending`);
  return {
    route: { id: index + 1, name: ROUTE_NAMES[index], tin: `004-512-889-00${index}`, company: 'Ocean Fast Ferries Inc.' },
    beginning: group(TABLE_LINES_PER_ROUTE, 0),
    receipt: group(Math.floor(TABLE_LINES_PER_ROUTE / 3), 200_000),
    issued: {
      ...group(TABLE_LINES_PER_ROUTE - 4, 400_000),
      by_kind: { used: 0, cancelled: 6, lost: 0, transferred: TRANSFERS_PER_ROUTE * PAD },
    },
    ending: group(TABLE_LINES_PER_ROUTE - 10, 800_000),
    remarks: texts,
  };
}

function headOfficeNovember(): Raaf {
  const rand = random(39);
  const rows = Array.from({ length: ROUTES }, (_, i) => routeRow(i, rand));
  return {
    month: '2026-11',
    holder: { type: 'branch', id: 1, name: 'Head Office', branch: { id: 1, name: 'Head Office' } },
    rows,
    totals: { beginning: 1, receipt: 2, issued: 3, ending: 4 },
    balanced: true,
    in_transit: [],
    certificate: null,
  };
}

/** The RAAF's document; uncompressed, every page after the first is written without Flate, to tell layout from compression. */
function document(raaf: Raaf, compressed = true) {
  const pdf = renderRaafPdf({
    raaf,
    certificate: null,
    timeZone: 'Asia/Manila',
    generatedAt: new Date('2026-12-01T01:00:00Z'),
    operator: NO_IDENTITY,
  });
  // pdfkit's typings leave out the flag its new pages' content streams read.
  if (!compressed) (pdf.doc as unknown as { compress: boolean }).compress = false;
  return pdf;
}

/** Node CPU time of one run, in ms to a tenth. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function sample(work: () => Promise<unknown>): Promise<number[]> {
  await work();
  const runs: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) runs.push(await cpuMs(work));
  return runs;
}

async function pagesOf(keep: { table: boolean; remarks: boolean }): Promise<number> {
  const pdf = document(variant(raaf, keep));
  await pdf.finish();
  return pdf.pageCount;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

const raaf = headOfficeNovember();
const remarkTexts = raaf.rows.flatMap((row) => row.remarks.map((remark) => `${row.route.name}: ${remark}`));
if (process.env.BENCH_RAAF_PDF) fs.writeFileSync(process.env.BENCH_RAAF_PDF, await document(raaf).finish());

const loadBefore = loadAverage();
const of = (keep: { table: boolean; remarks: boolean }, compressed = true) =>
  sample(() => document(variant(raaf, keep), compressed).finish());
const whole = await of({ table: true, remarks: true });
const tableOnly = await of({ table: true, remarks: false });
const remarksOnly = await of({ table: false, remarks: true });
const neither = await of({ table: false, remarks: false });
const tableFlat = await of({ table: true, remarks: false }, false);
const remarksFlat = await of({ table: false, remarks: true }, false);
const neitherFlat = await of({ table: false, remarks: false }, false);
const bareLayout = await sample(async () => {
  const pdf = new Pdf({ size: 'A4', landscape: true, margins: { left: 36, right: 36, top: 32, bottom: 36 }, info: { title: 'remarks' } });
  pdf.addPage();
  for (const step of remarks(pdf, remarkTexts)) void step;
  await pdf.finish();
});

const result = {
  machine: machine(),
  date: new Date().toISOString(),
  repeats: REPEATS,
  load_before: loadBefore,
  routes: raaf.rows.length,
  table_lines: raaf.rows.reduce(
    (sum, row) =>
      sum + Math.max(row.beginning.ranges.length, row.receipt.ranges.length, row.issued.ranges.length, row.ending.ranges.length),
    0,
  ),
  remarks: remarkTexts.length,
  whole_cpu_ms: round(median(whole)),
  table_cpu_ms: round(median(tableOnly) - median(neither)),
  remarks_cpu_ms: round(median(remarksOnly) - median(neither)),
  frame_cpu_ms: round(median(neither)),
  table_uncompressed_cpu_ms: round(median(tableFlat) - median(neitherFlat)),
  remarks_uncompressed_cpu_ms: round(median(remarksFlat) - median(neitherFlat)),
  pages: {
    whole: await pagesOf({ table: true, remarks: true }),
    table_only: await pagesOf({ table: true, remarks: false }),
    remarks_only: await pagesOf({ table: false, remarks: true }),
  },
  remark_layout_bare_cpu_ms: round(median(bareLayout)),
  load_after: loadAverage(),
};
saveResult('bench-raaf-layout', result);
