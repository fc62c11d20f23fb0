import { and, asc, desc, eq, getTableColumns, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  ledgerChecks,
  ledgerVerifiedHeads,
  ledgerVerifyRuns,
  padEvents,
  raafCertificates,
  raafMonthBalances,
  raafMonthCloses,
} from '../../db/schema/ledger.ts';
import type { ReadSnapshot } from '../../db/copy.ts';
import { streamRows } from '../../db/stream.ts';
import { unnestRows } from '../../db/unnest.ts';
import type { RaafEvent } from './raaf-fold.ts';
import { firstSignUpAt } from '../users/read-model.ts';

export type PadEventRow = typeof padEvents.$inferSelect;
/** A row to insert; docs/design.md §9's columns may be left out (they are null then). */
export type NewPadEventRow = Omit<PadEventRow, 'id' | 'approver_user_id' | 'incident_id' | 'copies_retained' | 'device_at' | 'import_id'> &
  Partial<Pick<PadEventRow, 'approver_user_id' | 'incident_id' | 'copies_retained' | 'device_at' | 'import_id'>>;

export async function lastEventHeads(conn: Conn, padIds: number[]): Promise<Map<number, { seq: number; hash: string }>> {
  const heads = new Map<number, { seq: number; hash: string }>();
  if (padIds.length === 0) return heads;
  const rows = await rowsOf<{ pad_id: number; seq: number; hash: string }>(
    conn,
    sql`select distinct on (pad_id) pad_id, seq, hash from pad_events
      where pad_id = any(${`{${padIds.join(',')}}`}::int[]) order by pad_id, seq desc`,
  );
  for (const row of rows) heads.set(Number(row.pad_id), { seq: Number(row.seq), hash: row.hash });
  return heads;
}

const INSERT_CHUNK = 5000;

/** The columns an event is inserted with: all but the serial id. */
const EVENT_COLUMNS = Object.keys(getTableColumns(padEvents)).filter((key) => key !== 'id') as Array<keyof NewPadEventRow>;

/** Many events in few statements: each column of a chunk is one array parameter (issue 39: cheaper to read than JSON). */
export async function insertEvents(conn: Conn, rows: NewPadEventRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await conn.execute(sql`insert into pad_events ${unnestRows(padEvents, EVENT_COLUMNS, rows.slice(start, start + INSERT_CHUNK))}`);
  }
}

/**
 * One `received` event for each pad a generation just created (its route's pads from the first new
 * number on), in one INSERT … SELECT: each is its pad's first event, chained onto `prevHash`, and its
 * hash is fold.ts's eventHash written in SQL (the same text 0003_pad_events.sql hashes).
 */
export async function insertReceivedEvents(
  conn: Conn,
  input: { routeId: number; firstNumber: number; actorId: number; recordedAt: Date; businessDate: string; prevHash: string },
): Promise<void> {
  const actor = sql`${input.actorId}::int`;
  await conn.execute(sql`
    insert into pad_events (pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id,
      actor_user_id, recorded_at, business_date, prev_hash, hash)
    select p.id, 1, p.route_id, 'received', p.series_from, p.series_to, (p.series_to - p.series_from + 1)::int, c.holder_user_id, c.holder_branch_id,
      ${actor}, ${input.recordedAt.toISOString()}::timestamptz, ${input.businessDate}::date, ${input.prevHash}::text,
      encode(sha256(convert_to(concat_ws('|', p.id, 1, 'received', p.route_id, p.series_from, p.series_to, p.series_to - p.series_from + 1,
        coalesce(c.holder_user_id::text, ''), coalesce(c.holder_branch_id::text, ''), '', '', '', ${actor}, '',
        ${input.recordedAt.getTime()}::bigint, ${input.businessDate}::text, ${input.prevHash}::text), 'UTF8')), 'hex')
    from pads p join pad_custody c on c.pad_id = p.id
    where p.route_id = ${input.routeId}::int and p.number >= ${input.firstNumber}::int
    order by p.id`);
}

/** The last event hash of each pad a certificate covers, frozen with it. */
export async function lastHashesOnRoutes(conn: Conn, endDate: string, holder: { userId: number } | { branchId: number }) {
  const holderSql =
    'userId' in holder ? sql`holder_user_id = ${holder.userId}` : sql`holder_user_id is null and holder_branch_id = ${holder.branchId}`;
  return rowsOf<{ pad_id: number; seq: number; hash: string }>(
    conn,
    sql`select distinct on (e.pad_id) e.pad_id, e.seq, e.hash from pad_events e
      where e.pad_id in (select pad_id from pad_events where ${holderSql} and business_date < ${endDate})
      order by e.pad_id, e.seq desc`,
  );
}

export type CertificateRow = typeof raafCertificates.$inferSelect;

/** Namespace of the advisory lock that numbers certificates per month without gaps ("RAAF"). */
const CERTIFICATE_LOCK = 0x52414146;

export async function nextCertificateNumber(conn: Conn, month: string): Promise<string> {
  const [year, monthNo] = month.split('-').map(Number);
  await conn.execute(sql`select pg_advisory_xact_lock(${CERTIFICATE_LOCK}::int, ${year * 100 + monthNo}::int)`);
  const [row] = await conn
    .select({ count: sql<number>`count(*)::int` })
    .from(raafCertificates)
    .where(eq(raafCertificates.month, month));
  return `RAAF-${month}-${String(row.count + 1).padStart(4, '0')}`;
}

export async function insertCertificate(conn: Conn, values: typeof raafCertificates.$inferInsert): Promise<CertificateRow> {
  const [row] = await conn.insert(raafCertificates).values(values).returning();
  return row;
}

export async function markReviewed(conn: Conn, id: number, userId: number): Promise<boolean> {
  const rows = await conn
    .update(raafCertificates)
    .set({ reviewed_by: userId, reviewed_at: new Date() })
    .where(and(eq(raafCertificates.id, id), isNull(raafCertificates.reviewed_at)))
    .returning({ id: raafCertificates.id });
  return rows.length === 1;
}

/** One holder, a branch roll-up (its stock and the given users), or everyone (null). */
export type RaafHolderFilter = { userId: number } | { branchId: number } | { branchId: number; userIds: number[] } | null;

const inIds = (column: SQL, ids: number[]) =>
  ids.length === 0
    ? sql`false`
    : sql`${column} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`;

/** Before every business date: the start of a fold that begins from the first event. */
const FIRST_DAY = '0001-01-01';

/**
 * The events of business dates [from, end) of a holder, everyone (null) or a roll-up. A holder's dates are compared
 * as (holder, business_date) pairs, which only pad_events_holder_*_day_idx can answer: the planner then reads that
 * holder's days from them, never every holder's days (business_date_idx) nor every day of the holder's.
 */
function eventRangeSql(holder: RaafHolderFilter, from: string, end: string): SQL {
  const dates = sql`business_date >= ${from}::date and business_date < ${end}::date`;
  if (holder === null) return dates;
  const days = (column: SQL, id: number) =>
    sql`(${column}, business_date) >= (${id}::int, ${from}::date) and (${column}, business_date) < (${id}::int, ${end}::date)`;
  if ('userId' in holder) return sql`holder_user_id = ${holder.userId}::int and ${days(sql`holder_user_id`, holder.userId)}`;
  const stock = sql`(holder_user_id is null and holder_branch_id = ${holder.branchId}::int and ${days(sql`holder_branch_id`, holder.branchId)})`;
  return 'userIds' in holder ? sql`(${stock} or (${inIds(sql`holder_user_id`, holder.userIds)} and ${dates}))` : stock;
}

function balanceHolderSql(holder: RaafHolderFilter): SQL {
  if (holder === null) return sql`true`;
  if ('userId' in holder) return sql`holder_type = 'user' and holder_id = ${holder.userId}`;
  const stock = sql`(holder_type = 'branch' and holder_id = ${holder.branchId})`;
  return 'userIds' in holder ? sql`(${stock} or (holder_type = 'user' and ${inIds(sql`holder_id`, holder.userIds)}))` : stock;
}

/**
 * What a RAAF folds, streamed in pad and seq order: the stored balances at the end of month `base` (none when
 * null) as `balance` rows, then the events of business dates [fromDate, endDate), only the columns the fold reads;
 * with `pads`, only the pads with ids in (after, last] (a month close's slice).
 */
export async function streamRaafRows(
  conn: Conn,
  input: {
    base: string | null;
    fromDate: string | null;
    endDate: string;
    holder: RaafHolderFilter;
    pads?: { after: number; last: number };
  },
  onBatch: (rows: RaafEvent[]) => void | Promise<void>,
): Promise<void> {
  const padRange = input.pads ? sql`and pad_id > ${input.pads.after}::int and pad_id <= ${input.pads.last}::int` : sql``;
  const balances =
    input.base === null
      ? sql``
      : sql`select pad_id, 0 as seq, route_id, 'balance' as kind, 0::bigint as from_number, 0::bigint as to_number,
          case when holder_type = 'user' then holder_id end as holder_user_id, case when holder_type = 'branch' then holder_id end as holder_branch_id,
          null::int as counterparty_user_id, null::int as counterparty_branch_id, null::int as invoice_id, null::text as reason, '' as business_date, ranges
        from raaf_month_balances where month = ${input.base} and ${balanceHolderSql(input.holder)} ${padRange}
        union all `;
  const query = sql`${balances}select pad_id, seq, route_id, kind, from_number, to_number, holder_user_id, holder_branch_id,
      counterparty_user_id, counterparty_branch_id, invoice_id, reason, business_date::text as business_date, null::text as ranges
    from pad_events where ${eventRangeSql(input.holder, input.fromDate ?? FIRST_DAY, input.endDate)} ${padRange}
    order by pad_id, seq`;
  await streamRows<RaafEvent>(conn, query, async (rows) => {
    for (const row of rows) {
      row.from_number = Number(row.from_number);
      row.to_number = Number(row.to_number);
    }
    await onBatch(rows);
  });
}

/** The first business date in the ledger: months before it have nothing to close. */
export async function firstEventDate(conn: Conn): Promise<string | null> {
  const [row] = await rowsOf<{ first: string | null }>(conn, sql`select min(business_date)::text as first from pad_events`);
  return row?.first ?? null;
}

/** The highest pad id with an event: a month close folds pads in slices up to it. */
export async function lastEventPadId(conn: Conn): Promise<number> {
  const [row] = await rowsOf<{ last: number | null }>(conn, sql`select max(pad_id) as last from pad_events`);
  return Number(row?.last ?? 0);
}

export async function closedMonths(conn: Conn): Promise<string[]> {
  const rows = await conn.select({ month: raafMonthCloses.month }).from(raafMonthCloses).orderBy(asc(raafMonthCloses.month));
  return rows.map((row) => row.month);
}

/** The latest month before `month` whose end balances are stored. */
export async function latestCloseBefore(conn: Conn, month: string): Promise<string | null> {
  const [row] = await conn
    .select({ month: raafMonthCloses.month })
    .from(raafMonthCloses)
    .where(lt(raafMonthCloses.month, month))
    .orderBy(desc(raafMonthCloses.month))
    .limit(1);
  return row?.month ?? null;
}

/** Namespace of the advisory lock under which one writer at a time closes a month ("BALN"). */
const CLOSE_LOCK = 0x42414c4e;

export async function lockMonthClose(conn: Conn, month: string): Promise<void> {
  const [year, monthNo] = month.split('-').map(Number);
  await conn.execute(sql`select pg_advisory_xact_lock(${CLOSE_LOCK}::int, ${year * 100 + monthNo}::int)`);
}

export async function isClosed(conn: Conn, month: string): Promise<boolean> {
  const [row] = await conn.select({ month: raafMonthCloses.month }).from(raafMonthCloses).where(eq(raafMonthCloses.month, month));
  return row !== undefined;
}

export type MonthBalanceRow = typeof raafMonthBalances.$inferInsert;

/** Rows already stored (a slice written again after a run was cut short) are left as they are: they are the same. */
export async function insertBalances(conn: Conn, rows: MonthBalanceRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await conn.execute(sql`
      insert into raaf_month_balances (month, holder_type, holder_id, pad_id, route_id, ranges)
      select month, holder_type, holder_id, pad_id, route_id, ranges
      from json_to_recordset(${JSON.stringify(rows.slice(start, start + INSERT_CHUNK))}::json)
        as x(month text, holder_type text, holder_id int, pad_id int, route_id int, ranges text)
      on conflict do nothing`);
  }
}

export async function balanceCount(conn: Conn, month: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(conn, sql`select count(*)::int as n from raaf_month_balances where month = ${month}`);
  return Number(row.n);
}

export async function insertClose(conn: Conn, month: string, balances: number): Promise<void> {
  await conn.insert(raafMonthCloses).values({ month, balances });
}

/**
 * Stored balances of the pads with ids in (afterPad, lastPad] (no upper bound when null), by pad and month, of one pad
 * in `sample.every` (those whose id leaves `sample.salt`) or of all: the verifier compares them with its own fold.
 */
export async function balancesOfPads(conn: Conn, afterPad: number, lastPad: number | null, sample: { every: number; salt: number } | null) {
  return rowsOf<{ pad_id: number; month: string; holder_type: string; holder_id: number; ranges: string }>(
    conn,
    sql`select pad_id, month, holder_type, holder_id, ranges from raaf_month_balances
      where pad_id > ${afterPad} ${lastPad === null ? sql`` : sql`and pad_id <= ${lastPad}`}
        ${sample === null ? sql`` : sql`and pad_id % ${sample.every}::int = ${sample.salt}::int`}
      order by pad_id, month`,
  );
}

/**
 * The event columns the verifier reads (event-text.ts splits them): first, in order, the text eventHash joins (fold.ts: the
 * reason as hex, the instant in milliseconds), then the outcome columns, the stored hash and the id.
 */
const VERIFIER_EVENT_FIELDS = `pad_id, seq, kind, route_id, from_number, to_number, qty, holder_user_id, holder_branch_id,
  counterparty_user_id, counterparty_branch_id, invoice_id, actor_user_id, encode(convert_to(reason, 'UTF8'), 'hex'),
  round(extract(epoch from recorded_at) * 1000)::bigint, business_date, prev_hash,
  approver_user_id, incident_id, copies_retained::int, round(extract(epoch from device_at) * 1000)::bigint, import_id, hash, id`;

/** An integer written into a statement (COPY takes no parameters). */
function literalInt(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

/** The verifier's next slice: at most `limit` events after (padId, seq), in pad and seq order, as COPY text. */
export function verifierEventsAfter(copy: ReadSnapshot['copy'], after: { padId: number; seq: number }, limit: number): Promise<Buffer> {
  return copy(
    `select ${VERIFIER_EVENT_FIELDS} from pad_events where (pad_id, seq) > (${literalInt(after.padId)}, ${literalInt(after.seq)})
      order by pad_id, seq limit ${literalInt(limit)}`,
  );
}

/** Every event of the named pads in pad and seq order, as COPY text, for the incremental verifier. */
export function verifierEventsOf(copy: ReadSnapshot['copy'], padIds: number[]): Promise<Buffer> {
  if (padIds.length === 0) return Promise.resolve(Buffer.alloc(0));
  return copy(
    `select ${VERIFIER_EVENT_FIELDS} from pad_events where pad_id = any('{${padIds.map(literalInt).join(',')}}'::int[]) order by pad_id, seq`,
  );
}

/**
 * Pads the last verification has not seen as they are now: those with events on or after `sinceDate` whose
 * last event is not the verified head, and those never verified.
 */
export async function padsToVerify(conn: Conn, sinceDate: string): Promise<number[]> {
  const rows = await rowsOf<{ pad_id: number }>(
    conn,
    sql`select c.pad_id from (select pad_id, max(seq) as seq from pad_events where business_date >= ${sinceDate}::date group by pad_id) c
        left join ledger_verified_heads h on h.pad_id = c.pad_id where h.seq is distinct from c.seq
      union
      select p.id from pads p where not exists (select 1 from ledger_verified_heads h where h.pad_id = p.id)
      order by 1`,
  );
  return rows.map((row) => Number(row.pad_id));
}

/** A pad's last event as the verifier found it sound. */
export interface VerifiedHead {
  pad_id: number;
  seq: number;
  hash: string;
}

/** Records sound pads' heads; a head already recorded as it is keeps its row (and the time it was first found sound). */
export async function saveVerifiedHeads(conn: Conn, heads: VerifiedHead[]): Promise<void> {
  for (let start = 0; start < heads.length; start += INSERT_CHUNK) {
    const chunk = heads.slice(start, start + INSERT_CHUNK);
    // -- three array literals (integers, and hex hashes quoted) cost the server less to take apart than a JSON document.
    const array = (values: (number | string)[]) =>
      `{${values.map((value) => (typeof value === 'string' ? `"${value}"` : value)).join(',')}}`;
    await conn.execute(sql`
      insert into ledger_verified_heads (pad_id, seq, hash, verified_at)
      select x.pad_id, x.seq, x.hash, now()
        from unnest(${array(chunk.map((head) => head.pad_id))}::int[], ${array(chunk.map((head) => head.seq))}::int[],
          ${array(chunk.map((head) => head.hash))}::text[]) as x(pad_id, seq, hash)
        left join ledger_verified_heads h on h.pad_id = x.pad_id
      where h.pad_id is null or h.seq <> x.seq or h.hash <> x.hash
      on conflict (pad_id) do update set seq = excluded.seq, hash = excluded.hash, verified_at = excluded.verified_at`);
  }
}

export async function forgetVerifiedHeads(conn: Conn, padIds: number[]): Promise<void> {
  if (padIds.length === 0) return;
  await conn.delete(ledgerVerifiedHeads).where(inArray(ledgerVerifiedHeads.pad_id, padIds));
}

export async function lastVerifyRun(conn: Conn): Promise<{ started_at: Date } | undefined> {
  const [row] = await conn
    .select({ started_at: ledgerVerifyRuns.started_at })
    .from(ledgerVerifyRuns)
    .orderBy(desc(ledgerVerifyRuns.started_at))
    .limit(1);
  return row;
}

export async function insertVerifyRun(conn: Conn, run: typeof ledgerVerifyRuns.$inferInsert): Promise<void> {
  await conn.insert(ledgerVerifyRuns).values(run);
}

export async function verifiedHeadCount(conn: Conn): Promise<number> {
  const [row] = await conn.select({ n: sql<number>`count(*)::int` }).from(ledgerVerifiedHeads);
  return row.n;
}

/** Certificates in id order after `afterId`, a page at a time, for the verifier. */
export async function certificatesAfter(conn: Conn, afterId: number, limit: number): Promise<CertificateRow[]> {
  return conn
    .select()
    .from(raafCertificates)
    .where(sql`${raafCertificates.id} > ${afterId}`)
    .orderBy(asc(raafCertificates.id))
    .limit(limit);
}

/** The hash each (pad, seq) has in the ledger now; pairs with no event are absent from the answer. */
export async function eventHashesAt(conn: Conn, pairs: Array<[number, number]>): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const rows = await rowsOf<{ pad_id: number; seq: number; hash: string }>(
    conn,
    sql`select e.pad_id, e.seq, e.hash from pad_events e
      join unnest(${`{${pairs.map((p) => p[0]).join(',')}}`}::int[], ${`{${pairs.map((p) => p[1]).join(',')}}`}::int[]) as w(pad_id, seq)
        on e.pad_id = w.pad_id and e.seq = w.seq`,
  );
  return new Map(rows.map((row) => [`${row.pad_id}:${row.seq}`, row.hash]));
}

/** The business date of the ledger's first event (events are never backdated, so the lowest id is the earliest) and the day of the first sign-up. */
export async function ledgerBeginnings(conn: Conn, timeZone: string): Promise<{ first_event: string | null; installed: string | null }> {
  const [row] = await rowsOf<{ first_event: string | null; installed: string | null }>(
    conn,
    sql`select (select to_char(business_date, 'YYYY-MM-DD') from pad_events order by id limit 1) as first_event,
      to_char(${firstSignUpAt} at time zone ${timeZone}, 'YYYY-MM-DD') as installed`,
  );
  return row;
}

export type LedgerCheckRow = typeof ledgerChecks.$inferSelect;

export async function insertCheck(conn: Conn, check: typeof ledgerChecks.$inferInsert): Promise<LedgerCheckRow> {
  const [row] = await conn.insert(ledgerChecks).values(check).returning();
  return row;
}
