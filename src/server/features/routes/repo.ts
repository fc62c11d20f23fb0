import { asc, desc, eq, ilike, or } from 'drizzle-orm';
import type { Route, RoutesQuery } from '../../../shared/schemas/routes.ts';
import type { Conn } from '../../db/client.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { pads } from '../../db/schema/pads.ts';
import { companies, routes } from '../../db/schema/reference.ts';
import { likePattern } from '../../lib/pagination.ts';
import { refCount, referenceRepo } from '../../lib/reference-data.ts';
import { sortedBy } from '../../lib/sorting.ts';

const columns = {
  id: routes.id,
  company_id: routes.company_id,
  name: routes.name,
  tin: routes.tin,
  company: { id: companies.id, name: companies.name },
};

const base = referenceRepo<typeof routes, Route, RoutesQuery>({
  table: routes,
  rows: (conn) => conn.select(columns).from(routes).innerJoin(companies, eq(companies.id, routes.company_id)).$dynamic(),
  ids: (conn) => conn.select({ id: routes.id }).from(routes).innerJoin(companies, eq(companies.id, routes.company_id)).$dynamic(),
  /** Newest first, matching route name or TIN (trigram indexes). */
  where: (q) => (q.search ? or(ilike(routes.name, likePattern(q.search)), ilike(routes.tin, likePattern(q.search))) : undefined),
  order: (q) => sortedBy({ company: companies.name, name: routes.name, tin: routes.tin }, q, routes.id, [desc(routes.id)]),
  allOrder: [asc(companies.name), asc(routes.name), asc(routes.id)],
});

export const { page, streamList, all, find, insert, update, remove } = base;

/** A company cannot run two routes of the same name: the route selects would show them alike. */
export const nameTaken = (conn: Conn, companyId: number, name: string, exceptId: number | null) =>
  base.nameTaken(conn, name, exceptId, eq(routes.company_id, companyId));

/** Pads and invoices of the route: history that must keep its route. */
export async function usage(conn: Conn, id: number): Promise<{ pads: number; invoices: number }> {
  return { pads: await refCount(conn, pads.route_id, id), invoices: await refCount(conn, invoices.route_id, id) };
}
