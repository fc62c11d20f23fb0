import type { FormType } from '../../../shared/lookups.ts';
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { RegisteredSeries, RegisteredSeriesInput, SeriesRole, SeriesRoleChange } from '../../../shared/schemas/registered-series.ts';
import { seriesRange } from '../../../shared/format.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { branches, companies, routes } from '../../db/schema/reference.ts';
import { registeredSeries, registeredSeriesRoles } from '../../db/schema/registered-series.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { padCountInSeries } from '../pads/read-model.ts';
import { userNameById } from '../users/read-model.ts';

export type SeriesRow = typeof registeredSeries.$inferSelect;

const columns = {
  series: registeredSeries,
  route: { id: routes.id, name: routes.name, tin: routes.tin },
  company: companies.name,
  branch: { id: branches.id, name: branches.name },
  pads: padCountInSeries(registeredSeries.id),
};

function select(conn: Conn) {
  return conn
    .select(columns)
    .from(registeredSeries)
    .innerJoin(routes, eq(routes.id, registeredSeries.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(branches, eq(branches.id, registeredSeries.branch_id));
}

type Joined = {
  series: SeriesRow;
  route: { id: number; name: string; tin: string };
  company: string;
  branch: { id: number; name: string };
  pads: number;
};

const toSeries = (row: Joined): RegisteredSeries => ({
  id: row.series.id,
  route: { ...row.route, company: row.company },
  branch: row.branch,
  // -- the form_type column is written only from the Zod-parsed FormType.
  form_type: row.series.form_type as FormType,
  atp_number: row.series.atp_number,
  atp_date: row.series.atp_date,
  printer: row.series.printer,
  delivery_date: row.series.delivery_date,
  series_from: row.series.series_from,
  series_to: row.series.series_to,
  series_number: seriesRange(row.series.series_from, row.series.series_to),
  remarks: row.series.remarks,
  pads: Number(row.pads),
  // -- registered_series_role_ck holds role to SeriesRole.
  role: row.series.role as SeriesRole,
});

type SeriesQuery = { page: number; per_page: number; search?: string; route_id?: number; role?: SeriesRole };

function searchWhere(q: Omit<SeriesQuery, 'page' | 'per_page'>): SQL | undefined {
  const pattern = q.search ? likePattern(q.search) : null;
  return and(
    q.route_id ? eq(registeredSeries.route_id, q.route_id) : undefined,
    q.role ? eq(registeredSeries.role, q.role) : undefined,
    pattern
      ? or(
          ilike(registeredSeries.atp_number, pattern),
          ilike(routes.name, pattern),
          ilike(branches.name, pattern),
          ilike(routes.tin, pattern),
        )
      : undefined,
  );
}

export async function page(conn: Conn, q: SeriesQuery) {
  const where = searchWhere(q);
  const [rows, [{ total }]] = await Promise.all([
    select(conn)
      .where(where)
      .orderBy(asc(routes.name), asc(registeredSeries.series_from), desc(registeredSeries.id))
      .limit(q.per_page)
      .offset(offsetOf(q.page, q.per_page)),
    conn
      .select({ total: sql<number>`count(*)::int` })
      .from(registeredSeries)
      .innerJoin(routes, eq(routes.id, registeredSeries.route_id))
      .innerJoin(branches, eq(branches.id, registeredSeries.branch_id))
      .where(where),
  ]);
  return { rows: rows.map(toSeries), total };
}

export async function find(conn: Conn, id: number): Promise<RegisteredSeries | undefined> {
  const [row] = await select(conn).where(eq(registeredSeries.id, id));
  return row ? toSeries(row) : undefined;
}

/** Every registered series with its establishment, for the inventory of unused forms. */
export async function all(conn: Conn): Promise<SeriesRow[]> {
  return conn.select().from(registeredSeries).orderBy(asc(registeredSeries.id));
}

export async function insert(conn: Conn, values: RegisteredSeriesInput, userId: number): Promise<number> {
  const [row] = await conn
    .insert(registeredSeries)
    .values({ ...values, delivery_date: values.delivery_date ?? null, created_by: userId })
    .returning({ id: registeredSeries.id });
  return row.id;
}

export async function update(conn: Conn, id: number, values: RegisteredSeriesInput): Promise<boolean> {
  const rows = await conn
    .update(registeredSeries)
    .set({ ...values, delivery_date: values.delivery_date ?? null, updated_at: sql`now()` })
    .where(eq(registeredSeries.id, id))
    .returning({ id: registeredSeries.id });
  return rows.length > 0;
}

/** The series of the route overlapping from..to (other than `exceptId`), for the overlap message. */
export async function overlapping(conn: Conn, routeId: number, from: number, to: number, exceptId: number | null) {
  const [row] = await rowsOf<{ atp_number: string; series_from: number; series_to: number }>(
    conn,
    sql`select atp_number, series_from, series_to from registered_series
        where route_id = ${routeId}::int and id <> ${exceptId ?? 0}::int
          and int8range(series_from, series_to, '[]') && int8range(${from}::bigint, ${to}::bigint, '[]')
        order by series_from limit 1`,
  );
  return row;
}

export async function routeAndBranchExist(conn: Conn, routeId: number, branchId: number) {
  const [row] = await rowsOf<{ route: boolean; branch: boolean }>(
    conn,
    sql`select exists(select 1 from routes where id = ${routeId}::int) as route, exists(select 1 from branches where id = ${branchId}::int) as branch`,
  );
  return { route: Boolean(row?.route), branch: Boolean(row?.branch) };
}

/** The series' current role, its row locked so two role changes queue and each records the role it replaced. */
export async function lockedRole(conn: Conn, id: number): Promise<SeriesRole | undefined> {
  const [row] = await conn.select({ role: registeredSeries.role }).from(registeredSeries).where(eq(registeredSeries.id, id)).for('update');
  // -- registered_series_role_ck holds role to SeriesRole.
  return row?.role as SeriesRole | undefined;
}

/** Sets the role and keeps the change (who, when, why, what it was). */
export async function changeRole(
  conn: Conn,
  change: { id: number; role: SeriesRole; previous: SeriesRole; reason: string; userId: number },
): Promise<void> {
  await conn
    .update(registeredSeries)
    .set({ role: change.role, updated_at: sql`now()` })
    .where(eq(registeredSeries.id, change.id));
  await conn.insert(registeredSeriesRoles).values({
    registered_series_id: change.id,
    role: change.role,
    previous_role: change.previous,
    reason: change.reason,
    changed_by: change.userId,
  });
}

/** Every change of the series' role, newest first. */
export async function roleHistory(conn: Conn, id: number): Promise<SeriesRoleChange[]> {
  const rows = await conn
    .select({
      id: registeredSeriesRoles.id,
      role: registeredSeriesRoles.role,
      previous_role: registeredSeriesRoles.previous_role,
      reason: registeredSeriesRoles.reason,
      changed_by: registeredSeriesRoles.changed_by,
      changed_by_name: userNameById(registeredSeriesRoles.changed_by),
      changed_at: registeredSeriesRoles.changed_at,
    })
    .from(registeredSeriesRoles)
    .where(eq(registeredSeriesRoles.registered_series_id, id))
    .orderBy(desc(registeredSeriesRoles.changed_at), desc(registeredSeriesRoles.id));
  return rows.map((row) => ({
    id: row.id,
    // -- registered_series_roles_role_ck holds role to SeriesRole; previous_role is copied from a checked role.
    role: row.role as SeriesRole,
    previous_role: row.previous_role as SeriesRole,
    reason: row.reason,
    changed_by: { id: row.changed_by, name: row.changed_by_name ?? '' },
    changed_at: row.changed_at.toISOString(),
  }));
}

export interface SeriesInUse {
  id: number;
  branch_id: number;
  branch_name: string;
  route_id: number;
  route_name: string;
  atp_number: string;
  series_from: number;
  series_to: number;
}

/** Issue 37: every series not retired, with its establishment's and route's names, establishment and route together. */
export async function seriesInUse(conn: Conn): Promise<SeriesInUse[]> {
  const rows = await rowsOf<SeriesInUse>(
    conn,
    sql`select s.id, s.branch_id, b.name as branch_name, s.route_id, r.name as route_name, s.atp_number, s.series_from, s.series_to
      from registered_series s join branches b on b.id = s.branch_id join routes r on r.id = s.route_id
      where s.role <> 'retired' order by s.branch_id, s.route_id, s.series_from`,
  );
  return rows.map((row) => ({ ...row, series_from: Number(row.series_from), series_to: Number(row.series_to) }));
}
