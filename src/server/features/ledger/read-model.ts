import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { HolderScope } from '../../../shared/permissions.ts';
import type { Conn } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { rowsOf } from '../../db/rows.ts';
import { ledgerChecks, padEvents, raafCertificates } from '../../db/schema/ledger.ts';
import { streamRows } from '../../db/stream.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { userInBranch, userNameById } from '../users/read-model.ts';
import type { UndoneOriginal } from './undone-runs.ts';
import type { CertificateRow, LedgerCheckRow, PadEventRow } from './repo.ts';
import type { AppContext } from '../../context.ts';
import { foldMonth } from './month-balances.ts';
import { holderOfKey as holderOf } from './raaf-fold.ts';
import * as useRepo from './use-repo.ts';

export { mergeRanges } from './fold.ts';
export { endingsAt, nextDay } from './month-balances.ts';
export { holderOfKey } from './raaf-fold.ts';
export { monthBounds, nextMonth, previousMonth } from './month-balances.ts';

/** Issue 37 low stock: numbers used per branch and route over business dates from..to, opening balances left out. */
export const usedPerBranchRoute = (conn: Conn, from: string, to: string) => useRepo.usedPerBranchRoute(conn, from, to);

/** Issue 37 registered series: numbers used inside each keyed range over business dates from..to. */
export const usedInRanges = (
  conn: Conn,
  ranges: Array<{ key: number; routeId: number; from: number; to: number }>,
  from: string,
  to: string,
) => useRepo.usedInRanges(conn, ranges, from, to);

/**
 * Issue 37 RAAF due: the holders who owe a RAAF for an ended month, as the month's RAAF fold finds them (they held or
 * moved forms in it: anything in Beginning, Receipt, Issued or Ending), each with whether it is certified.
 */
export async function raafHoldersOfMonth(
  ctx: AppContext,
  month: string,
): Promise<Array<{ type: 'user' | 'branch'; id: number; certified: boolean }>> {
  const folded = await foldMonth(ctx, month, null);
  const certified = new Set((await certificatesOfMonth(ctx.db, month)).map((row) => `${row.holder_type}:${row.holder_id}`));
  const holders: Array<{ type: 'user' | 'branch'; id: number; certified: boolean }> = [];
  for (const [key, routes] of folded) {
    const any = [...routes.values()].some(
      (cells) => cells.beginning.length + cells.receipt.length + cells.issued.length + cells.ending.length > 0,
    );
    if (!any) continue;
    const holder = holderOf(key);
    holders.push({ type: holder.type, id: holder.id, certified: certified.has(`${holder.type}:${holder.id}`) });
  }
  return holders;
}

/** docs/design.md §9: a pad whose ledger holds anything but its receipt has a history that must stay. */
export async function hasEventsBeyondReceipt(conn: Conn, padId: number): Promise<boolean> {
  const [row] = await rowsOf<{ found: boolean }>(
    conn,
    sql`select exists(select 1 from pad_events where pad_id = ${padId}::int and kind <> 'received') as found`,
  );
  return Boolean(row?.found);
}

/** The newest ledger check, whatever ran it: what Admin, Accounting and Auditor are shown, and whether an alert stands. */
export async function latestCheck(conn: Conn): Promise<LedgerCheckRow | undefined> {
  const [row] = await conn.select().from(ledgerChecks).orderBy(desc(ledgerChecks.id)).limit(1);
  return row;
}

/** A pad's events that cover one number, in order: named and prepared, as find-receipt asks it for every pad it finds. */
const padEventsContaining = preparedOnce((conn) =>
  conn
    .select()
    .from(padEvents)
    .where(
      and(
        eq(padEvents.pad_id, sql.placeholder('padId')),
        lte(padEvents.from_number, sql.placeholder('containing')),
        gte(padEvents.to_number, sql.placeholder('containing')),
      ),
    )
    .orderBy(asc(padEvents.seq))
    .prepare('pad_events_containing'),
);

export async function padEventsOf(conn: Conn, padId: number, containing?: number): Promise<PadEventRow[]> {
  if (containing !== undefined) return padEventsContaining(conn).execute({ padId, containing });
  return conn.select().from(padEvents).where(eq(padEvents.pad_id, padId)).orderBy(asc(padEvents.seq));
}

export async function findCertificate(
  conn: Conn,
  month: string,
  holderType: string,
  holderId: number,
): Promise<CertificateRow | undefined> {
  const [row] = await conn
    .select()
    .from(raafCertificates)
    .where(and(eq(raafCertificates.month, month), eq(raafCertificates.holder_type, holderType), eq(raafCertificates.holder_id, holderId)));
  return row;
}

export async function certificateById(conn: Conn, id: number): Promise<CertificateRow | undefined> {
  const [row] = await conn.select().from(raafCertificates).where(eq(raafCertificates.id, id));
  return row;
}

export async function certificatesOfMonth(conn: Conn, month: string): Promise<CertificateRow[]> {
  return conn.select().from(raafCertificates).where(eq(raafCertificates.month, month)).orderBy(asc(raafCertificates.id));
}

/** permissions.ts raafScope() as SQL on raaf_certificates. */
function certificateScopeWhere(scope: HolderScope): SQL | undefined {
  if (scope.all) return undefined;
  const own = sql`(${raafCertificates.holder_type} = 'user' and ${raafCertificates.holder_id} = ${scope.userId})`;
  if (scope.branchId === null) return own;
  return sql`(${own} or (${raafCertificates.holder_type} = 'branch' and ${raafCertificates.holder_id} = ${scope.branchId})
    or (${raafCertificates.holder_type} = 'user' and ${userInBranch(raafCertificates.holder_id, sql`${scope.branchId}`)}))`;
}

function certificatesWhere(query: { month?: string; search?: string; scope: HolderScope }): SQL | undefined {
  const holderName = sql`(case when ${raafCertificates.holder_type} = 'user'
    then ${userNameById(raafCertificates.holder_id)}
    else (select b.name from branches b where b.id = ${raafCertificates.holder_id}) end)`;
  return and(
    certificateScopeWhere(query.scope),
    query.month ? eq(raafCertificates.month, query.month) : undefined,
    query.search
      ? sql`(${raafCertificates.number} ilike ${likePattern(query.search)} or ${holderName} ilike ${likePattern(query.search)})`
      : undefined,
  );
}

/** Every certificate of the list for these filters, newest first, batch by batch (docs/design.md §10 Export). */
export async function streamCertificates(
  conn: Conn,
  query: { month?: string; search?: string; scope: HolderScope },
  onBatch: (rows: CertificateRow[], tx: Conn) => Promise<void>,
): Promise<void> {
  const ids = conn
    .select({ id: raafCertificates.id })
    .from(raafCertificates)
    .where(certificatesWhere(query))
    .orderBy(desc(raafCertificates.id));
  await streamRows<{ id: number }>(
    conn,
    ids.getSQL(),
    async (batch, tx) => {
      const wanted = batch.map((row) => Number(row.id));
      const byId = new Map(
        (await tx.select().from(raafCertificates).where(inArray(raafCertificates.id, wanted))).map((row) => [row.id, row]),
      );
      await onBatch(
        wanted.map((id) => byId.get(id)).filter((row) => row !== undefined),
        tx,
      );
    },
    200,
  );
}

export async function listCertificates(
  conn: Conn,
  query: { page: number; per_page: number; month?: string; search?: string; scope: HolderScope },
) {
  const where = certificatesWhere(query);
  const [rows, [{ total }]] = await Promise.all([
    conn
      .select()
      .from(raafCertificates)
      .where(where)
      .orderBy(desc(raafCertificates.id))
      .limit(query.per_page)
      .offset(offsetOf(query.page, query.per_page)),
    conn
      .select({ total: sql<number>`count(*)::int` })
      .from(raafCertificates)
      .where(where),
  ]);
  return { rows, total };
}

/**
 * What an undo event may have undone: every use or write-off of pad `padId` before `seq` that covers a number of
 * from..to, latest first, with the loss incident it names; `undoneRuns` picks each number's latest.
 */
export async function undoneOriginals(conn: Conn, padId: number, seq: number, from: number, to: number): Promise<UndoneOriginal[]> {
  const rows = await rowsOf<UndoneOriginal>(
    conn,
    sql`select o.seq, o.from_number, o.to_number, o.kind, o.actor_user_id, o.business_date::text as business_date, o.reason,
        i.number as incident_number
      from pad_events o left join loss_incidents i on i.id = o.incident_id
      where o.pad_id = ${padId}::int and o.seq < ${seq}::int and o.kind in ('used', 'cancelled', 'lost', 'voided')
        and o.from_number <= ${to}::bigint and o.to_number >= ${from}::bigint
      order by o.seq desc`,
  );
  return rows.map((row) => ({ ...row, from_number: Number(row.from_number), to_number: Number(row.to_number) }));
}

/** The incidents the events name, for their numbers in pad history and Find receipt. */
export async function incidentRefs(
  conn: Conn,
  ids: number[],
): Promise<Array<{ id: number; number: string; status: 'reported' | 'confirmed' | 'rejected' }>> {
  if (ids.length === 0) return [];
  return rowsOf(conn, sql`select id, number, status from loss_incidents where id = any(${`{${[...new Set(ids)].join(',')}}`}::int[])`);
}

/**
 * docs/design.md §9: the voided events of deleted pads that covered a number, so Find receipt still answers for it; one
 * named prepared statement per shape (with a route, without).
 */
const voidedContainingStatement = (byRoute: boolean) =>
  preparedOnce((conn) =>
    conn
      .select()
      .from(padEvents)
      .where(
        and(
          eq(padEvents.kind, 'voided'),
          lte(padEvents.from_number, sql.placeholder('receipt')),
          gte(padEvents.to_number, sql.placeholder('receipt')),
          byRoute ? eq(padEvents.route_id, sql.placeholder('routeId')) : undefined,
          sql`not exists (select 1 from pads p where p.id = ${padEvents.pad_id})`,
        ),
      )
      .orderBy(asc(padEvents.pad_id))
      .prepare(byRoute ? 'voided_containing_on_route' : 'voided_containing'),
  );
const voidedContainingOnRoute = voidedContainingStatement(true);
const voidedContainingAnywhere = voidedContainingStatement(false);

export async function voidedContaining(conn: Conn, receipt: number, routeId?: number): Promise<PadEventRow[]> {
  return routeId !== undefined
    ? voidedContainingOnRoute(conn).execute({ receipt, routeId })
    : voidedContainingAnywhere(conn).execute({ receipt });
}

/** Issue 36: the voided event of a deleted pad, so a count that scans its label says what became of it. */
export async function voidedPad(conn: Conn, padId: number): Promise<PadEventRow | null> {
  const [row] = await conn
    .select()
    .from(padEvents)
    .where(
      and(
        eq(padEvents.pad_id, padId),
        eq(padEvents.kind, 'voided'),
        sql`not exists (select 1 from pads p where p.id = ${padEvents.pad_id})`,
      ),
    )
    .orderBy(desc(padEvents.seq))
    .limit(1);
  return row ?? null;
}

/**
 * Issue 38: how many numbers were marked `used` at a branch on the business days from..to (inclusive) and are still used:
 * a number whose use a later `used_reverted` undid is not counted, however much later the undo came. An event is at the
 * branch its holder branch names (a pad's branch, or the branch it was issued to with its holder), else at its holding
 * user's branch: where the usage happened, as issue 38's paper uses place it. Opening balances (imports) are left out:
 * their uses were before go-live. The summary list must equal it.
 */
export async function usedNumbersAt(conn: Conn, branchId: number, fromDate: string, toDate: string): Promise<number> {
  const atBranch = sql`(holder_branch_id = ${branchId}::int or (holder_branch_id is null and ${userInBranch(sql`holder_user_id`, sql`${branchId}::int`)}))`;
  const counted = sql`kind = 'used' and import_id is null and business_date between ${fromDate}::date and ${toDate}::date and ${atBranch}`;
  const rows = await rowsOf<{ pad_id: number; kind: string; from_number: string; to_number: string; counted: boolean }>(
    conn,
    sql`with firsts as (select pad_id, min(seq) as seq from pad_events where ${counted} group by pad_id)
        select e.pad_id, e.kind, e.from_number::text as from_number, e.to_number::text as to_number, (${counted}) as counted
        from pad_events e join firsts f on f.pad_id = e.pad_id and e.seq >= f.seq
        where e.kind in ('used', 'used_reverted')
        order by e.pad_id, e.seq`,
  );
  let total = 0;
  let padId: number | null = null;
  let used = new Set<number>();
  for (const row of rows) {
    if (row.pad_id !== padId) {
      total += used.size;
      used = new Set();
      padId = row.pad_id;
    }
    for (let n = Number(row.from_number); n <= Number(row.to_number); n += 1) {
      if (row.kind === 'used' && row.counted) used.add(n);
      else used.delete(n);
    }
  }
  return total + used.size;
}

/** A holder's RAAF month as another feature names it. */
export interface HolderMonth {
  holder_type: 'user' | 'branch';
  holder_id: number;
  /** YYYY-MM */
  month: string;
}

/**
 * Issue 38: which of these holder-months have a certified RAAF, with its number: an outage a certified RAAF relies on
 * keeps its times. Reads only the keys, never the stored PDF.
 */
export async function certifiedAmong(conn: Conn, wanted: HolderMonth[]): Promise<Array<HolderMonth & { number: string }>> {
  if (wanted.length === 0) return [];
  const keys = [...new Set(wanted.map((w) => `${w.holder_type}:${w.holder_id}:${w.month}`))];
  const rows = await rowsOf<{ holder_type: 'user' | 'branch'; holder_id: number; month: string; number: string }>(
    conn,
    sql`select holder_type, holder_id, month, number from raaf_certificates
        where (holder_type || ':' || holder_id || ':' || month) in (${sql.join(
          keys.map((key) => sql`${key}`),
          sql`, `,
        )})
        order by month, holder_type, holder_id`,
  );
  return rows.map((row) => ({ ...row, holder_id: Number(row.holder_id) }));
}
