import { asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Branch, BranchesQuery } from '../../../shared/schemas/branches.ts';
import type { Conn } from '../../db/client.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { padCustody } from '../../db/schema/pads.ts';
import { branches, companies, locations } from '../../db/schema/reference.ts';
import { users } from '../../db/schema/users.ts';
import { likePattern } from '../../lib/pagination.ts';
import { refCount, referenceRepo } from '../../lib/reference-data.ts';
import { sortedBy } from '../../lib/sorting.ts';

const company = alias(companies, 'company');
const location = alias(locations, 'location');

const columns = {
  id: branches.id,
  company_id: branches.company_id,
  name: branches.name,
  location_id: branches.location_id,
  company: { id: company.id, name: company.name },
  location: { id: location.id, name: location.name },
};
const onCompany = eq(company.id, branches.company_id);
const onLocation = eq(location.id, branches.location_id);

/** Branches newest first, matching the branch name (trigram index); by name in the selects. */
export const { page, streamList, all, find, insert, update, remove, nameTaken } = referenceRepo<typeof branches, Branch, BranchesQuery>({
  table: branches,
  rows: (conn) => conn.select(columns).from(branches).innerJoin(company, onCompany).innerJoin(location, onLocation).$dynamic(),
  ids: (conn) => conn.select({ id: branches.id }).from(branches).innerJoin(company, onCompany).innerJoin(location, onLocation).$dynamic(),
  where: (q) => (q.search ? ilike(branches.name, likePattern(q.search)) : undefined),
  order: (q) => sortedBy({ company: company.name, name: branches.name, location: location.name }, q, branches.id, [desc(branches.id)]),
  allOrder: [asc(branches.name), asc(branches.id)],
});

/** Users, invoices (to or from the branch) and pads that refer to the branch. */
export async function usage(conn: Conn, id: number): Promise<{ users: number; invoices: number; pads: number }> {
  const [{ n: invoiceCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(or(eq(invoices.branch_id, id), eq(invoices.from_branch_id, id)));
  return {
    users: await refCount(conn, users.branch_id, id),
    invoices: invoiceCount,
    pads: await refCount(conn, padCustody.holder_branch_id, id),
  };
}
