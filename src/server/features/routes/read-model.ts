import { eq, inArray } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { companies, routes } from '../../db/schema/reference.ts';
import { rowExists } from '../../lib/reference-data.ts';

/** Whether the route exists: the check behind a pad's or an invoice's Route field. */
export const routeExists = (conn: Conn, id: number) => rowExists(conn, routes.id, id);

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
