/**
 * docs/BENCHMARKS.md "Ledger and RAAF" (docs/design.md §8): `ledger:verify` over 1,000,000 numbers in 20,000 pads with at least 100,000
 * events (budget 10 s), one holder's RAAF over 2,000 pads (1 s) and the consolidated RAAF over 20,000
 * pads (5 s), JSON and PDF. The month before the report month receives the numbers and issues 2,000 pads
 * to each of nine holders; the report month has uses (3 runs per issued pad), unmarks, write-offs,
 * a return, an accepted turnover and one still in transit. Everything goes through the real API except
 * the bulk of the uses, which go through the ledger writer in the same transaction as the pads they mark.
 * Runs on a fresh in-memory PGlite, or on the PostgreSQL server named by TEST_DATABASE_URL:
 *   npx tsx bench/ledger.ts [numbers=1000000] [repeats=3]
 */
import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { INVOICE_TYPE, PAD_STATUS, ROLE } from '../src/shared/lookups.ts';
import { invoices } from '../src/server/db/schema/invoices.ts';
import { padEvents } from '../src/server/db/schema/ledger.ts';
import { padCustody, pads } from '../src/server/db/schema/pads.ts';
import { custodyOfPad, padRecordColumns } from '../src/server/features/pads/read-model.ts';
import { runLedgerVerify } from '../src/server/features/ledger/verifier.ts';
import { appendPadEvents, type PadEventInput } from '../src/server/features/ledger/lifecycle.ts';
import { createBranch, createRoute, signedIn, type PadRow } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { measure } from './cpu.ts';
import { loadAverage, machine, median, PRODUCTION_ENV, saveResult, testAppBackends } from './support.ts';

const numbers = Number(process.argv[2] ?? 1_000_000);
const repeats = Number(process.argv[3] ?? 3);
const PAD_SIZE = 50;
const ROUTES = 4;
const HOLDERS = 9;
const SERIES_FROM = 100_000_001;
const MONTH = '2026-10';
const MIN_EVENTS = 100_000;
const BUDGET_MS = { verify: 10_000, holder_raaf: 1_000, summary: 5_000 };

type Headers = { authorization: string };
interface Who {
  id: number;
  branchId: number;
  headers: Headers;
}

/** Twenty invoices' worth of pads: nine holders get two each, two stay at the head office. */
const padsPerInvoice = Math.min(1000, Math.floor(numbers / PAD_SIZE / 20));
const part = (n: number) => Math.max(1, Math.min(n, Math.floor(padsPerInvoice / 2)));

const t = await createTestApp(PRODUCTION_ENV);

const phases: Record<string, number> = {};
let phaseStart = performance.now();
/** Seeding time per phase, so a slow seed shows where it went. */
function phase(label: string) {
  phases[label] = Math.round(performance.now() - phaseStart);
  console.error(`${label}: ${phases[label]} ms`);
  phaseStart = performance.now();
}

const at = (iso: string) => {
  t.ctx.ledgerClock = () => new Date(iso);
};

async function call(who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, status = 200) {
  const res = await t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  if (res.statusCode !== status) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return res;
}

async function latestInvoiceId(typeId: number): Promise<number> {
  const [row] = await t.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.invoice_type_id, typeId))
    .orderBy(desc(invoices.id))
    .limit(1);
  return row.id;
}

async function signIn(roleId: number, branchId: number, firstName: string, lastName: string): Promise<Who> {
  const { user, headers } = await signedIn(t, { role_id: roleId, branch_id: branchId, first_name: firstName, last_name: lastName });
  return { id: user.id, branchId, headers };
}

const padRecords = () => t.db.select(padRecordColumns).from(pads).innerJoin(padCustody, custodyOfPad);
const heldBy = (who: Who) => padRecords().where(eq(padCustody.holder_user_id, who.id)).orderBy(asc(pads.id));

/** The used runs a pad gets in the report month: three, of varying length, so every pad folds to several ranges. */
const usedRuns = (pad: PadRow): Array<[number, number]> => [
  [0, 4 + (pad.id % 10)],
  [20, 24],
  [40, 41],
];

/** Marks through update-pad, as the Pad Details screen does. */
async function markThroughApi(who: Who, pad: PadRow, used: (offset: number) => boolean, extra: Record<string, unknown> = {}) {
  const current = (await call(who, 'GET', `/api/get-pad/${pad.id}`)).json().data as {
    number: number;
    pad_status_id: number;
    issuance_status_id: number;
    remarks: string | null;
    series: Array<{ number: number }>;
  };
  const series = current.series.map((entry) => ({ number: entry.number, status: used(entry.number - pad.series_from) ? 2 : 1 }));
  await call(who, 'PUT', `/api/update-pad/${pad.id}`, {
    number: current.number,
    pad_status_id: current.pad_status_id,
    issuance_status_id: current.issuance_status_id,
    remarks: current.remarks,
    series,
    ...extra,
  });
}

/** The bulk of the uses: per batch one transaction writes the events through the ledger writer and the pads' new series. */
async function markInBulk(rows: PadRow[]) {
  for (let start = 0; start < rows.length; start += 1000) {
    const batch = rows.slice(start, start + 1000);
    await t.db.transaction(async (tx) => {
      const events: PadEventInput[] = [];
      const updates: Array<{ id: number; series_status: string }> = [];
      for (const pad of batch) {
        const status = pad.series_status.split('');
        for (const [first, last] of usedRuns(pad)) {
          for (let i = first; i <= last; i += 1) status[i] = '2';
          events.push({
            padId: pad.id,
            routeId: pad.route_id,
            kind: 'used',
            from: pad.series_from + first,
            to: pad.series_from + last,
            holderUserId: pad.holder_user_id,
            holderBranchId: pad.holder_branch_id,
            actorId: pad.holder_user_id,
          });
        }
        updates.push({ id: pad.id, series_status: status.join('') });
      }
      await appendPadEvents(tx, t.ctx, events);
      await tx.execute(sql`update pads set series_status = x.series_status, pad_status_id = ${PAD_STATUS.PARTIALLY_USED},
        updated_at = date_trunc('milliseconds', greatest(clock_timestamp(), pads.updated_at + interval '1 millisecond'))
        from json_to_recordset(${JSON.stringify(updates)}::json) as x(id int, series_status text) where pads.id = x.id`);
    });
  }
}

/** Wall time of each repetition, and CPU time of this process and (on PostgreSQL) of the server backends (bench/cpu.ts). */
async function timed(label: string, pids: number[], work: () => Promise<{ bytes: number }>) {
  const samples: number[] = [];
  let nodeCpuMs = 0;
  let pgCpuMs = 0;
  let bytes = 0;
  for (let i = 0; i < repeats; i += 1) {
    const { result, cost } = await measure(work, pids);
    bytes = result.bytes;
    samples.push(cost.wall_ms);
    nodeCpuMs += cost.node_cpu_ms;
    pgCpuMs += cost.pg_cpu_ms;
  }
  return {
    label,
    median_ms: Math.round(median(samples)),
    max_ms: Math.round(Math.max(...samples)),
    cpu_ms: Math.round((nodeCpuMs + pgCpuMs) / repeats),
    node_cpu_ms: Math.round(nodeCpuMs / repeats),
    pg_cpu_ms: Math.round(pgCpuMs / repeats),
    bytes,
  };
}

try {
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const agencies = await Promise.all(
    ['Calapan', 'Batangas', 'Roxas', 'Caticlan'].map((name) => createBranch(t.db, { name: `${name} Terminal` })),
  );
  const routeIds = [];
  for (let r = 0; r < ROUTES; r += 1) routeIds.push((await createRoute(t.db, { name: `Bench route ${r}`, tin: `000-123-45${r}-000` })).id);
  const custodian = await signIn(ROLE.CUSTODIAN, headOffice.id, 'Celia', 'Custodian');
  const accountant = await signIn(ROLE.ACCOUNTING, headOffice.id, 'Ana', 'Accountant');
  const courier = await signIn(ROLE.DRIVER, headOffice.id, 'Dario', 'Courier');
  const holders: Who[] = [];
  for (let h = 0; h < HOLDERS; h += 1)
    holders.push(await signIn(ROLE.TICKETING_OFFICER, agencies[h % agencies.length].id, 'Holder', `No${h}`));
  const turnoverReceiver = await signIn(ROLE.BRANCH_HEAD, agencies[1].id, 'Bea', 'Branch Head');
  phase('users and routes');
  const seedStart = performance.now();

  at('2026-09-02T01:00:00Z');
  const perRoute = numbers / ROUTES;
  let generateMs = 0;
  for (let r = 0; r < ROUTES; r += 1) {
    const from = SERIES_FROM + r * perRoute;
    const start = performance.now();
    await call(custodian, 'POST', '/api/add-pad', { route_id: routeIds[r], series_from: from, series_to: from + perRoute - 1 }, 201);
    generateMs += performance.now() - start;
  }
  phase('add-pad');

  at('2026-09-10T01:00:00Z');
  for (let h = 0; h < HOLDERS; h += 1) {
    for (const routeId of [routeIds[h % ROUTES], routeIds[(h + 1) % ROUTES]]) {
      const request = (
        await call(holders[h], 'POST', '/api/create-request-invoice', { route_id: routeId, pads: padsPerInvoice }, 201)
      ).json();
      const free = await t.db
        .select({ id: pads.id })
        .from(pads)
        .innerJoin(padCustody, custodyOfPad)
        .where(
          and(
            eq(pads.route_id, routeId),
            isNull(padCustody.holder_user_id),
            isNull(padCustody.locked_by_invoice_id),
            eq(pads.pad_status_id, PAD_STATUS.UNUSED),
          ),
        )
        .orderBy(asc(pads.number))
        .limit(padsPerInvoice);
      await call(
        custodian,
        'POST',
        '/api/issue-invoice',
        { invoice_id: request.data.id, pads: free.map((p) => p.id), assigned_user_id: courier.id, expected_return: 30 },
        201,
      );
      await call(holders[h], 'POST', `/api/accept-invoice/${await latestInvoiceId(INVOICE_TYPE.ISSUED)}`);
    }
  }

  phase('issue and accept');
  at('2026-10-03T01:00:00Z');
  const apiMarked = (await heldBy(holders[0])).slice(0, part(100));
  for (const pad of apiMarked) {
    const runs = usedRuns(pad);
    await markThroughApi(holders[0], pad, (offset) => runs.some(([a, b]) => offset >= a && offset <= b));
  }
  phase('marks through the API');
  const apiIds = new Set(apiMarked.map((pad) => pad.id));
  const rest = (
    await padRecords()
      .where(
        inArray(
          padCustody.holder_user_id,
          holders.map((h) => h.id),
        ),
      )
      .orderBy(asc(pads.id))
  ).filter((pad) => !apiIds.has(pad.id));
  await markInBulk(rest);
  phase('marks through the writer');

  at('2026-10-10T01:00:00Z');
  for (const pad of apiMarked.slice(0, 20)) {
    const runs = usedRuns(pad).slice(0, 2);
    await markThroughApi(holders[0], pad, (offset) => runs.some(([a, b]) => offset >= a && offset <= b));
  }

  at('2026-10-12T01:00:00Z');
  const atHeadOffice = await padRecords().where(isNull(padCustody.holder_user_id)).orderBy(asc(pads.id)).limit(20);
  for (const [i, pad] of atHeadOffice.entries()) {
    const lost = i % 2 === 0;
    await markThroughApi(custodian, pad, () => false, {
      pad_status_id: lost ? PAD_STATUS.LOST : PAD_STATUS.CANCELLED,
      remarks: lost ? 'Lost at sea' : 'Water damage',
    });
  }

  at('2026-10-15T01:00:00Z');
  const returned = (await heldBy(holders[2])).slice(0, part(500));
  await call(holders[2], 'POST', '/api/create-return-invoice', { pads: returned.map((p) => p.id), assigned_user_id: courier.id }, 201);
  await call(accountant, 'POST', `/api/accept-invoice/${await latestInvoiceId(INVOICE_TYPE.RETURN)}`);
  const turned = (await heldBy(holders[3])).slice(0, part(500));
  await call(
    holders[3],
    'POST',
    '/api/create-turnover-invoice',
    { pads: turned.map((p) => p.id), branch_id: agencies[1].id, assigned_user_id: courier.id },
    201,
  );
  await call(turnoverReceiver, 'POST', `/api/accept-invoice/${await latestInvoiceId(INVOICE_TYPE.TURNOVER)}`);
  const onTheRoad = (await heldBy(holders[4])).slice(0, part(100));
  await call(
    holders[4],
    'POST',
    '/api/create-turnover-invoice',
    { pads: onTheRoad.map((p) => p.id), branch_id: agencies[1].id, assigned_user_id: courier.id },
    201,
  );
  t.ctx.ledgerClock = undefined;
  phase('unmarks, write-offs, return and turnovers');
  const seedMs = performance.now() - seedStart;

  const [{ events }] = await t.db.select({ events: count() }).from(padEvents);
  const [{ padCount }] = await t.db.select({ padCount: count() }).from(pads);
  const benchHolderPads = (await heldBy(holders[0])).length;
  if (numbers >= 1_000_000 && events < MIN_EVENTS) throw new Error(`Only ${events} events were seeded; the benchmark needs ${MIN_EVENTS}`);

  const pids = await testAppBackends(t);
  const lines: string[] = [];
  const verify = await timed('ledger:verify', pids, async () => {
    lines.length = 0;
    const exit = await runLedgerVerify(t.db, (line) => lines.push(line));
    if (exit !== 0) throw new Error(`ledger:verify found problems:\n${lines.slice(0, 20).join('\n')}`);
    return { bytes: 0 };
  });
  const get = (who: Who, url: string) => async () => ({ bytes: (await call(who, 'GET', url)).rawPayload.length });
  const holderUrl = `/api/raaf?month=${MONTH}&user_id=${holders[0].id}`;
  const holderRaaf = (await call(accountant, 'GET', holderUrl)).json().data as {
    rows: Array<{ beginning: { ranges: unknown[] }; ending: { ranges: unknown[] } }>;
    totals: Record<string, number>;
  };
  const summary = (await call(accountant, 'GET', `/api/raaf-summary?month=${MONTH}`)).json().data as {
    rows: unknown[];
    holders: unknown[];
    totals: Record<string, number>;
  };
  const requests = [
    verify,
    await timed('holder RAAF, JSON', pids, get(holders[0], holderUrl)),
    await timed('holder RAAF, PDF', pids, get(holders[0], `${holderUrl}&format=pdf`)),
    await timed('consolidated RAAF, JSON', pids, get(accountant, `/api/raaf-summary?month=${MONTH}`)),
    await timed('consolidated RAAF, PDF', pids, get(accountant, `/api/raaf-summary?month=${MONTH}&format=pdf`)),
  ];

  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    database: t.kind,
    load_average_1m: loadAverage(),
    numbers,
    pads: padCount,
    events,
    seed_ms: Math.round(seedMs),
    seed_phases_ms: phases,
    generate_ms: Math.round(generateMs),
    verifier: lines[lines.length - 1],
    month: MONTH,
    holder: {
      pads: benchHolderPads,
      totals: holderRaaf.totals,
      ending_ranges: holderRaaf.rows.reduce((sum, row) => sum + row.ending.ranges.length, 0),
    },
    consolidated: { routes: summary.rows.length, holders: summary.holders.length, totals: summary.totals },
    repeats,
    requests,
    budget_ms: BUDGET_MS,
  };
  saveResult(`ledger-${t.kind}`, result);
  const budgets: Record<string, number> = {
    'ledger:verify': BUDGET_MS.verify,
    'holder RAAF, JSON': BUDGET_MS.holder_raaf,
    'holder RAAF, PDF': BUDGET_MS.holder_raaf,
    'consolidated RAAF, JSON': BUDGET_MS.summary,
    'consolidated RAAF, PDF': BUDGET_MS.summary,
  };
  const over = requests.filter((r) => r.median_ms > budgets[r.label]);
  if (over.length > 0) {
    console.error(`Over budget: ${over.map((r) => `${r.label} ${r.median_ms} ms (budget ${budgets[r.label]} ms)`).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  await t.close();
}
