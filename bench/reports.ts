/**
 * docs/BENCHMARKS.md "Reports": a report of 500 completed Issued invoices must render within 3 s, and now under 1 s.
 * The first preview and save are reported apart; the figures are the median of the next three.
 * Runs on a fresh in-memory PGlite (or the PostgreSQL server named by TEST_DATABASE_URL):
 *   npx tsx bench/reports.ts [invoices=500] [padsPerInvoice=3]
 */
import os from 'node:os';
import { ROLE } from '../src/shared/lookups.ts';
import { buildIssuedInvoice, createBranch, createRoute, createUser, signedIn } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { median, PRODUCTION_ENV, saveResult } from './support.ts';

const invoiceCount = Number(process.argv[2] ?? 500);
const padsPerInvoice = Number(process.argv[3] ?? 3);
const LIMIT_MS = 3000;

const t = await createTestApp(PRODUCTION_ENV);
try {
  const routes = await Promise.all([0, 1, 2, 3].map((i) => createRoute(t.db, { name: `Bench route ${i}` })));
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  const agencies = await Promise.all([0, 1, 2, 3, 4].map((i) => createBranch(t.db, { name: `Agency ${i}` })));
  const couriers = await Promise.all(
    [0, 1].map((i) => createUser(t.db, { first_name: 'Courier', last_name: `No${i}`, role_id: ROLE.DRIVER })),
  );
  const custodian = await createUser(t.db, {
    first_name: 'Celia',
    last_name: 'Custodian',
    role_id: ROLE.CUSTODIAN,
    branch_id: headOffice.id,
  });
  const receivers = await Promise.all(
    agencies.map((branch, i) =>
      createUser(t.db, { first_name: 'Receiver', last_name: `No${i}`, role_id: ROLE.BRANCH_HEAD, branch_id: branch.id }),
    ),
  );

  /** An invoice goes into one saved report only, so each of the four timed runs reports invoices of its own. */
  const seedStart = performance.now();
  const batches: number[][] = [];
  for (let batch = 0; batch < 4; batch += 1) {
    const ids: number[] = [];
    for (let i = 0; i < invoiceCount; i += 1) {
      const { invoice } = await buildIssuedInvoice(t.db, {
        route: routes[i % routes.length],
        fromBranch: headOffice,
        toBranch: agencies[i % agencies.length],
        requester: receivers[i % receivers.length],
        courier: couriers[i % couriers.length],
        custodian,
        padCount: padsPerInvoice,
      });
      ids.push(invoice.id);
    }
    batches.push(ids);
  }
  const seedMs = performance.now() - seedStart;
  const { headers } = await signedIn(t, { role_id: ROLE.ACCOUNTING, first_name: 'Bench', last_name: 'Accountant' });

  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return Math.round((used.user + used.system) / 1000);
  };
  /** Preview (view, then fetch the signed PDF) and save, each timed with its CPU; the first pair pays Node's warm-up. */
  const once = async (ids: number[]) => {
    const previewCpu = process.cpuUsage();
    const previewStart = performance.now();
    const view = await t.app.inject({ method: 'POST', url: '/api/reports/view', headers, payload: { invoice_ids: ids } });
    if (view.statusCode !== 200) throw new Error(`reports/view answered ${view.statusCode}: ${view.body}`);
    const pdf = await t.app.inject({ method: 'GET', url: view.json().preview_url });
    if (pdf.statusCode !== 200) throw new Error(`preview answered ${pdf.statusCode}: ${pdf.body}`);
    const previewMs = performance.now() - previewStart;
    const previewCpuMs = cpuMs(previewCpu);
    const saveCpu = process.cpuUsage();
    const saveStart = performance.now();
    const saved = await t.app.inject({ method: 'POST', url: '/api/reports', headers, payload: { invoice_ids: ids, remarks: 'Benchmark' } });
    if (saved.statusCode !== 201) throw new Error(`POST reports answered ${saved.statusCode}: ${saved.body}`);
    return { pdf, previewMs, previewCpuMs, saveMs: performance.now() - saveStart, saveCpuMs: cpuMs(saveCpu) };
  };
  const first = await once(batches[0]);
  const runs = [await once(batches[1]), await once(batches[2]), await once(batches[3])];
  const preview = first.pdf;
  const previewMs = median(runs.map((r) => r.previewMs));
  const saveMs = median(runs.map((r) => r.saveMs));

  const pages = (preview.rawPayload.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const result = {
    date: new Date().toISOString(),
    machine: `${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${t.kind}`,
    invoices: invoiceCount,
    pads: invoiceCount * padsPerInvoice,
    pages,
    preview_pdf_bytes: preview.rawPayload.length,
    seed_ms_four_batches: Math.round(seedMs),
    load_average_1m: Number(os.loadavg()[0].toFixed(2)),
    first_preview_ms: Math.round(first.previewMs),
    first_save_ms: Math.round(first.saveMs),
    preview_ms_median_of_3: Math.round(previewMs),
    preview_cpu_ms: median(runs.map((r) => r.previewCpuMs)),
    save_ms_median_of_3: Math.round(saveMs),
    save_cpu_ms: median(runs.map((r) => r.saveCpuMs)),
    limit_ms: LIMIT_MS,
  };
  saveResult(`reports-${t.kind}`, result);
  if (previewMs > LIMIT_MS || saveMs > LIMIT_MS) {
    console.error(`Too slow: preview ${Math.round(previewMs)} ms, save ${Math.round(saveMs)} ms (limit ${LIMIT_MS} ms)`);
    process.exitCode = 1;
  }
} finally {
  await t.close();
}
