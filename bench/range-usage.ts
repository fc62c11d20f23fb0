/**
 * Issue 39 point 9: what usage by range's "one booklet at a time" check (pads repo `otherPartlyUsedPad`) costs as the
 * holder's stock grows. Three holders keep 10, 1,000 and 50,000 pads over three routes (a third of them partly
 * used); the check runs for one of each holder's partly used pads, once where another open booklet of the
 * route exists and once where none does. Measured with the partial index of migration 0028 (a route's partly used pads,
 * joined to pad_custody) and, as the anchor, with it dropped (the holder's custody index alone); CPU and wall per call,
 * idle and with one core busy.
 * PostgreSQL only:
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/range-usage.ts [calls=300]
 */
import { sql } from 'drizzle-orm';
import { PAD_STATUS } from '../src/shared/lookups.ts';
import type { Conn } from '../src/server/db/client.ts';
import { rowsOf } from '../src/server/db/rows.ts';
import { otherPartlyUsedPad } from '../src/server/features/pads/repo.ts';
import { createBranch, createRoute, createUser } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { idleAndBusy, measure, type Cost } from './cpu.ts';
import { loadAverage, machine, PRODUCTION_ENV, saveResult, testAppBackends } from './support.ts';

if (!process.env.TEST_DATABASE_URL) throw new Error('bench/range-usage.ts reads PostgreSQL backends: set TEST_DATABASE_URL');

const HOLDINGS = [10, 1_000, 50_000];
const CALLS = Number(process.argv[2] ?? 300);
const SIZE = 50;
const CASES = ['another_open', 'none_open'] as const;

type CheckedPad = { id: number; route_id: number; holder_user_id: number | null; holder_branch_id: number | null };

const perCall = (cost: Cost, calls: number) => ({
  wall_us: Math.round((cost.wall_ms * 1000) / calls),
  node_cpu_us: Math.round((cost.node_cpu_ms * 1000) / calls),
  pg_cpu_us: Math.round((cost.pg_cpu_ms * 1000) / calls),
});

const t = await createTestApp(PRODUCTION_ENV);
try {
  const branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  const routeIds: number[] = [];
  for (let i = 0; i < 3; i += 1) routeIds.push((await createRoute(t.db, { name: `Route ${i + 1}` })).id);
  const routeArray = `{${routeIds.join(',')}}`;

  const holders: Array<{ held: number; found: CheckedPad; alone: CheckedPad; otherNumber: number }> = [];
  let offset = 0;
  for (const held of HOLDINGS) {
    const userId = (await createUser(t.db, { branch_id: branchId })).id;
    /*
     * Pad g sits on route g % 3. Those of the third route are partly used; of the first two routes, unused or used up
     * but for three: g = 3 and the last of the first route (the booklet checked, another open before it), and the last
     * of the second route (the booklet checked, alone).
     */
    const lastOf = (route: number) => held - ((held - route + 3) % 3);
    const open = `{3,${lastOf(0)},${lastOf(1)}}`;
    /* In batches of 10,000, so no statement of a loaded machine reaches the app's statement timeout. */
    for (let first = 1; first <= held; first += 10_000) {
      const last = Math.min(held, first + 9_999);
      await t.db.execute(sql`
      with made as (
      insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id)
      select (${routeArray}::int[])[1 + g % 3], ${offset}::int + g, 100000000 + (${offset}::bigint + g) * ${SIZE},
             100000000 + (${offset}::bigint + g) * ${SIZE} + ${SIZE - 1},
             case when g = any(${open}::int[]) or g % 3 = 2 then '2' || repeat('1', ${SIZE - 1}::int)
                  when g % 2 = 0 then repeat('1', ${SIZE}::int) else repeat('2', ${SIZE}::int) end,
             (case when g = any(${open}::int[]) or g % 3 = 2 then ${PAD_STATUS.PARTIALLY_USED}::int when g % 2 = 0 then ${PAD_STATUS.UNUSED}::int
                   else ${PAD_STATUS.USED}::int end)::smallint
      from generate_series(${first}::int, ${last}::int) g
      returning id)
      insert into pad_custody (pad_id, issuance_status_id, holder_user_id, holder_branch_id)
      select id, 2, ${userId}::int, ${branchId}::int from made`);
    }
    const checked = (g: number) =>
      rowsOf<CheckedPad>(
        t.db,
        sql`select p.id, p.route_id, c.holder_user_id, c.holder_branch_id from pads p join pad_custody c on c.pad_id = p.id
            where p.route_id = ${routeIds[g % 3]}::int and p.number = ${offset + g}::int`,
      );
    const [found] = await checked(lastOf(0));
    const [alone] = await checked(lastOf(1));
    const otherNumber = await otherPartlyUsedPad(t.db, found);
    if (otherNumber === null || (await otherPartlyUsedPad(t.db, alone)) !== null)
      throw new Error(`the data of ${held} pads is not as planned`);
    holders.push({ held, found, alone, otherNumber });
    offset += held;
  }
  await t.db.execute(sql`vacuum analyze pads`);
  await t.db.execute(sql`vacuum analyze pad_custody`);
  const pids = () => testAppBackends(t);

  /** The check's plan, as EXPLAIN ANALYZE words it, for the booklet that has no other open. */
  const planOf = async (db: Conn, pad: CheckedPad) => {
    const holder = pad.holder_user_id;
    const lines = await rowsOf<{ 'QUERY PLAN': string }>(
      db,
      sql`explain (analyze, costs off, timing off, summary off)
          select p.number from pads p join pad_custody c on c.pad_id = p.id
          where c.holder_user_id = ${holder}::int and p.route_id = ${pad.route_id}::int
            and p.pad_status_id = ${sql.raw(String(PAD_STATUS.PARTIALLY_USED))} and p.id <> ${pad.id}::int order by p.number limit 1`,
    );
    return lines.map((line) => line['QUERY PLAN'].trim());
  };

  const run = async (db: Conn, calls: number) => {
    const rows = [];
    for (const h of holders) {
      const batches = {} as Record<(typeof CASES)[number], Cost>;
      for (const name of CASES) {
        const pad = name === 'another_open' ? h.found : h.alone;
        await otherPartlyUsedPad(db, pad);
        batches[name] = (
          await measure(async () => {
            for (let i = 0; i < calls; i += 1) await otherPartlyUsedPad(db, pad);
          }, pids)
        ).cost;
      }
      rows.push({
        held_pads: h.held,
        another_open: perCall(batches.another_open, calls),
        none_open: perCall(batches.none_open, calls),
        batches,
        plan_none_open: await planOf(db, h.alone),
      });
    }
    return { calls, load_average: loadAverage(), holders: rows };
  };

  /* An unmeasured pass first: the JIT, the pool's connections and the plans are then as warm for the first holding as for the last. */
  await run(t.db, CALLS);
  const indexed = await idleAndBusy(() => run(t.db, CALLS));
  await t.db.execute(sql`drop index pads_open_booklet_idx`);
  const anchor = await idleAndBusy(() => run(t.db, CALLS));

  /** bench/table.ts points: each holding and case, the batch of CALLS checks beside the same batch without pads_open_booklet_idx (0028). */
  const batchOf = (side: typeof indexed.idle, held: number, name: (typeof CASES)[number]) =>
    side.holders.find((h) => h.held_pads === held)?.batches[name] ?? { wall_ms: 0, node_cpu_ms: 0, pg_cpu_ms: 0 };
  const cpu = (cost: Cost) => cost.node_cpu_ms + cost.pg_cpu_ms;
  /* CPU is read in 10 ms ticks: "flat" allows two ticks besides twice the cost at 10 held pads. */
  const flat = (side: typeof indexed.idle, held: number, name: (typeof CASES)[number]) =>
    cpu(batchOf(side, held, name)) <= 2 * cpu(batchOf(side, 10, name)) + 20;
  const points = HOLDINGS.flatMap((held) =>
    CASES.map((name) => ({
      measure: `${CALLS} one-booklet checks, ${held.toLocaleString('en-US')} held pads, ${name.replace('_', ' ')}`,
      idle: batchOf(indexed.idle, held, name),
      busy: batchOf(indexed.busy, held, name),
      anchor: { label: 'without pads_open_booklet_idx', idle: batchOf(anchor.idle, held, name), busy: batchOf(anchor.busy, held, name) },
      goal: 'CPU flat: ≤ 2× the cost at 10 held pads',
      met: flat(indexed.idle, held, name),
      met_busy: flat(indexed.busy, held, name),
    })),
  );

  saveResult('range-usage', {
    date: new Date().toISOString(),
    machine: machine(),
    database: t.kind,
    per_call: 'µs per otherPartlyUsedPad call, pg_cpu_us being the PostgreSQL backends',
    goal: 'flat from 10 to 50,000 held pads',
    with_open_booklet_index: indexed,
    anchor_holder_index_only: anchor,
    points,
  });
} finally {
  await t.close();
}
