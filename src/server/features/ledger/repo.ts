import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, USER_STATUS } from '../../../shared/lookups.ts';
import type { Conn } from '../../db/client.ts';
import { branches, companies, invoicePads, invoiceTypes, invoices, padEvents, pads, raafCertificates, routes, users } from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';

export type PadEventRow = typeof padEvents.$inferSelect;
export type NewPadEventRow = Omit<PadEventRow, 'id'>;

/** The pad columns the ledger reads: the fast current view the events must fold to. */
export interface PadView {
  id: number;
  route_id: number;
  number: number;
  series_from: number;
  series_to: number;
  series_status: string;
  pad_status_id: number;
  holder_user_id: number | null;
  holder_branch_id: number | null;
  locked_by_invoice_id: number | null;
  remarks: string | null;
}

/** Raw statements answer { rows } on both drivers. */
async function rowsOf<T>(conn: Conn, query: SQL): Promise<T[]> {
  const result = (await conn.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const padView = {
  id: pads.id,
  route_id: pads.route_id,
  number: pads.number,
  series_from: pads.series_from,
  series_to: pads.series_to,
  series_status: pads.series_status,
  pad_status_id: pads.pad_status_id,
  holder_user_id: pads.holder_user_id,
  holder_branch_id: pads.holder_branch_id,
  locked_by_invoice_id: pads.locked_by_invoice_id,
  remarks: pads.remarks,
};

/** Row locks in id order, so two writers of one pad's chain take turns and never deadlock. */
export async function lockPads(conn: Conn, padIds: number[]): Promise<void> {
  if (padIds.length === 0) return;
  await conn.select({ id: pads.id }).from(pads).where(inArray(pads.id, padIds)).orderBy(asc(pads.id)).for('update');
}

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
    const chunk = rows.slice(start, start + INSERT_CHUNK).map((row) => ({ ...row, recorded_at: row.recorded_at.toISOString() }));
    await conn.execute(sql`
      insert into pad_events (pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id,
        counterparty_user_id, counterparty_branch_id, invoice_id, actor_user_id, reason, recorded_at, business_date, prev_hash, hash)
      select pad_id, seq, route_id, kind, from_number, to_number, qty, holder_user_id, holder_branch_id,
        counterparty_user_id, counterparty_branch_id, invoice_id, actor_user_id, reason, recorded_at, business_date, prev_hash, hash
      from json_to_recordset(${JSON.stringify(chunk)}::json) as x(pad_id int, seq int, route_id int, kind text, from_number bigint,
        to_number bigint, qty int, holder_user_id int, holder_branch_id int, counterparty_user_id int, counterparty_branch_id int,
        invoice_id int, actor_user_id int, reason text, recorded_at timestamptz, business_date date, prev_hash text, hash text)`);
  }
}

export async function padViews(conn: Conn, padIds: number[]): Promise<PadView[]> {
  if (padIds.length === 0) return [];
  return conn.select(padView).from(pads).where(inArray(pads.id, padIds)).orderBy(asc(pads.id));
}

export async function invoicePadViews(conn: Conn, invoiceId: number): Promise<PadView[]> {
  return conn
    .select(padView)
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .where(eq(invoicePads.invoice_id, invoiceId))
    .orderBy(asc(pads.id));
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

/** A page of pads in id order with all their events, for the verifier. */
export async function padsWithEvents(conn: Conn, afterId: number, limit: number): Promise<{ pads: PadView[]; events: PadEventRow[] }> {
  const padRows = await conn.select(padView).from(pads).where(sql`${pads.id} > ${afterId}`).orderBy(asc(pads.id)).limit(limit);
  if (padRows.length === 0) return { pads: [], events: [] };
  const last = padRows[padRows.length - 1].id;
  const events = await conn
    .select()
    .from(padEvents)
    .where(and(sql`${padEvents.pad_id} > ${afterId}`, sql`${padEvents.pad_id} <= ${last}`))
    .orderBy(asc(padEvents.pad_id), asc(padEvents.seq));
  return { pads: padRows, events };
}

/** Events whose pad row is gone (a deleted pad) or beyond the last pad. */
export async function orphanEventPadIds(conn: Conn): Promise<number[]> {
  const rows = await rowsOf<{ pad_id: number }>(
    conn,
    sql`select distinct e.pad_id from pad_events e where not exists (select 1 from pads p where p.id = e.pad_id) order by e.pad_id`,
  );
  return rows.map((row) => Number(row.pad_id));
}

export async function eventsOfPads(conn: Conn, padIds: number[], before?: Date): Promise<PadEventRow[]> {
  if (padIds.length === 0) return [];
  return conn
    .select()
    .from(padEvents)
    .where(and(inArray(padEvents.pad_id, padIds), before ? lt(padEvents.recorded_at, before) : undefined))
    .orderBy(asc(padEvents.pad_id), asc(padEvents.seq));
}

/** Invoices in transit that lock each pad; a pad on two is a broken custody chain. */
export async function inTransitInvoicesByPad(conn: Conn, padIds: number[]): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>();
  if (padIds.length === 0) return result;
  const rows = await rowsOf<{ pad_id: number; invoice_id: number }>(
    conn,
    sql`select ip.pad_id, ip.invoice_id from invoice_pads ip join invoices i on i.id = ip.invoice_id
    where i.invoice_status_id = ${INVOICE_STATUS.IN_TRANSIT} and i.invoice_type_id <> ${INVOICE_TYPE.REQUEST} and ip.pad_id = any(${`{${padIds.join(',')}}`}::int[])`,
  );
  for (const row of rows) {
    const list = result.get(Number(row.pad_id)) ?? [];
    list.push(Number(row.invoice_id));
    result.set(Number(row.pad_id), list);
  }
  return result;
}

export interface PersonRow {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  branch_id: number | null;
}

export async function people(conn: Conn, ids: number[]): Promise<PersonRow[]> {
  if (ids.length === 0) return [];
  return conn
    .select({ id: users.id, first_name: users.first_name, middle_name: users.middle_name, last_name: users.last_name, branch_id: users.branch_id })
    .from(users)
    .where(inArray(users.id, ids));
}

export async function branchNames(conn: Conn, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return [];
  return conn.select({ id: branches.id, name: branches.name }).from(branches).where(inArray(branches.id, ids));
}

export interface RouteInfo {
  id: number;
  name: string;
  tin: string;
  company: { id: number; name: string };
}

export async function routeInfos(conn: Conn, ids: number[]): Promise<RouteInfo[]> {
  if (ids.length === 0) return [];
  const rows = await conn
    .select({ id: routes.id, name: routes.name, tin: routes.tin, company_id: companies.id, company_name: companies.name })
    .from(routes)
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .where(inArray(routes.id, ids));
  return rows.map((row) => ({ id: row.id, name: row.name, tin: row.tin, company: { id: row.company_id, name: row.company_name } }));
}

export async function padRow(conn: Conn, id: number): Promise<(PadView & { number: number }) | undefined> {
  const [row] = await conn.select(padView).from(pads).where(eq(pads.id, id));
  return row;
}

/** Pads of any route (or one) whose series contains the number; the exclusion constraint's GiST index answers it. */
export async function padsContaining(conn: Conn, receipt: number, routeId?: number): Promise<PadView[]> {
  return conn
    .select(padView)
    .from(pads)
    .where(and(sql`int8range(${pads.series_from}, ${pads.series_to}, '[]') @> ${receipt}::bigint`, routeId ? eq(pads.route_id, routeId) : undefined))
    .orderBy(asc(pads.route_id));
}

export async function padEventsOf(conn: Conn, padId: number, containing?: number): Promise<PadEventRow[]> {
  return conn
    .select()
    .from(padEvents)
    .where(
      and(
        eq(padEvents.pad_id, padId),
        containing !== undefined ? and(lte(padEvents.from_number, containing), gte(padEvents.to_number, containing)) : undefined,
      ),
    )
    .orderBy(asc(padEvents.seq));
}

export async function invoiceSummary(conn: Conn, id: number) {
  const [row] = await conn
    .select({ id: invoices.id, type_id: invoiceTypes.id, type_name: invoiceTypes.name, assigned_user_id: invoices.assigned_user_id })
    .from(invoices)
    .innerJoin(invoiceTypes, eq(invoiceTypes.id, invoices.invoice_type_id))
    .where(eq(invoices.id, id));
  return row;
}

/** The events a RAAF folds: all before the month's end, of one holder or of everyone. */
export async function raafEvents(conn: Conn, endDate: string, holder: { userId: number } | { branchId: number } | null) {
  const holderWhere =
    holder === null
      ? undefined
      : 'userId' in holder
        ? eq(padEvents.holder_user_id, holder.userId)
        : and(isNull(padEvents.holder_user_id), eq(padEvents.holder_branch_id, holder.branchId));
  return conn
    .select({
      pad_id: padEvents.pad_id,
      route_id: padEvents.route_id,
      kind: padEvents.kind,
      from_number: padEvents.from_number,
      to_number: padEvents.to_number,
      holder_user_id: padEvents.holder_user_id,
      holder_branch_id: padEvents.holder_branch_id,
      counterparty_user_id: padEvents.counterparty_user_id,
      counterparty_branch_id: padEvents.counterparty_branch_id,
      invoice_id: padEvents.invoice_id,
      reason: padEvents.reason,
      business_date: padEvents.business_date,
    })
    .from(padEvents)
    .where(and(lt(padEvents.business_date, endDate), holderWhere))
    .orderBy(asc(padEvents.pad_id), asc(padEvents.seq));
}

/** Transfer invoices on the road at the instant `end`: written before it and not accepted before it. */
export async function invoicesInTransitAt(conn: Conn, end: string, timeZone: string) {
  return rowsOf<{ invoice_id: number; route_id: number; series_from: number; series_to: number; assigned_user_id: number | null }>(
    conn,
    sql`select i.id as invoice_id, p.route_id, p.series_from, p.series_to, i.assigned_user_id
      from invoices i join invoice_pads ip on ip.invoice_id = i.id join pads p on p.id = ip.pad_id
      where i.invoice_type_id <> ${INVOICE_TYPE.REQUEST}
        and i.invoice_status_id in (${INVOICE_STATUS.IN_TRANSIT}, ${INVOICE_STATUS.COMPLETED})
        and i.created_at < (${end}::timestamp at time zone ${timeZone})
        and (i.accepted_at is null or i.accepted_at >= (${end}::timestamp at time zone ${timeZone}))
      order by i.id`,
  );
}

/** The last event hash of each pad a certificate covers, frozen with it. */
export async function lastHashesOnRoutes(conn: Conn, endDate: string, holder: { userId: number } | { branchId: number }) {
  const holderSql = 'userId' in holder ? sql`holder_user_id = ${holder.userId}` : sql`holder_user_id is null and holder_branch_id = ${holder.branchId}`;
  return rowsOf<{ pad_id: number; seq: number; hash: string }>(
    conn,
    sql`select distinct on (e.pad_id) e.pad_id, e.seq, e.hash from pad_events e
      where e.pad_id in (select pad_id from pad_events where ${holderSql} and business_date < ${endDate})
      order by e.pad_id, e.seq desc`,
  );
}

export type CertificateRow = typeof raafCertificates.$inferSelect;

export async function findCertificate(conn: Conn, month: string, holderType: string, holderId: number): Promise<CertificateRow | undefined> {
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

/** Namespace of the advisory lock that numbers certificates per month without gaps ("RAAF"). */
const CERTIFICATE_LOCK = 0x52414146;

export async function nextCertificateNumber(conn: Conn, month: string): Promise<string> {
  const [year, monthNo] = month.split('-').map(Number);
  await conn.execute(sql`select pg_advisory_xact_lock(${CERTIFICATE_LOCK}::int, ${year * 100 + monthNo}::int)`);
  const [row] = await conn.select({ count: sql<number>`count(*)::int` }).from(raafCertificates).where(eq(raafCertificates.month, month));
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

/** Who an actor certifies for or reads: null is everyone; else their own and, with a branch, that branch's and its users'. */
export type CertificateScope = { userId: number; branchId: number | null } | null;

function certificateScopeWhere(scope: CertificateScope): SQL | undefined {
  if (scope === null) return undefined;
  const own = sql`(${raafCertificates.holder_type} = 'user' and ${raafCertificates.holder_id} = ${scope.userId})`;
  if (scope.branchId === null) return own;
  return sql`(${own} or (${raafCertificates.holder_type} = 'branch' and ${raafCertificates.holder_id} = ${scope.branchId})
    or (${raafCertificates.holder_type} = 'user' and exists (select 1 from users u where u.id = ${raafCertificates.holder_id} and u.branch_id = ${scope.branchId})))`;
}

export async function activeActor(conn: Conn, id: number): Promise<{ id: number; role_id: number | null; branch_id: number | null } | undefined> {
  const [row] = await conn
    .select({ id: users.id, role_id: users.role_id, branch_id: users.branch_id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.user_status_id, USER_STATUS.ACTIVE)));
  return row;
}

export async function listCertificates(conn: Conn, query: { page: number; per_page: number; month?: string; search?: string; scope: CertificateScope }) {
  const holderName = sql`(case when ${raafCertificates.holder_type} = 'user'
    then (select concat_ws(' ', u.first_name, u.middle_name, u.last_name) from users u where u.id = ${raafCertificates.holder_id})
    else (select b.name from branches b where b.id = ${raafCertificates.holder_id}) end)`;
  const where = and(
    certificateScopeWhere(query.scope),
    query.month ? eq(raafCertificates.month, query.month) : undefined,
    query.search ? sql`(${raafCertificates.number} ilike ${likePattern(query.search)} or ${holderName} ilike ${likePattern(query.search)})` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    conn.select().from(raafCertificates).where(where).orderBy(desc(raafCertificates.id)).limit(query.per_page).offset(offsetOf(query.page, query.per_page)),
    conn.select({ total: sql<number>`count(*)::int` }).from(raafCertificates).where(where),
  ]);
  return { rows, total };
}
