import { and, asc, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { Route, RoutesQuery } from '../../../shared/schemas/routes.ts';
import type { Conn } from '../../db/client.ts';
import { streamByIds } from '../../db/stream.ts';
import { companies, invoices, pads, routes } from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

const columns = {
  id: routes.id,
  company_id: routes.company_id,
  name: routes.name,
  tin: routes.tin,
  company: { id: companies.id, name: companies.name },
};

type RouteValues = { company_id: number; name: string; tin: string };

const select = (conn: Conn) => conn.select(columns).from(routes).innerJoin(companies, eq(companies.id, routes.company_id));

/** One page of routes, newest first, matching route name or TIN (trigram indexes). */
const listWhere = (q: RoutesQuery) =>
  q.search ? or(ilike(routes.name, likePattern(q.search)), ilike(routes.tin, likePattern(q.search))) : undefined;
const listOrder = (q: RoutesQuery) =>
  sortedBy({ company: companies.name, name: routes.name, tin: routes.tin }, q, routes.id, [desc(routes.id)]);

/** Every route the Routes list shows for this search, in its order, batch by batch (docs/design.md §10 Export). */
export async function streamList(conn: Conn, q: RoutesQuery, onBatch: (rows: Route[]) => Promise<void>): Promise<void> {
  const ids = conn
    .select({ id: routes.id })
    .from(routes)
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .where(listWhere(q))
    .orderBy(...listOrder(q));
  await streamByIds(conn, ids.getSQL(), (tx, wanted) => select(tx).where(inArray(routes.id, wanted)), onBatch);
}

export async function page(conn: Conn, q: RoutesQuery): Promise<{ rows: Route[]; total: number }> {
  const where = listWhere(q);
  const order = listOrder(q);
  const rows = await select(conn)
    .where(where)
    .orderBy(...order)
    .limit(q.per_page)
    .offset(offsetOf(q.page, q.per_page));
  const [{ total }] = await conn
    .select({ total: sql<number>`count(*)::int` })
    .from(routes)
    .where(where);
  return { rows, total };
}

export async function all(conn: Conn): Promise<Route[]> {
  return select(conn).orderBy(asc(companies.name), asc(routes.name), asc(routes.id));
}

export async function find(conn: Conn, id: number): Promise<Route | undefined> {
  const [row] = await select(conn).where(eq(routes.id, id)).limit(1);
  return row;
}

export async function insert(conn: Conn, values: RouteValues): Promise<number> {
  const [row] = await conn.insert(routes).values(values).returning({ id: routes.id });
  return row.id;
}

export async function update(conn: Conn, id: number, values: RouteValues): Promise<boolean> {
  const rows = await conn
    .update(routes)
    .set({ ...values, updated_at: new Date() })
    .where(eq(routes.id, id))
    .returning({ id: routes.id });
  return rows.length > 0;
}

export async function remove(conn: Conn, id: number): Promise<void> {
  await conn.delete(routes).where(eq(routes.id, id));
}

export async function companyExists(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).limit(1);
  return Boolean(row);
}

/** Pads and invoices of the route: history that must keep its route. */
export async function usage(conn: Conn, id: number): Promise<{ pads: number; invoices: number }> {
  const [{ n: padCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(pads)
    .where(eq(pads.route_id, id));
  const [{ n: invoiceCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(eq(invoices.route_id, id));
  return { pads: padCount, invoices: invoiceCount };
}

/** A company cannot run two routes of the same name: the route selects would show them alike. */
export async function nameTaken(conn: Conn, companyId: number, name: string, exceptId: number | null): Promise<boolean> {
  const same = and(eq(routes.company_id, companyId), sql`lower(${routes.name}) = ${name.toLowerCase()}`);
  const [row] = await conn
    .select({ id: routes.id })
    .from(routes)
    .where(exceptId ? and(same, ne(routes.id, exceptId)) : same)
    .limit(1);
  return Boolean(row);
}

/** A route with its company, as a report row names it (company – route – TIN). */
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
