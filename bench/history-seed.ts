/**
 * The five-year operator of bench/history.ts, written straight into the database in the shapes the
 * API writes them (add-pad's `received`, an accepted Issued invoice's request, invoice, pads and its
 * `transfer_out`/`transfer_in` pair, update-pad's `used` runs and a Lost write-off), month by month in time
 * order, every event hashed onto its pad's chain as the ledger writer does. The structure (branches, routes,
 * people) comes from the test factories; the benchmark then adds a day of real API work on top.
 */
import { sql } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS } from '../src/shared/lookups.ts';
import type { Db } from '../src/server/db/client.ts';
import { eventHash, GENESIS_HASH, type HashedEvent } from '../src/server/features/ledger/fold.ts';
import { insertEvents, type NewPadEventRow } from '../src/server/features/ledger/repo.ts';
import { createBranch, createRoute, createUser } from '../src/server/test/factories.ts';

export const PAD_SIZE = 50;
const PADS_PER_INVOICE = 4;
const USE_RUNS = 10;
const ROUTES = 4;
const BRANCHES = 9;
const DAY = 86_400_000;

export interface HistoryWorld {
  headOfficeId: number;
  branchIds: number[];
  routeIds: number[];
  stockId: number;
  courierId: number;
  holders: Array<{ id: number; branchId: number }>;
}

/** A small deterministic generator, so the same arguments seed the same operator. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Planned extends Omit<HashedEvent, 'seq'> {
  order: number;
}

interface PadPlan {
  id: number;
  routeId: number;
  number: number;
  from: number;
  holder: { id: number; branchId: number } | null;
  used: Uint8Array;
  lost: boolean;
  issued: boolean;
  locked: number | null;
}

const json = (rows: unknown[]) => JSON.stringify(rows);

async function insertJson(db: Db, table: string, columns: string, types: string, rows: unknown[]) {
  for (let start = 0; start < rows.length; start += 5000) {
    await db.execute(
      sql.raw(
        `insert into ${table} (${columns}) select ${columns} from json_to_recordset('${json(rows.slice(start, start + 5000)).replaceAll("'", "''")}'::json) as x(${types})`,
      ),
    );
  }
}

export async function seedWorld(db: Db, holderCount: number, headOfficeName = 'Head Office'): Promise<HistoryWorld> {
  const headOffice = await createBranch(db, { name: headOfficeName });
  const branchIds: number[] = [];
  for (let b = 0; b < BRANCHES; b += 1) branchIds.push((await createBranch(db, { name: `Terminal ${b + 1}` })).id);
  const routeIds: number[] = [];
  for (let r = 0; r < ROUTES; r += 1) routeIds.push((await createRoute(db, { name: `Route ${r + 1}` })).id);
  const stock = await createUser(db, {
    role_id: 3,
    branch_id: headOffice.id,
    first_name: 'Stock',
    last_name: 'Keeper',
    email: 'stock@history.test',
  });
  const courier = await createUser(db, {
    role_id: 10,
    branch_id: headOffice.id,
    first_name: 'Road',
    last_name: 'Courier',
    email: 'courier@history.test',
  });
  const holders: HistoryWorld['holders'] = [];
  for (let h = 0; h < holderCount; h += 1) {
    const branchId = branchIds[h % BRANCHES];
    const user = await createUser(db, {
      role_id: 7,
      branch_id: branchId,
      first_name: `Holder${h + 1}`,
      last_name: 'Teller',
      email: `holder${h + 1}@history.test`,
    });
    holders.push({ id: user.id, branchId });
  }
  return { headOfficeId: headOffice.id, branchIds, routeIds, stockId: stock.id, courierId: courier.id, holders };
}

/**
 * `months` months ending with the month before `until`'s, plus `until`'s month up to `until`, each receiving
 * `padsPerMonth` pads; every four pads of a route are requested by one holder (the first holders far more
 * often: the busiest person), issued within days and used in ten runs over about three months; one group
 * in a hundred ends with its last pad lost.
 */
export async function seedHistory(
  db: Db,
  world: HistoryWorld,
  input: { months: number; padsPerMonth: number; until: Date; timeZone: string; log: (line: string) => void },
) {
  const rand = random(5);
  const dateFormat = new Intl.DateTimeFormat('en-CA', { timeZone: input.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const businessDate = (at: Date) => dateFormat.format(at);
  const untilMs = input.until.getTime();
  const [untilYear, untilMonth] = businessDate(input.until).split('-').map(Number);
  const monthStartMs = (index: number) => Date.UTC(untilYear, untilMonth - 1 - input.months + index, 1) - 8 * 3_600_000;
  const buckets = new Map<number, Planned[]>();
  const plan = (at: number, event: Omit<Planned, 'recorded_at' | 'business_date'>) => {
    if (at >= untilMs) return;
    const month = Math.floor(
      (new Date(at + 8 * 3_600_000).getUTCFullYear() - untilYear) * 12 +
        new Date(at + 8 * 3_600_000).getUTCMonth() -
        (untilMonth - 1) +
        input.months,
    );
    const recorded = new Date(at);
    const list = buckets.get(month) ?? [];
    list.push({ ...event, recorded_at: recorded, business_date: businessDate(recorded) });
    buckets.set(month, list);
  };
  const pads: PadPlan[] = [];
  const nextNumber = world.routeIds.map(() => 1);
  const heads = new Map<number, { seq: number; hash: string }>();
  let invoiceId: number;
  let order = 0;
  const invoices: unknown[] = [];
  const invoicePads: unknown[] = [];
  const padRows = async (list: PadPlan[]) => {
    const rows = list.map((p) => {
      const usedCount = p.used.reduce((sum, u) => sum + u, 0);
      return {
        id: p.id,
        pad_id: p.id,
        route_id: p.routeId,
        number: p.number,
        series_from: p.from,
        series_to: p.from + PAD_SIZE - 1,
        series_status: [...p.used].map((u) => (u ? '2' : '1')).join(''),
        pad_status_id: p.lost
          ? PAD_STATUS.LOST
          : usedCount === PAD_SIZE
            ? PAD_STATUS.USED
            : usedCount > 0
              ? PAD_STATUS.PARTIALLY_USED
              : PAD_STATUS.UNUSED,
        issuance_status_id: p.issued ? ISSUANCE_STATUS.ISSUED : ISSUANCE_STATUS.NOT_ISSUED,
        remarks: p.lost ? 'Lost at sea' : null,
        holder_user_id: p.issued && p.holder ? p.holder.id : null,
        holder_branch_id: p.issued && p.holder ? p.holder.branchId : world.headOfficeId,
        locked_by_invoice_id: p.locked,
        created_by: world.stockId,
      };
    });
    await insertJson(
      db,
      'pads',
      'id, route_id, number, series_from, series_to, series_status, pad_status_id, remarks, created_by',
      'id int, route_id int, number int, series_from bigint, series_to bigint, series_status text, pad_status_id smallint, remarks text, created_by int',
      rows,
    );
    await insertJson(
      db,
      'pad_custody',
      'pad_id, issuance_status_id, holder_user_id, holder_branch_id, locked_by_invoice_id',
      'pad_id int, issuance_status_id smallint, holder_user_id int, holder_branch_id int, locked_by_invoice_id int',
      rows,
    );
  };

  const [{ maxPad }] = (
    (await db.execute(sql`select coalesce(max(id), 0)::int as "maxPad" from pads`)) as unknown as { rows: Array<{ maxPad: number }> }
  ).rows;
  const [{ maxInvoice }] = (
    (await db.execute(sql`select coalesce(max(id), 0)::int as "maxInvoice" from invoices`)) as unknown as {
      rows: Array<{ maxInvoice: number }>;
    }
  ).rows;
  invoiceId = maxInvoice;
  let padId = maxPad;
  let eventsWritten = 0;
  for (let month = 0; month <= input.months; month += 1) {
    const started = Date.now();
    const start = monthStartMs(month);
    for (let g = 0; g < input.padsPerMonth / PADS_PER_INVOICE; g += 1) {
      const r = g % ROUTES;
      const receivedAt = start + Math.floor(rand() * 26 * DAY) + 3_600_000;
      const holder = world.holders[Math.floor(world.holders.length * rand() ** 2.5)];
      const issuedAt = receivedAt + 2 * DAY + Math.floor(rand() * 12 * DAY);
      if (receivedAt >= untilMs) continue;
      const requestId = ++invoiceId;
      const issuedId = ++invoiceId;
      const group: PadPlan[] = [];
      for (let k = 0; k < PADS_PER_INVOICE; k += 1) {
        const number = nextNumber[r]++;
        const pad: PadPlan = {
          id: ++padId,
          routeId: world.routeIds[r],
          number,
          from: (r + 1) * 100_000_000 + (number - 1) * PAD_SIZE + 1,
          holder: null,
          used: new Uint8Array(PAD_SIZE),
          lost: false,
          issued: false,
          locked: null,
        };
        group.push(pad);
        pads.push(pad);
      }
      const base = {
        route_id: world.routeIds[r],
        qty: PAD_SIZE,
        counterparty_user_id: null,
        counterparty_branch_id: null,
        invoice_id: null,
        reason: null,
      };
      for (const pad of group) {
        plan(receivedAt, {
          ...base,
          order: order++,
          pad_id: pad.id,
          kind: 'received',
          from_number: pad.from,
          to_number: pad.from + PAD_SIZE - 1,
          holder_user_id: null,
          holder_branch_id: world.headOfficeId,
          actor_user_id: world.stockId,
        });
      }
      if (issuedAt - DAY >= untilMs) continue;
      invoices.push({
        id: requestId,
        invoice_type_id: INVOICE_TYPE.REQUEST,
        invoice_status_id: issuedAt < untilMs ? INVOICE_STATUS.ISSUED : INVOICE_STATUS.PENDING,
        user_id: holder.id,
        created_by: holder.id,
        from_branch_id: null,
        branch_id: holder.branchId,
        route_id: world.routeIds[r],
        assigned_user_id: null,
        pad_count: PADS_PER_INVOICE,
        request_invoice_id: null,
        expected_return_date: null,
        accepted_by: null,
        accepted_at: null,
        created_at: new Date(issuedAt - DAY).toISOString(),
      });
      if (issuedAt >= untilMs) continue;
      const accepted = issuedAt + 3_600_000 < untilMs;
      invoices.push({
        id: issuedId,
        invoice_type_id: INVOICE_TYPE.ISSUED,
        invoice_status_id: accepted ? INVOICE_STATUS.COMPLETED : INVOICE_STATUS.IN_TRANSIT,
        user_id: holder.id,
        created_by: world.stockId,
        from_branch_id: world.headOfficeId,
        branch_id: holder.branchId,
        route_id: world.routeIds[r],
        assigned_user_id: world.courierId,
        pad_count: PADS_PER_INVOICE,
        request_invoice_id: requestId,
        expected_return_date: businessDate(new Date(issuedAt + 90 * DAY)),
        accepted_by: accepted ? holder.id : null,
        accepted_at: accepted ? new Date(issuedAt + 3_600_000).toISOString() : null,
        created_at: new Date(issuedAt).toISOString(),
      });
      const lostGroup = rand() < 0.01;
      for (const [k, pad] of group.entries()) {
        invoicePads.push({ invoice_id: issuedId, pad_id: pad.id });
        pad.holder = holder;
        if (!accepted) {
          pad.locked = issuedId;
          continue;
        }
        pad.issued = true;
        const transfer = {
          ...base,
          pad_id: pad.id,
          from_number: pad.from,
          to_number: pad.from + PAD_SIZE - 1,
          invoice_id: issuedId,
          actor_user_id: holder.id,
        };
        plan(issuedAt + 3_600_000, {
          ...transfer,
          order: order++,
          kind: 'transfer_out',
          holder_user_id: null,
          holder_branch_id: world.headOfficeId,
          counterparty_user_id: holder.id,
          counterparty_branch_id: holder.branchId,
        });
        plan(issuedAt + 3_600_000, {
          ...transfer,
          order: order++,
          kind: 'transfer_in',
          holder_user_id: holder.id,
          holder_branch_id: holder.branchId,
          counterparty_user_id: null,
          counterparty_branch_id: world.headOfficeId,
        });
        const runSize = PAD_SIZE / USE_RUNS;
        let at = issuedAt + 2 * DAY + k * 20 * DAY;
        for (let run = 0; run < USE_RUNS; run += 1) {
          at += DAY + Math.floor(rand() * 5 * DAY);
          const from = pad.from + run * runSize;
          if (lostGroup && k === PADS_PER_INVOICE - 1 && run === USE_RUNS / 2) {
            if (at < untilMs) pad.lost = true;
            plan(at, {
              ...base,
              order: order++,
              pad_id: pad.id,
              kind: 'lost',
              from_number: from,
              to_number: pad.from + PAD_SIZE - 1,
              qty: PAD_SIZE - run * runSize,
              holder_user_id: holder.id,
              holder_branch_id: holder.branchId,
              reason: 'Lost at sea',
              actor_user_id: holder.id,
            });
            break;
          }
          if (at < untilMs) pad.used.fill(1, run * runSize, (run + 1) * runSize);
          plan(at, {
            ...base,
            order: order++,
            pad_id: pad.id,
            kind: 'used',
            from_number: from,
            to_number: from + runSize - 1,
            qty: runSize,
            holder_user_id: holder.id,
            holder_branch_id: holder.branchId,
            actor_user_id: holder.id,
          });
        }
      }
    }
    const monthEvents = (buckets.get(month) ?? []).sort((a, b) => a.recorded_at.getTime() - b.recorded_at.getTime() || a.order - b.order);
    buckets.delete(month);
    const rows: NewPadEventRow[] = monthEvents.map(({ order: _order, ...event }) => {
      const head = heads.get(event.pad_id) ?? { seq: 0, hash: GENESIS_HASH };
      const hashed = { ...event, seq: head.seq + 1 };
      const hash = eventHash(hashed, head.hash);
      heads.set(event.pad_id, { seq: hashed.seq, hash });
      return { ...hashed, prev_hash: head.hash, hash };
    });
    const newInvoices = invoices.splice(0);
    await insertJson(
      db,
      'invoices',
      'id, invoice_type_id, invoice_status_id, user_id, created_by, from_branch_id, branch_id, route_id, assigned_user_id, pad_count, request_invoice_id, expected_return_date, accepted_by, accepted_at, created_at',
      'id int, invoice_type_id smallint, invoice_status_id smallint, user_id int, created_by int, from_branch_id int, branch_id int, route_id int, assigned_user_id int, pad_count int, request_invoice_id int, expected_return_date date, accepted_by int, accepted_at timestamptz, created_at timestamptz',
      newInvoices,
    );
    await insertEvents(db, rows);
    eventsWritten += rows.length;
    input.log(
      `month ${month + 1}/${input.months + 1}: ${rows.length} events, ${newInvoices.length} invoices, ${Date.now() - started} ms (events so far ${eventsWritten})`,
    );
  }
  await padRows(pads);
  await insertJson(db, 'invoice_pads', 'invoice_id, pad_id', 'invoice_id int, pad_id int', invoicePads);
  await db.execute(sql`select setval(pg_get_serial_sequence('pads', 'id'), (select max(id) from pads))`);
  await db.execute(sql`select setval(pg_get_serial_sequence('invoices', 'id'), (select max(id) from invoices))`);
  await db.execute(sql`analyze`);
  return { pads: pads.length, events: eventsWritten };
}
