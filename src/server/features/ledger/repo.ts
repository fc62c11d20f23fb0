import { and, asc, desc, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
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
import { streamRows } from '../../db/stream.ts';
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

/** Many events in few statements: each chunk travels as one JSON parameter. */
export async function insertEvents(conn: Conn, rows: NewPadEventRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK).map((row) => ({
      ...row,
      recorded_at: row.recorded_at.toISOString(),
      device_at: row.device_at ? row.device_at.toISOString() : null,
    }));
    await conn.execute(sql`
      insert into pad_events (pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id,
        counterparty_user_id, counterparty_branch_id, invoice_id, actor_user_id, reason, recorded_at, business_date, prev_hash, hash,
        approver_user_id, incident_id, copies_retained, device_at, import_id)
      select pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id,
        counterparty_user_id, counterparty_branch_id, invoice_id, actor_user_id, reason, recorded_at, business_date, prev_hash, hash,
        approver_user_id, incident_id, copies_retained, device_at, import_id
      from json_to_recordset(${JSON.stringify(chunk)}::json) as x(pad_id int, seq int, route_id int, kind text, from_number bigint,
        to_number bigint, qty int, holder_user_id int, holder_branch_id int, counterparty_user_id int, counterparty_branch_id int,
        invoice_id int, actor_user_id int, reason text, recorded_at timestamptz, business_date date, prev_hash text, hash text,
        approver_user_id int, incident_id int, copies_retained boolean, device_at timestamptz, import_id int)`);
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
    select p.id, 1, p.route_id, 'received', p.series_from, p.series_to, (p.series_to - p.series_from + 1)::int, p.holder_user_id, p.holder_branch_id,
      ${actor}, ${input.recordedAt.toISOString()}::timestamptz, ${input.businessDate}::date, ${input.prevHash}::text,
      encode(sha256(convert_to(concat_ws('|', p.id, 1, 'received', p.route_id, p.series_from, p.series_to, p.series_to - p.series_from + 1,
        coalesce(p.holder_user_id::text, ''), coalesce(p.holder_branch_id::text, ''), '', '', '', ${actor}, '',
        ${input.recordedAt.getTime()}::bigint, ${input.businessDate}::text, ${input.prevHash}::text), 'UTF8')), 'hex')
    from pads p
    where p.route_id = ${input.routeId}::int and p.number >= ${input.firstNumber}::int
    order by p.id`);
}

/** Events whose pad row is gone (a deleted pad) or beyond the last pad. */
export async function orphanEventPadIds(conn: Conn): Promise<number[]> {
  const rows = await rowsOf<{ pad_id: number }>(
    conn,
    sql`select distinct e.pad_id from pad_events e where not exists (select 1 from pads p where p.id = e.pad_id) order by e.pad_id`,
  );
  return rows.map((row) => Number(row.pad_id));
}

/** All events of the pads with ids in (afterId, lastId], for the verifier's page of pads. */
export async function eventsInPadRange(conn: Conn, afterId: number, lastId: number): Promise<PadEventRow[]> {
  return conn
    .select()
    .from(padEvents)
    .where(and(sql`${padEvents.pad_id} > ${afterId}`, sql`${padEvents.pad_id} <= ${lastId}`))
    .orderBy(asc(padEvents.pad_id), asc(padEvents.seq));
}

export async function eventsOfPads(conn: Conn, padIds: number[], before?: Date): Promise<PadEventRow[]> {
  if (padIds.length === 0) return [];
  return conn
    .select()
    .from(padEvents)
    .where(and(inArray(padEvents.pad_id, padIds), before ? lt(padEvents.recorded_at, before) : undefined))
    .orderBy(asc(padEvents.pad_id), asc(padEvents.seq));
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

function eventHolderSql(holder: RaafHolderFilter): SQL {
  if (holder === null) return sql`true`;
  if ('userId' in holder) return sql`holder_user_id = ${holder.userId}`;
  const stock = sql`(holder_user_id is null and holder_branch_id = ${holder.branchId})`;
  return 'userIds' in holder ? sql`(${stock} or ${inIds(sql`holder_user_id`, holder.userIds)})` : stock;
}

function balanceHolderSql(holder: RaafHolderFilter): SQL {
  if (holder === null) return sql`true`;
  if ('userId' in holder) return sql`holder_type = 'user' and holder_id = ${holder.userId}`;
  const stock = sql`(holder_type = 'branch' and holder_id = ${holder.branchId})`;
  return 'userIds' in holder ? sql`(${stock} or (holder_type = 'user' and ${inIds(sql`holder_id`, holder.userIds)}))` : stock;
}

/**
 * What a RAAF folds, streamed in pad and seq order: the stored balances at the end of month `base` (none when
 * null) as `balance` rows, then the events of business dates [fromDate, endDate), only the columns the fold reads.
 */
export async function streamRaafRows(
  conn: Conn,
  input: { base: string | null; fromDate: string | null; endDate: string; holder: RaafHolderFilter },
  onBatch: (rows: RaafEvent[]) => void | Promise<void>,
): Promise<void> {
  const balances =
    input.base === null
      ? sql``
      : sql`select pad_id, 0 as seq, route_id, 'balance' as kind, 0::bigint as from_number, 0::bigint as to_number,
          case when holder_type = 'user' then holder_id end as holder_user_id, case when holder_type = 'branch' then holder_id end as holder_branch_id,
          null::int as counterparty_user_id, null::int as counterparty_branch_id, null::int as invoice_id, null::text as reason, '' as business_date, ranges
        from raaf_month_balances where month = ${input.base} and ${balanceHolderSql(input.holder)}
        union all `;
  const query = sql`${balances}select pad_id, seq, route_id, kind, from_number, to_number, holder_user_id, holder_branch_id,
      counterparty_user_id, counterparty_branch_id, invoice_id, reason, business_date::text as business_date, null::text as ranges
    from pad_events where business_date < ${input.endDate}::date ${input.fromDate === null ? sql`` : sql`and business_date >= ${input.fromDate}::date`}
      and ${eventHolderSql(input.holder)}
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

export async function insertBalances(conn: Conn, rows: MonthBalanceRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await conn.execute(sql`
      insert into raaf_month_balances (month, holder_type, holder_id, pad_id, route_id, ranges)
      select month, holder_type, holder_id, pad_id, route_id, ranges
      from json_to_recordset(${JSON.stringify(rows.slice(start, start + INSERT_CHUNK))}::json)
        as x(month text, holder_type text, holder_id int, pad_id int, route_id int, ranges text)`);
  }
}

export async function insertClose(conn: Conn, month: string, balances: number): Promise<void> {
  await conn.insert(raafMonthCloses).values({ month, balances });
}

/** Stored balances of some pads, by pad and month: the verifier compares them with its own fold. */
export async function balancesOfPads(conn: Conn, fromPad: number, toPad: number) {
  return rowsOf<{ pad_id: number; month: string; holder_type: string; holder_id: number; ranges: string }>(
    conn,
    sql`select pad_id, month, holder_type, holder_id, ranges from raaf_month_balances where pad_id between ${fromPad} and ${toPad} order by pad_id, month`,
  );
}

/** The event columns the verifier reads, as plain rows (no ORM objects per event). */
const verifierEventColumns = sql`id, pad_id, seq, route_id, kind, from_number::float8 as from_number, to_number::float8 as to_number, qty,
  holder_user_id, holder_branch_id, counterparty_user_id, counterparty_branch_id, invoice_id, actor_user_id, reason,
  round(extract(epoch from recorded_at) * 1000)::float8 as recorded_at, business_date::text as business_date, prev_hash, hash,
  approver_user_id, incident_id, copies_retained, round(extract(epoch from device_at) * 1000)::float8 as device_at, import_id`;

/** Both drivers answer the instants as milliseconds here; the hash needs them as Dates. */
type VerifierRow = Omit<PadEventRow, 'recorded_at' | 'device_at'> & { recorded_at: number; device_at: number | null };
const withDates = (rows: VerifierRow[]): PadEventRow[] =>
  rows.map((row) => ({
    ...row,
    recorded_at: new Date(row.recorded_at),
    device_at: row.device_at === null ? null : new Date(row.device_at),
  }));

/** All events of the pads with ids in (afterId, lastId], in pad and seq order, for the verifier's page of pads. */
export async function verifierEventsInRange(conn: Conn, afterId: number, lastId: number): Promise<PadEventRow[]> {
  return withDates(
    await rowsOf<VerifierRow>(
      conn,
      sql`select ${verifierEventColumns} from pad_events where pad_id > ${afterId} and pad_id <= ${lastId} order by pad_id, seq`,
    ),
  );
}

/** All events of the named pads, for the incremental verifier. */
export async function verifierEventsOf(conn: Conn, padIds: number[]): Promise<PadEventRow[]> {
  if (padIds.length === 0) return [];
  return withDates(
    await rowsOf<VerifierRow>(
      conn,
      sql`select ${verifierEventColumns} from pad_events where pad_id = any(${`{${padIds.join(',')}}`}::int[]) order by pad_id, seq`,
    ),
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

export async function saveVerifiedHeads(conn: Conn, heads: Array<{ pad_id: number; seq: number; hash: string }>): Promise<void> {
  for (let start = 0; start < heads.length; start += INSERT_CHUNK) {
    await conn.execute(sql`
      insert into ledger_verified_heads (pad_id, seq, hash, verified_at)
      select pad_id, seq, hash, now() from json_to_recordset(${JSON.stringify(heads.slice(start, start + INSERT_CHUNK))}::json) as x(pad_id int, seq int, hash text)
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
