import { asc, desc, eq, ilike, and, type SQL } from 'drizzle-orm';
import type { CompaniesQuery, Company } from '../../../shared/schemas/companies.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { Conn } from '../../db/client.ts';
import { branches, companies, companyTypes, routes } from '../../db/schema/reference.ts';
import { likePattern } from '../../lib/pagination.ts';
import { refCount, referenceRepo, rowExists } from '../../lib/reference-data.ts';
import { sortedBy } from '../../lib/sorting.ts';

const columns = {
  id: companies.id,
  name: companies.name,
  company_type_id: companies.company_type_id,
  company_type: { id: companyTypes.id, name: companyTypes.name },
};

function listWhere(q: CompaniesQuery): SQL | undefined {
  const filters: SQL[] = [];
  if (q.search) filters.push(ilike(companies.name, likePattern(q.search)));
  if (q.company_type_id) filters.push(eq(companies.company_type_id, q.company_type_id));
  return and(...filters);
}

/** Companies newest first, by name search (trigram index) and company type; by name in the selects. */
export const { page, streamList, all, find, insert, update, remove, nameTaken } = referenceRepo<typeof companies, Company, CompaniesQuery>({
  table: companies,
  rows: (conn) => conn.select(columns).from(companies).innerJoin(companyTypes, eq(companyTypes.id, companies.company_type_id)).$dynamic(),
  ids: (conn) =>
    conn.select({ id: companies.id }).from(companies).innerJoin(companyTypes, eq(companyTypes.id, companies.company_type_id)).$dynamic(),
  where: listWhere,
  order: (q) => sortedBy({ name: companies.name, type: companyTypes.name }, q, companies.id, [desc(companies.id)]),
  allOrder: [asc(companies.name), asc(companies.id)],
});

export async function companyTypeList(conn: Conn): Promise<NamedRef[]> {
  return conn.select({ id: companyTypes.id, name: companyTypes.name }).from(companyTypes).orderBy(asc(companyTypes.id));
}

export const companyTypeExists = (conn: Conn, id: number) => rowExists(conn, companyTypes.id, id);

/** Routes and branches that belong to the company. */
export async function usage(conn: Conn, id: number): Promise<{ routes: number; branches: number }> {
  return { routes: await refCount(conn, routes.company_id, id), branches: await refCount(conn, branches.company_id, id) };
}
