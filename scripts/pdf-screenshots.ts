import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD } from '../src/server/demo/accounts.ts';
import { dateInZone } from '../src/shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE } from '../src/shared/lookups.ts';

/**
 * The first page of every PDF PadTrack prints, from a running demo (`npm run demo` on a fresh data folder, then the
 * server): `npx tsx scripts/pdf-screenshots.ts [base URL] [output folder]` signs in as the demo admin, downloads each
 * kind and writes `pdf-<kind>.png` at 100 % zoom, i.e. 72 dpi: one PDF point is one pixel, as a viewer shows it at 100 %.
 */
const base = (process.argv[2] ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const out = process.argv[3] ?? 'docs/screenshots';
fs.mkdirSync(out, { recursive: true });

type Json = Record<string, unknown>;
type Row = Json & { id: number };

const login = await fetch(`${base}/api/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@padtrack-demo.ph', password: DEMO_PASSWORD }),
});
if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
// -- the login endpoint's answer (loginResponse).
const { token } = (await login.json()) as { token: string };
const headers = { authorization: `Bearer ${token}` };

async function json<T = Json>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${base}${url}`, { ...init, headers: { ...headers, 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  // -- the caller names the answer's type of the route it calls.
  return (await res.json()) as T;
}

const rows = async (url: string) => (await json<{ data: Row[] }>(url)).data;

/** The first of `urls` that answers with a PDF, or null. */
async function firstPdf(urls: string[]): Promise<Buffer | null> {
  for (const url of urls) {
    const res = await fetch(url.startsWith('http') ? url : `${base}${url}`, { headers });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.ok && body.subarray(0, 5).toString('latin1') === '%PDF-') return body;
  }
  return null;
}

/** The first page at 72 dpi (100 % zoom) as `pdf-<kind>.png`. */
function firstPage(kind: string, pdf: Buffer): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-pdf-shot-'));
  try {
    const file = path.join(dir, 'document.pdf');
    fs.writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-png', '-singlefile', file, path.join(out, `pdf-${kind}`)]);
    console.log(path.join(out, `pdf-${kind}.png`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const certificates = await rows('/api/raaf-certificates?per_page=50');
const month = (certificates[0]?.month as string | undefined) ?? new Date().toISOString().slice(0, 7);
const holderOf = (row: Row) => row.holder as { type: 'user' | 'branch'; id: number };
const users = await rows('/api/get-users?per_page=100');
const branches = [...new Set(users.map((user) => (user.branch as { id: number } | null)?.id).filter((id) => id !== undefined))];
const completed = await rows('/api/completed-invoices?per_page=20');
const preview =
  completed.length > 0
    ? await json<{ preview_url: string }>('/api/reports/view', {
        method: 'POST',
        body: JSON.stringify({ invoice_ids: completed.map((row) => row.id) }),
      })
    : null;
const invoices = await rows('/api/get-invoices?per_page=100');
/* The demo's Turnover in transit (#12 on a fresh demo): its slip carries the pad lost on the way. */
const onTheRoad = (row: Row) => row.invoice_type_id === INVOICE_TYPE.TURNOVER && row.invoice_status_id === INVOICE_STATUS.IN_TRANSIT;
const transfers = [...invoices.filter(onTheRoad), ...invoices];
const pads = await rows('/api/get-pads?per_page=6');
// -- the health endpoint's answer (healthResponse).
const { time_zone: timeZone } = (await (await fetch(`${base}/api/health`)).json()) as { time_zone: string };
const today = dateInZone(new Date(), timeZone);
const yearAgo = dateInZone(new Date(Date.now() - 365 * 86_400_000), timeZone);

const kinds: Array<[string, string[]]> = [
  ['raaf', certificates.map((row) => `/api/raaf?month=${row.month as string}&${holderOf(row).type}_id=${holderOf(row).id}&format=pdf`)],
  ['raaf-rollup', branches.map((id) => `/api/raaf?month=${month}&branch_id=${id}&rollup=true&format=pdf`)],
  ['raaf-consolidated', [`/api/raaf-summary?month=${month}&format=pdf`]],
  ['raaf-certificate', certificates.map((row) => `/api/raaf-certificates/${row.id}/pdf`)],
  ['report-preview', preview ? [preview.preview_url] : []],
  ['report', (await rows('/api/reports?per_page=5')).map((row) => `/api/reports/${row.id}/pdf`)],
  ['notice-of-loss', (await rows('/api/loss-incidents?per_page=50')).map((row) => `/api/loss-incidents/${row.id}/notice`)],
  ['count-certificate', (await rows('/api/counts?per_page=20')).map((row) => `/api/counts/${row.id}/certificate`)],
  ['transmittal-slip', transfers.slice(0, 20).map((row) => `/api/invoice-slip/${row.id}`)],
  ['pad-labels', pads.length ? [`/api/pad-labels?ids=${pads.map((pad) => pad.id).join(',')}&size=a4`] : []],
  [
    'badge',
    await Promise.all(
      users.slice(0, 3).map(async (user) => (await json<{ data: { url: string } }>(`/api/user-badge/${user.id}`)).data.url),
    ),
  ],
  ['unused-forms', [`/api/unused-forms?date=${today}&format=pdf`]],
  /* Issue 38: the summary list of the first branch that is an e-invoicing establishment (the others answer 422). */
  ['paper-use-summary', branches.map((id) => `/api/paper-use?branch_id=${id}&from=${yearAgo}&to=${today}&format=pdf`)],
];

const missing: string[] = [];
for (const [kind, urls] of kinds) {
  const pdf = await firstPdf(urls);
  if (pdf) firstPage(kind, pdf);
  else missing.push(kind);
}
if (missing.length > 0) {
  console.error(`No PDF found in the demo data for: ${missing.join(', ')}`);
  process.exitCode = 1;
}
