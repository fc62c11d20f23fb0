import { and, asc, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { CompaniesQuery, Company } from '../../../shared/schemas/companies.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { Conn } from '../../db/client.ts';
import { streamByIds } from '../../db/stream.ts';
import { branches, companies, companyTypes, routes } from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

const columns = {
  id: companies.id,
  name: companies.name,
  company_type_id: companies.company_type_id,
  company_type: { id: companyTypes.id, name: companyTypes.name },
};

const select = (conn: Conn) => conn.select(columns).from(companies).innerJoin(companyTypes, eq(companyTypes.id, companies.company_type_id));

function listWhere(q: CompaniesQuery): SQL | undefined {
  const filters: SQL[] = [];
  if (q.search) filters.push(ilike(companies.name, likePattern(q.search)));
  if (q.company_type_id) filters.push(eq(companies.company_type_id, q.company_type_id));
  return and(...filters);
}

const listOrder = (q: CompaniesQuery) => sortedBy({ name: companies.name, type: companyTypes.name }, q, companies.id, [desc(companies.id)]);

/** Every company the Companies list shows for this search and type, in its order, batch by batch (docs/design.md §10 Export). */
export async function streamList(conn: Conn, q: CompaniesQuery, onBatch: (rows: Company[]) => Promise<void>): Promise<void> {
  const ids = conn
    .select({ id: companies.id })
    .from(companies)
    .innerJoin(companyTypes, eq(companyTypes.id, companies.company_type_id))
    .where(listWhere(q))
    .orderBy(...listOrder(q));
  await streamByIds(conn, ids.getSQL(), (tx, wanted) => select(tx).where(inArray(companies.id, wanted)), onBatch);
}

/** One page of companies, newest first, by name search (trigram index) and company type. */
export async function page(conn: Conn, q: CompaniesQuery): Promise<{ rows: Company[]; total: number }> {
  const where = listWhere(q);
  const order = listOrder(q);
  const rows = await select(conn)
    .where(where)
    .orderBy(...order)
    .limit(q.per_page)
    .offset(offsetOf(q.page, q.per_page));
  const [{ total }] = await conn
    .select({ total: sql<number>`count(*)::int` })
    .from(companies)
    .where(where);
  return { rows, total };
}

export async function all(conn: Conn): Promise<Company[]> {
  return select(conn).orderBy(asc(companies.name), asc(companies.id));
}

export async function find(conn: Conn, id: number): Promise<Company | undefined> {
  const [row] = await select(conn).where(eq(companies.id, id)).limit(1);
  return row;
}

export async function insert(conn: Conn, values: { name: string; company_type_id: number }): Promise<number> {
  const [row] = await conn.insert(companies).values(values).returning({ id: companies.id });
  return row.id;
}

export async function update(conn: Conn, id: number, values: { name: string; company_type_id: number }): Promise<boolean> {
  const rows = await conn
    .update(companies)
    .set({ ...values, updated_at: new Date() })
    .where(eq(companies.id, id))
    .returning({ id: companies.id });
  return rows.length > 0;
}

export async function remove(conn: Conn, id: number): Promise<void> {
  await conn.delete(companies).where(eq(companies.id, id));
}

export async function companyTypeList(conn: Conn): Promise<NamedRef[]> {
  return conn.select({ id: companyTypes.id, name: companyTypes.name }).from(companyTypes).orderBy(asc(companyTypes.id));
}

export async function companyTypeExists(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn.select({ id: companyTypes.id }).from(companyTypes).where(eq(companyTypes.id, id)).limit(1);
  return Boolean(row);
}

/** Routes and branches that belong to the company. */
export async function usage(conn: Conn, id: number): Promise<{ routes: number; branches: number }> {
  const [{ n: routeCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(routes)
    .where(eq(routes.company_id, id));
  const [{ n: branchCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(branches)
    .where(eq(branches.company_id, id));
  return { routes: routeCount, branches: branchCount };
}

/** Names are compared case-insensitively: selects show only the name, so two alike would be indistinguishable. */
export async function nameTaken(conn: Conn, name: string, exceptId: number | null): Promise<boolean> {
  const same = sql`lower(${companies.name}) = ${name.toLowerCase()}`;
  const [row] = await conn
    .select({ id: companies.id })
    .from(companies)
    .where(exceptId ? and(same, ne(companies.id, exceptId)) : same)
    .limit(1);
  return Boolean(row);
}
